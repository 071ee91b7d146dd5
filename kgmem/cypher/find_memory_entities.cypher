// The entities each given memory mentions, with the mention's confidence and surface text.
// params: $namespace, $ids
MATCH (m:Memory {namespace: $namespace})-[r:MENTIONS]->(e:Entity {namespace: $namespace})
WHERE m.id IN $ids
RETURN m.id AS memory_id, r.confidence AS confidence, r.surface AS surface,
       e {.id, .name, .normalized_name, .type, .aliases, .mention_count, .summary, .created_at} AS entity
ORDER BY memory_id, e.name
