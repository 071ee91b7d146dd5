// A namespace's extraction lease: who holds it until when, and its grant and takeover counts (no row before the first grant).
// params: $namespace
MATCH (l:Lease {id: 'extraction:' + $namespace})
RETURN l.holder AS holder, l.expires_at AS expires_at, l.claims AS claims,
       l.expiries AS expiries, l.taken_over_from AS taken_over_from
