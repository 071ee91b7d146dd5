// Ids of the live embedded memories redundancy has not compared with the namespace since they were written or last changed, in id order, at most $limit (one run's window).
// params: $namespace, $limit
MATCH (m:Memory {namespace: $namespace})
WHERE m.status = 'active' AND coalesce(m.tier, 'episodic') <> 'dormant'
  AND m.synthesis IS NULL AND m.embedding IS NOT NULL
  AND (m.dedup_checked_at IS NULL OR m.modified_at > m.dedup_checked_at)
RETURN m.id AS id
ORDER BY id
LIMIT $limit
