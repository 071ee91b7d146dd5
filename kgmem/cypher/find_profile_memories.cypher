// The best-ranked active memories (centrality, then utility) mentioning each of some entities, with what a profile is written from.
// params: $namespace, $ids, $per_entity
UNWIND $ids AS eid
MATCH (e:Entity {id: eid, namespace: $namespace})
CALL (e) {
  MATCH (m:Memory {namespace: $namespace})-[:MENTIONS]->(e)
  WHERE m.status = 'active' AND m.synthesis IS NULL
  RETURN m ORDER BY coalesce(m.centrality, 0.0) DESC, coalesce(m.utility, 0.5) DESC, m.id
  LIMIT $per_entity
}
WITH e, collect(m {.id, .content, .created_at, .centrality, .utility, .importance}) AS memories
RETURN e.id AS id, e.name AS name, memories
ORDER BY id
