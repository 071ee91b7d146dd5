// The memories that mention each given entity, newest first, at most $limit per entity.
// params: $namespace, $ids, $limit
MATCH (e:Entity {namespace: $namespace}) WHERE e.id IN $ids
CALL (e) {
  MATCH (m:Memory {namespace: $namespace})-[:MENTIONS]->(e)
  WHERE m.status <> 'deleted'
  RETURN m ORDER BY m.created_at DESC, m.id LIMIT $limit
}
RETURN e.id AS entity_id, m {.*, embedding: null} AS memory
