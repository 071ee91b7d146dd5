// One page (keyset by id) of a namespace's live working and episodic memories with the entity ids they mention, for seed 004's co-occurrence rule.
// params: $namespace, $after, $limit
MATCH (m:Memory {namespace: $namespace})
WHERE m.id > $after AND coalesce(m.status, 'active') IN ['active', 'stale']
  AND coalesce(m.tier, 'episodic') IN ['working', 'episodic']
RETURN m {.id, .status, .tier, .created_at, .access_count,
          entities: [(m)-[:MENTIONS]->(e:Entity) | e.id]} AS memory
ORDER BY m.id
LIMIT $limit
