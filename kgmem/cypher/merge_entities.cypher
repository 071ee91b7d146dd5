// Create or extend entities (resolved ids decided by the caller) and link the memories that mention them.
// params: $namespace, $entities, $mentions
// Planned once (replan=skip): every node is found by its unique id, so the plan does not depend
// on the store's counts, and replanning it as they drift cost 0.3-0.9 s of server CPU each time.
CYPHER replan=skip
CALL () {
  UNWIND $entities AS e
  MERGE (n:Entity {id: e.id})
  ON CREATE SET n.namespace = $namespace, n.name = e.name, n.normalized_name = e.normalized_name,
                n.type = e.type, n.aliases = [], n.aliases_norm = [], n.first_token = e.first_token,
                n.mention_count = 0, n.created_at = e.at, n.embedding = e.embedding
  WITH n, e WHERE n.namespace = $namespace
  SET n.aliases = CASE WHEN e.name IN n.aliases THEN n.aliases ELSE n.aliases + e.name END,
      n.aliases_norm = CASE WHEN e.normalized_name IN n.aliases_norm THEN n.aliases_norm
                            ELSE n.aliases_norm + e.normalized_name END
  SET n.aliases_text = reduce(s = '', a IN n.aliases | s + ' ' + a)
  RETURN count(n) AS entities
}
CALL () {
  UNWIND $mentions AS x
  MATCH (m:Memory {id: x.memory_id, namespace: $namespace})
  MATCH (n:Entity {id: x.entity_id, namespace: $namespace})
  MERGE (m)-[r:MENTIONS]->(n)
  ON CREATE SET r.confidence = x.confidence, r.created_at = x.at, r.surface = x.surface,
                r.resolved_by = x.resolved_by, n.mention_count = n.mention_count + 1
  RETURN count(r) AS mentions
}
RETURN entities, mentions
