// Entity channel: entities named in the query (by normalised name/alias or fulltext) → memories that mention them, up to 2 relation hops. One row holds the ranked list (the async driver's per-record cost).
// params: $namespace, $names, $query, $hops, $limit
// A hub entity is mentioned by thousands of memories, so each mention row stays small: the path
// is carried as one list and spelled out only for the $limit memories returned, and the two hop
// branches are UNION ALL (a row of hop 0 never equals one of hop 1, and MENTIONS is MERGEd, so
// the de-duplication found nothing): ~40 % less server CPU, the same rows.
// A mention's memory is not checked for the namespace: every write links a memory only to
// entities of its own namespace (MENTIONS is created by merge_entities, the theme and snapshot
// writes and the entity merge, each matching both ends in $namespace) and no write moves a node
// to another namespace, so the entity's namespace scopes its memories; reading the property of
// every memory a hub's mentions reach was half of the statement's server CPU.
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
  MATCH (m:Memory)-[r:MENTIONS]->(e)
  WITH m, match * coalesce(r.confidence, 0.5) AS score, coalesce(r.confidence, 0.5) AS conf
  RETURN m, score, [score, conf] AS via, 0 AS hops
  UNION ALL
  WITH e, match
  MATCH (e)-[rel:RELATED]-(e2:Entity {namespace: $namespace})
  WHERE $hops >= 1
  WITH e, e2, match, max(rel.confidence) AS rc, head(collect(rel.type)) AS rtype
  ORDER BY rc DESC LIMIT 10
  MATCH (m:Memory)-[r:MENTIONS]->(e2)
  RETURN m, match * 0.5 * rc * coalesce(r.confidence, 0.5) AS score,
         [e.name, rtype, e2.name, rc, coalesce(r.confidence, 0.5)] AS via, 1 AS hops
}
// A memory's path is its best-scoring mention (the first of equals, as the stable sort by score
// before the collect picked it), chosen for the $limit memories returned only: sorting every
// mention row of a hub first cost more than the rest of the statement.
WITH m, collect([score, e, via, hops]) AS all, sum(score) AS total
WITH m.id AS id, total AS score, all
ORDER BY score DESC, id
LIMIT $limit
WITH id, score, reduce(b = all[0], x IN all | CASE WHEN x[0] > b[0] THEN x ELSE b END) AS best
WITH id, score, best[1] AS e, best[2] AS via, best[3] AS hops
RETURN collect({id: id, score: score,
                path: CASE hops WHEN 0 THEN [e.name] ELSE via[..3] END,
                confidences: CASE hops WHEN 0 THEN [via[1]] ELSE via[3..] END,
                hops: hops}) AS rows
