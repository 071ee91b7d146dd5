// The co-occurrence rule set-based: ids of the entities at least $min_memories live episodic memories mention (a working memory counts when it leaves working in this run: created at or before $working_before, or accessed $working_accesses+ times).
// params: $namespace, $statuses, $working_before, $working_accesses, $min_memories
MATCH (m:Memory {namespace: $namespace})-[:MENTIONS]->(e:Entity)
WHERE coalesce(m.status, 'active') IN $statuses
  AND (coalesce(m.tier, 'episodic') = 'episodic'
       OR (m.tier = 'working'
           AND (coalesce(m.created_at, m.recorded_at) <= $working_before
                OR coalesce(m.access_count, 0) >= $working_accesses)))
WITH e, count(DISTINCT m) AS memories
WHERE memories >= $min_memories
RETURN e.id AS id
ORDER BY id
