// Every recorded status change of each given memory, oldest first.
// params: $namespace, $ids
MATCH (s:StatusChange {namespace: $namespace}) WHERE s.memory_id IN $ids
RETURN s.memory_id AS memory_id, s {.old, .new, .reason, .actor, .at, .related_id} AS change
ORDER BY memory_id, s.at, s.id
