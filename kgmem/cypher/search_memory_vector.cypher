// Nearest memories to a query embedding within one namespace (overfetches $k from the index, then filters).
// params: $namespace, $embedding, $k, $limit
CALL db.index.vector.queryNodes('memory_embedding', $k, $embedding) YIELD node, score
WITH node, score WHERE node.namespace = $namespace
RETURN node.id AS id, score
ORDER BY score DESC
LIMIT $limit
