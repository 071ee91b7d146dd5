// Entity channel: entities named in the query (by normalised name/alias or fulltext) → memories that mention them, up to 2 relation hops. One row holds the ranked list (the async driver's per-record cost).
// params: $namespace, $names, $query, $hops, $limit
CALL () {
  MATCH (e:Entity {namespace: $namespace})
  WHERE e.normalized_name IN $names OR any(a IN coalesce(e.aliases_norm, []) WHERE a IN $names)
  RETURN e, 1.0 AS match
  UNION
  UNWIND CASE WHEN $query = '' THEN [] ELSE [$query] END AS q
  CALL db.index.fulltext.queryNodes('entity_names', q, {limit: 10}) YIELD node, score
  WITH node, score WHERE node.namespace = $namespace AND score > 1.0
  RETURN node AS e, 0.6 AS match
}
WITH e, max(match) AS match
CALL (e, match) {
  MATCH (m:Memory {namespace: $namespace})-[r:MENTIONS]->(e)
  RETURN m, match * coalesce(r.confidence, 0.5) AS score,
         [e.name] AS names, [coalesce(r.confidence, 0.5)] AS confs, 0 AS hops
  UNION
  WITH e, match
  MATCH (e)-[rel:RELATED]-(e2:Entity {namespace: $namespace})
  WHERE $hops >= 1
  WITH e, e2, match, max(rel.confidence) AS rc, head(collect(rel.type)) AS rtype
  ORDER BY rc DESC LIMIT 10
  MATCH (m:Memory {namespace: $namespace})-[r:MENTIONS]->(e2)
  RETURN m, match * 0.5 * rc * coalesce(r.confidence, 0.5) AS score,
         [e.name, rtype, e2.name] AS names, [rc, coalesce(r.confidence, 0.5)] AS confs, 1 AS hops
}
WITH m, score, names, confs, hops
ORDER BY score DESC
WITH m, collect({score: score, names: names, confs: confs, hops: hops})[0] AS best,
     sum(score) AS total
WITH m.id AS id, total AS score, best
ORDER BY score DESC, id
LIMIT $limit
RETURN collect({id: id, score: score, path: best.names, confidences: best.confs,
                hops: best.hops}) AS rows
