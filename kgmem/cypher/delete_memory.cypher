// Hard-delete one memory: the node and its edges, its status records, and the episodes no other memory derives from; entity mention counts drop.
// params: $namespace, $id
MATCH (m:Memory {id: $id, namespace: $namespace})
OPTIONAL MATCH (m)-[:MENTIONS]->(e:Entity {namespace: $namespace})
SET e.mention_count = CASE WHEN coalesce(e.mention_count, 0) > 0 THEN e.mention_count - 1 ELSE 0 END
WITH DISTINCT m
CALL (m) {
  OPTIONAL MATCH (m)-[:DERIVED_FROM]->(ep:Episode {namespace: $namespace})
  WHERE NOT EXISTS { MATCH (ep)<-[:DERIVED_FROM]-(o:Memory) WHERE o <> m }
  WITH collect(ep) AS orphans
  FOREACH (x IN orphans | DETACH DELETE x)
  RETURN size(orphans) AS episodes
}
CALL (m) {
  OPTIONAL MATCH (s:StatusChange {namespace: $namespace, memory_id: m.id})
  WITH collect(s) AS audit
  FOREACH (x IN audit | DELETE x)
  RETURN size(audit) AS changes
}
DETACH DELETE m
RETURN episodes, changes
