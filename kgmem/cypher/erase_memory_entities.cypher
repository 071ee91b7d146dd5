// Hard forget, entities: delete those only the erased memories mention (with their relations, profile and embedding); on those other memories still mention, take the erased memories out of the mention counts and relation evidence (a relation only they evidenced goes), drop a profile written from them, and rename as planned.
// params: $namespace, $ids, $renames
CALL () {
  UNWIND $ids AS mid
  MATCH (:Memory {id: mid, namespace: $namespace})-[:MENTIONS]->(e)
  WITH DISTINCT e
  WHERE e.namespace = $namespace
    AND NOT EXISTS { MATCH (o:Memory)-[:MENTIONS]->(e) WHERE NOT o.id IN $ids }
  DETACH DELETE e
  RETURN count(*) AS deleted
}
CALL () {
  UNWIND $ids AS mid
  MATCH (m:Memory {id: mid, namespace: $namespace})-[:MENTIONS]->(e)
  WITH e, count(DISTINCT m) AS lost
  WHERE e.namespace = $namespace
  WITH e, lost, any(s IN coalesce(e.summary_sources, []) WHERE s IN $ids) AS stale
  SET e.mention_count = CASE WHEN coalesce(e.mention_count, 0) > lost
                             THEN e.mention_count - lost ELSE 0 END,
      e.summary = CASE WHEN stale THEN null ELSE e.summary END,
      e.summary_sources = CASE WHEN stale THEN null ELSE e.summary_sources END,
      e.summary_fingerprint = CASE WHEN stale THEN null ELSE e.summary_fingerprint END,
      e.summary_method = CASE WHEN stale THEN null ELSE e.summary_method END,
      e.summary_at = CASE WHEN stale THEN null ELSE e.summary_at END
  WITH e
  CALL (e) {
    MATCH (e)-[r:RELATED]-()
    WHERE any(x IN coalesce(r.evidence, []) WHERE x IN $ids)
    WITH DISTINCT r, [x IN r.evidence WHERE NOT x IN $ids] AS rest
    SET r.count = CASE WHEN coalesce(r.count, 0) > size(r.evidence) - size(rest)
                       THEN r.count - (size(r.evidence) - size(rest)) ELSE 0 END,
        r.evidence = rest
    WITH r, rest WHERE size(rest) = 0
    DELETE r
    RETURN count(*) AS unrelated
  }
  RETURN count(e) AS kept, sum(unrelated) AS unrelated
}
CALL () {
  UNWIND $renames AS x
  MATCH (e:Entity {id: x.id, namespace: $namespace})
  SET e.name = x.name, e.normalized_name = x.normalized_name, e.first_token = x.first_token,
      e.aliases = x.aliases, e.aliases_norm = x.aliases_norm,
      e.aliases_text = reduce(s = '', a IN x.aliases | s + ' ' + a),
      e.embedding = coalesce(x.embedding, e.embedding)
  WITH e, x
  CALL (e, x) {
    MATCH (:MergedEntity)-[s:SAME_AS]->(e)
    SET s.added_aliases = [a IN coalesce(s.added_aliases, []) WHERE a IN x.aliases],
        s.added_aliases_norm = [a IN coalesce(s.added_aliases_norm, []) WHERE a IN x.aliases_norm]
    RETURN count(s) AS merges
  }
  RETURN count(e) AS renamed
}
RETURN deleted, kept, unrelated, renamed
