// Create new memories with DERIVED_FROM provenance to their episodes; a live memory of the same content hash is used instead of a copy (idempotent on namespace + content hash among live memories).
// params: $namespace, $memories, $live, $retiring
// A memory the same plan retires ($retiring) or one already retired is history, not a twin: "I
// live in Denver" said again after "I moved to Austin" is a new state of its own, valid from
// now, while the first Denver memory stays superseded with its own validity. (Merging on the
// hash alone folded the new state into the retired node, and the restated value was lost.)
// Writers of a namespace hold its write lock, so no other writer creates a twin meanwhile.
UNWIND $memories AS mem
OPTIONAL MATCH (t:Memory {namespace: $namespace, content_hash: mem.props.content_hash})
  WHERE coalesce(t.status, 'active') IN $live AND NOT t.id IN $retiring
WITH mem, head(collect(t)) AS twin
CALL (mem, twin) {
  WITH mem, twin WHERE twin IS NULL
  CREATE (n:Memory {namespace: $namespace})
  SET n += mem.props
  RETURN n
UNION
  WITH mem, twin WHERE twin IS NOT NULL
  RETURN twin AS n
}
WITH n AS m, mem
CALL (m, mem) {
  UNWIND mem.episode_ids AS eid
  MATCH (e:Episode {id: eid, namespace: $namespace})
  MERGE (m)-[d:DERIVED_FROM]->(e)
  ON CREATE SET d.created_at = mem.props.created_at, d.confidence = 1.0, d.role = 'source'
  RETURN count(d) AS linked
}
RETURN m.id AS id, mem.key AS key, m.id = mem.props.id AS created
