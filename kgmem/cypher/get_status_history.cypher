// Every recorded status change of one memory, oldest first.
// params: $namespace, $id
MATCH (s:StatusChange {namespace: $namespace, memory_id: $id})
RETURN s {.old, .new, .reason, .actor, .at, .related_id} AS change
ORDER BY s.at, s.id
