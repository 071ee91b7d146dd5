// The lowest-utility live memories a capacity trim may send dormant (pinned, immutable, flashbulb and core ones never are).
// params: $namespace, $limit
MATCH (m:Memory {namespace: $namespace, status: 'active'})
WHERE NOT coalesce(m.tier, 'episodic') IN ['dormant', 'core']
  AND NOT coalesce(m.pinned, false) AND NOT coalesce(m.immutable, false)
  AND NOT coalesce(m.flashbulb, false)
RETURN m.id AS id, coalesce(m.tier, 'episodic') AS tier, coalesce(m.utility, 0.5) AS utility,
       coalesce(m.importance, 0.5) AS importance, m.created_at AS created_at,
       coalesce(m.pinned, false) AS pinned, coalesce(m.immutable, false) AS immutable,
       coalesce(m.flashbulb, false) AS flashbulb
ORDER BY utility, importance, created_at, id
LIMIT $limit
