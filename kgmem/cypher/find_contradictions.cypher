// Unresolved CONTRADICTS edges of a namespace, with what deciding the older side needs.
// params: $namespace, $limit
MATCH (a:Memory {namespace: $namespace})-[r:CONTRADICTS]->(b:Memory {namespace: $namespace})
WHERE coalesce(r.resolved, false) = false
RETURN elementId(r) AS edge,
       a {.id, .created_at, .valid_from, .tier, .pinned, .immutable} AS a,
       b {.id, .created_at, .valid_from, .tier, .pinned, .immutable} AS b
ORDER BY r.created_at, a.id, b.id
LIMIT $limit
