// Entity channel: entities named in the query (by normalised name/alias or fulltext) → memories that mention them, up to 2 relation hops.
// Bounded: each target entity (matched, or one hop away) contributes only its $limit best memories
// (by match weight × mention confidence, then id) as candidates, kept in a Top heap instead of
// sorting and aggregating every mention of a hub entity; the candidates are then scored exactly
// over all targets. Only a memory beyond $limit in every one of its entities' lists can be missed.
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
  RETURN e AS node, match AS weight, [e.name] AS names, [] AS confs, 0 AS hops
  UNION
  MATCH (e)-[rel:RELATED]-(e2:Entity {namespace: $namespace})
  WHERE $hops >= 1
  WITH e, e2, match, max(rel.confidence) AS rc, head(collect(rel.type)) AS rtype
  ORDER BY rc DESC LIMIT 10
  RETURN e2 AS node, match * 0.5 * rc AS weight, [e.name, rtype, e2.name] AS names, [rc] AS confs,
         1 AS hops
}
WITH collect({node: node, weight: weight, names: names, confs: confs, hops: hops}) AS targets
CALL (targets) {
  UNWIND targets AS t
  CALL (t) {
    WITH t.node AS n, t.weight AS w
    MATCH (m:Memory {namespace: $namespace})-[r:MENTIONS]->(n)
    WITH m, w * coalesce(r.confidence, 0.5) AS score
    ORDER BY score DESC, m.id
    LIMIT $limit
    RETURN m
  }
  RETURN collect(DISTINCT m) AS candidates
}
UNWIND candidates AS m
UNWIND targets AS t
MATCH (m)-[r:MENTIONS]->(n) WHERE n = t.node
WITH m, t.weight * coalesce(r.confidence, 0.5) AS score, t.names AS names,
     t.confs + [coalesce(r.confidence, 0.5)] AS confs, t.hops AS hops
ORDER BY score DESC
WITH m, collect({score: score, names: names, confs: confs, hops: hops})[0] AS best,
     sum(score) AS total
RETURN m.id AS id, total AS score, best.names AS path, best.confs AS confidences,
       best.hops AS hops
ORDER BY score DESC, id
LIMIT $limit
