// Pin or unpin one memory (a pinned memory is exempt from decay, demotion and silent supersession).
// params: $namespace, $id, $pinned, $now
MATCH (m:Memory {id: $id, namespace: $namespace})
SET m.pinned = $pinned, m.modified_at = $now
RETURN m {.*, embedding: null} AS memory
