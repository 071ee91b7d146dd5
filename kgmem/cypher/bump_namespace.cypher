// Advance a namespace's write version (graph projections older than it are stale).
// params: $namespace, $now
MERGE (s:NamespaceState {namespace: $namespace})
ON CREATE SET s.version = 0, s.id = $namespace
SET s.version = s.version + 1, s.updated_at = $now
RETURN s.version AS version
