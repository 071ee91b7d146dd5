// Give a namespace's extraction lease back, if this holder still holds it.
// params: $namespace, $holder, $now
MATCH (l:Lease {id: 'extraction:' + $namespace})
WHERE l.holder = $holder
SET l.holder = null, l.expires_at = $now, l.released_at = $now, l.last_holder = $holder
RETURN count(l) AS released
