// One page of a namespace's memories, newest first, filtered, after a (created_at, id) cursor; without embeddings.
// params: $namespace, $statuses, $categories, $tiers, $min_confidence, $after_at, $after_id, $limit
MATCH (m:Memory {namespace: $namespace})
WHERE m.status IN $statuses
  AND ($categories IS NULL OR m.category IN $categories)
  AND ($tiers IS NULL OR m.tier IN $tiers)
  AND coalesce(m.confidence, 0.0) >= $min_confidence
  AND ($after_at IS NULL OR m.created_at < $after_at
       OR (m.created_at = $after_at AND m.id > $after_id))
RETURN m {.*, embedding: null} AS memory
ORDER BY m.created_at DESC, m.id
LIMIT $limit
