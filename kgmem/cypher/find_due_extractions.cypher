// Namespaces whose pending turns a worker should extract now, oldest first: a turn asked for it (`due`: a HIGH signal or a flush), or `$max_turns` turns wait, or the oldest waited longer than `$max_age_s` (server clock, as `stored_at`); skipping namespaces whose extraction lease another holder still has.
// params: $now, $max_turns, $max_age_s, $limit
MATCH (e:Episode) WHERE e.extracted = false
WITH e.namespace AS namespace, count(e) AS pending, max(coalesce(e.due, false)) AS asked,
     min(coalesce(e.stored_at, e.recorded_at)) AS oldest
WHERE asked OR pending >= $max_turns OR oldest < datetime() - duration({seconds: $max_age_s})
OPTIONAL MATCH (l:Lease {id: 'extraction:' + namespace})
WITH namespace, pending, oldest, l
WHERE l IS NULL OR l.holder IS NULL OR l.expires_at <= $now
RETURN namespace, pending, oldest
ORDER BY oldest
LIMIT $limit
