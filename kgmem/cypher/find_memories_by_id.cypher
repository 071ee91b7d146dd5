// Memories of one namespace by id (any status), without embeddings; ids of other namespaces return nothing.
// params: $namespace, $ids
MATCH (m:Memory {namespace: $namespace}) WHERE m.id IN $ids
RETURN m {.*, embedding: null} AS memory
