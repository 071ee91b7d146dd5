// BM25 fulltext search over memory content within one namespace ($query is an escaped Lucene query). The index is shared by every namespace: it reads $k rows and keeps this namespace's; `seen` tells the caller whether a wider read could find more.
// params: $namespace, $query, $k, $limit
CALL db.index.fulltext.queryNodes('memory_content', $query, {limit: $k}) YIELD node, score
WITH count(*) AS seen,
     collect(CASE WHEN node.namespace = $namespace THEN {id: node.id, score: score} END) AS own
RETURN seen, own[..$limit] AS hits
