// Nearest memories to a query embedding within one namespace (overfetches $k from the index, then filters).
// params: $namespace, $embedding, $k, $limit
CALL db.index.vector.queryNodes('memory_embedding', $k, $embedding) YIELD node, score
WHERE node.namespace = $namespace AND coalesce(node.status, 'active') = 'active'
RETURN node.id AS id, node.content AS content, node.category AS category, score
ORDER BY score DESC
LIMIT $limit
