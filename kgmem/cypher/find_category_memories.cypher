// The best-ranked active memories (centrality, then utility) of each of some categories, with what a category summary is written from.
// params: $namespace, $categories, $per_category
UNWIND $categories AS c
CALL (c) {
  MATCH (m:Memory {namespace: $namespace})
  WHERE m.status = 'active' AND m.synthesis IS NULL AND coalesce(m.category, 'fact') = c
  RETURN m ORDER BY coalesce(m.centrality, 0.0) DESC, coalesce(m.utility, 0.5) DESC, m.id
  LIMIT $per_category
}
WITH c, collect(m {.id, .content, .created_at, .centrality, .utility, .importance, .embedding})
     AS memories
RETURN c AS category, memories
ORDER BY category
