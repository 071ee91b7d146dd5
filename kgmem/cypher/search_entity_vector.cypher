// Nearest existing entities of a namespace to each mentioned name's embedding.
// params: $namespace, $items, $k
UNWIND $items AS it
CALL db.index.vector.queryNodes('entity_embedding', $k, it.embedding) YIELD node, score
WITH it, node, score WHERE node.namespace = $namespace
RETURN it.key AS key, score,
       node {.id, .name, .normalized_name, .type, .aliases_norm} AS entity
