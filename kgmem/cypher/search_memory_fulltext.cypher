// BM25 fulltext search over memory content within one namespace ($query is an escaped Lucene query).
// params: $namespace, $query, $k, $limit
CALL db.index.fulltext.queryNodes('memory_content', $query, {limit: $k}) YIELD node, score
WHERE node.namespace = $namespace AND coalesce(node.status, 'active') = 'active'
RETURN node.id AS id, node.content AS content, node.category AS category, score
ORDER BY score DESC
LIMIT $limit
