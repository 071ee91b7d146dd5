// For each candidate: exact content-hash twins and the nearest memories by embedding, in one namespace.
// params: $namespace, $items, $k
UNWIND $items AS it
CALL {
  WITH it
  OPTIONAL MATCH (h:Memory {namespace: $namespace, content_hash: it.hash})
  RETURN collect(h.id) AS hash_ids
}
CALL {
  WITH it
  CALL db.index.vector.queryNodes('memory_embedding', $k, it.embedding) YIELD node, score
  WITH node, score WHERE node.namespace = $namespace
  OPTIONAL MATCH (node)-[:MENTIONS]->(e:Entity)
  WITH node, score, collect(e.normalized_name) AS entities
  RETURN collect(node {.id, .content, .content_hash, .category, .status, .valid_from, .valid_until,
                       .importance, .utility, .confidence, .pinned, .immutable, .created_at,
                       .session_id, similarity: score, entities: entities}) AS neighbours
}
RETURN it.key AS key, hash_ids, neighbours
