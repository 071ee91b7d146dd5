// Create theme memories (a cluster of near-duplicates merged into one) mentioning the union of their members' entities.
// params: $namespace, $themes
UNWIND $themes AS t
CREATE (m:Memory)
SET m = t.props, m.namespace = $namespace
WITH m, t
CALL (m, t) {
  UNWIND t.entity_ids AS eid
  MATCH (e:Entity {id: eid, namespace: $namespace})
  MERGE (m)-[r:MENTIONS]->(e)
  ON CREATE SET r.confidence = 1.0, r.created_at = m.created_at, r.resolved_by = 'theme',
                e.mention_count = coalesce(e.mention_count, 0) + 1
  RETURN count(r) AS linked
}
RETURN m.id AS id, linked
