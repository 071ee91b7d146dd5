// Memories of a namespace (optionally only some statuses), newest first, without embeddings.
// params: $namespace, $statuses, $limit
MATCH (m:Memory {namespace: $namespace})
WHERE $statuses IS NULL OR m.status IN $statuses
RETURN m {.*, embedding: null} AS memory
ORDER BY m.created_at DESC, m.id
LIMIT $limit
