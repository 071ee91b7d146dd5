// Reinforce or update existing memories (update keeps the previous text in `versions`), adding provenance.
// params: $namespace, $updates
// Planned once (replan=skip): every node is found by its unique id, so the plan does not depend
// on the store's counts, and replanning it as they drift cost 0.3-0.9 s of server CPU each time.
CYPHER replan=skip
UNWIND $updates AS u
MATCH (m:Memory {id: u.id, namespace: $namespace})
SET m.repetition_count = coalesce(m.repetition_count, 1) + 1,
    m.last_reinforced_at = u.at,
    m.confidence = CASE WHEN u.confidence > coalesce(m.confidence, 0.0) THEN u.confidence
                        ELSE m.confidence END,
    m.stability = coalesce(m.stability, 1.0) * u.stability_factor
FOREACH (_ IN CASE WHEN u.content IS NULL OR u.content = m.content THEN [] ELSE [1] END |
  SET m.versions = coalesce(m.versions, []) + m.content,
      m.content = u.content, m.content_hash = u.content_hash, m.embedding = u.embedding,
      m.modified_at = u.at)
WITH m, u
CALL (m, u) {
  UNWIND u.episode_ids AS eid
  MATCH (e:Episode {id: eid, namespace: $namespace})
  MERGE (m)-[d:DERIVED_FROM]->(e)
  ON CREATE SET d.created_at = u.at, d.confidence = u.similarity, d.role = 'reinforce'
  RETURN count(d) AS linked
}
RETURN m.id AS id
