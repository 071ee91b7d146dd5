// Create status snapshot memories distilled from session notes: DERIVED_FROM each note (the notes stay as they are) and MENTIONS the notes' entities.
// params: $namespace, $snapshots, $now
UNWIND $snapshots AS x
CREATE (m:Memory)
SET m = x.props, m.namespace = $namespace
WITH m, x
CALL (m, x) {
  UNWIND x.sources AS sid
  MATCH (n:Memory {id: sid, namespace: $namespace})
  CREATE (m)-[r:DERIVED_FROM {created_at: $now, confidence: 1.0, rule: 'session_distillation'}]->(n)
  RETURN count(r) AS linked
}
CALL (m, x) {
  UNWIND x.entity_ids AS eid
  MATCH (e:Entity {id: eid, namespace: $namespace})
  MERGE (m)-[r:MENTIONS]->(e)
  ON CREATE SET r.confidence = 1.0, r.created_at = $now, r.resolved_by = 'distillation',
                e.mention_count = coalesce(e.mention_count, 0) + 1
  RETURN count(r) AS mentions
}
RETURN m.id AS id, linked, mentions
