// For each candidate: exact content-hash twins and the nearest memories by embedding, in one namespace. The vector index is shared by every namespace: each item reads $k rows and keeps this namespace's; `seen` tells the caller whether a wider read could find more.
// params: $namespace, $items, $k
UNWIND $items AS it
CALL (it) {
  OPTIONAL MATCH (h:Memory {namespace: $namespace, content_hash: it.hash})
  RETURN collect(h.id) AS hash_ids
}
CALL (it) {
  CALL db.index.vector.queryNodes('memory_embedding', $k, it.embedding) YIELD node, score
  WITH collect({node: node, score: score}) AS found
  RETURN size(found) AS seen, [x IN found WHERE x.node.namespace = $namespace][..$k] AS own
}
CALL (own) {
  UNWIND own AS x
  WITH x.node AS node, x.score AS score
  OPTIONAL MATCH (node)-[:MENTIONS]->(e:Entity)
  WITH node, score, collect(e.normalized_name) AS entities
  ORDER BY score DESC
  RETURN collect(node {.id, .content, .content_hash, .category, .status, .valid_from, .valid_until,
                       .importance, .utility, .confidence, .pinned, .immutable, .created_at,
                       .session_id, similarity: score, entities: entities}) AS neighbours
}
RETURN it.key AS key, hash_ids, neighbours, seen
