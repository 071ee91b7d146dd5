// BM25 fulltext search over memory content within one namespace ($query is an escaped Lucene query).
// params: $namespace, $query, $k, $limit
CALL db.index.fulltext.queryNodes('memory_content', $query, {limit: $k}) YIELD node, score
WITH node, score WHERE node.namespace = $namespace
RETURN node.id AS id, score
ORDER BY score DESC
LIMIT $limit
