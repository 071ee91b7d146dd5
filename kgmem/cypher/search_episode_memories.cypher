// Episode channel: BM25 over the turns as said, within one namespace, then the memories derived from the matching episodes (a memory scores its best episode). The index is shared by every namespace: it reads $k rows and keeps this namespace's; `seen` and `episodes` tell the caller whether a wider read could find more.
// params: $namespace, $query, $k, $limit
CALL db.index.fulltext.queryNodes('episode_text', $query, {limit: $k}) YIELD node, score
WITH count(*) AS seen,
     collect(CASE WHEN node.namespace = $namespace THEN {episode: node, score: score} END) AS own
CALL (own) {
  UNWIND own AS x
  WITH x.episode AS e, x.score AS score
  MATCH (m:Memory {namespace: $namespace})-[:DERIVED_FROM]->(e)
  WITH m, max(score) AS score
  ORDER BY score DESC, m.id
  LIMIT $limit
  RETURN collect({id: m.id, score: score}) AS hits
}
RETURN seen, size(own) AS episodes, hits
