// Nearest memories to a query embedding within one namespace. The index is shared by every namespace, so it reads $k rows and keeps this namespace's; `seen` tells the caller whether a wider read could find more.
// params: $namespace, $embedding, $k, $limit
CALL db.index.vector.queryNodes('memory_embedding', $k, $embedding) YIELD node, score
WITH count(*) AS seen,
     collect(CASE WHEN node.namespace = $namespace THEN {id: node.id, score: score} END) AS own
RETURN seen, own[..$limit] AS hits
