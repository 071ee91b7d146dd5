// Upsert memory boxes and traces, and link memories to boxes and sealed boxes to traces.
// params: $namespace, $boxes, $members, $traces
// Planned once (replan=skip): every node is found by its unique id, so the plan does not depend
// on the store's counts, and replanning it as they drift cost 0.3-0.9 s of server CPU each time.
CYPHER replan=skip
CALL () {
  UNWIND $boxes AS bx
  MERGE (b:Box {id: bx.id})
  ON CREATE SET b.namespace = $namespace, b.session_id = bx.session_id, b.opened_at = bx.opened_at
  SET b.status = bx.status, b.topics = bx.topics, b.memory_count = bx.memory_count,
      b.last_at = bx.last_at, b.sealed_at = bx.sealed_at, b.seal_reason = bx.seal_reason
  RETURN count(b) AS boxes
}
CALL () {
  UNWIND $members AS mb
  MATCH (m:Memory {id: mb.memory_id, namespace: $namespace})
  MATCH (b:Box {id: mb.box_id, namespace: $namespace})
  MERGE (m)-[r:IN_BOX]->(b) ON CREATE SET r.created_at = mb.at, r.confidence = 1.0
  RETURN count(r) AS members
}
CALL () {
  UNWIND $traces AS tr
  MERGE (t:Trace {id: tr.id})
  ON CREATE SET t.namespace = $namespace, t.created_at = tr.at, t.box_count = 0
  SET t.topics = tr.topics, t.last_at = tr.at, t.box_count = t.box_count + 1
  WITH t, tr
  MATCH (b:Box {id: tr.box_id, namespace: $namespace})
  MERGE (b)-[r:IN_TRACE]->(t) ON CREATE SET r.created_at = tr.at, r.confidence = tr.overlap
  RETURN count(r) AS traced
}
RETURN boxes, members, traced
