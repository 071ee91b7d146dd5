// Create new memories (idempotent on namespace + content hash) with DERIVED_FROM provenance to their episodes.
// params: $namespace, $memories
UNWIND $memories AS mem
MERGE (m:Memory {namespace: $namespace, content_hash: mem.props.content_hash})
ON CREATE SET m += mem.props
WITH m, mem
CALL (m, mem) {
  UNWIND mem.episode_ids AS eid
  MATCH (e:Episode {id: eid, namespace: $namespace})
  MERGE (m)-[d:DERIVED_FROM]->(e)
  ON CREATE SET d.created_at = mem.props.created_at, d.confidence = 1.0, d.role = 'source'
  RETURN count(d) AS linked
}
RETURN m.id AS id, mem.key AS key, m.id = mem.props.id AS created
