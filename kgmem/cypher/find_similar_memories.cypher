// Near-duplicate candidates from the vector index (shared by every namespace: it reads $candidates rows per memory and keeps this namespace's live ones): for each memory of the run's window ($ids), its $top_k nearest at or above a similarity cutoff (index cosine score = (1 + cos) / 2).
// params: $namespace, $ids, $top_k, $cutoff, $candidates, $limit
UNWIND $ids AS id
MATCH (a:Memory {id: id, namespace: $namespace})
WHERE a.embedding IS NOT NULL
CALL (a) {
  CALL db.index.vector.queryNodes('memory_embedding', $candidates, a.embedding)
  YIELD node AS b, score
  WITH b, score
  WHERE b <> a AND b.namespace = $namespace AND score >= $cutoff AND b.status = 'active'
    AND coalesce(b.tier, 'episodic') <> 'dormant' AND b.synthesis IS NULL
  RETURN b, score AS similarity
  ORDER BY similarity DESC, b.id
  LIMIT $top_k
}
RETURN a {.id, .utility, .importance, .access_count, .created_at, .pinned, .immutable} AS a,
       b {.id, .utility, .importance, .access_count, .created_at, .pinned, .immutable} AS b,
       similarity
ORDER BY similarity DESC, a.id, b.id
LIMIT $limit
