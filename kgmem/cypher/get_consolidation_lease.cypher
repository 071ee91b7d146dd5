// A namespace's consolidation lease: who holds it, until when, and the consolidation epoch.
// params: $namespace
OPTIONAL MATCH (l:Lease {id: 'consolidation:' + $namespace})
RETURN l.holder AS holder, l.expires_at AS expires_at, coalesce(l.epoch, 0) AS epoch
