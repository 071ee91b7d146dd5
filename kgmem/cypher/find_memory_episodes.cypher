// The episodes (observed turns) each given memory derives from, oldest first.
// params: $namespace, $ids
MATCH (m:Memory {namespace: $namespace})-[:DERIVED_FROM]->(e:Episode {namespace: $namespace})
WHERE m.id IN $ids
RETURN m.id AS memory_id,
       e {.id, .session_id, .role, .speaker, .text, .at, .turn_id, .extracted, .recorded_at} AS episode
ORDER BY memory_id, e.at, e.seq
