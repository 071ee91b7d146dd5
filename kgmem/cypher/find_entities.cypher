// Entities of a namespace, most mentioned first.
// params: $namespace, $limit
MATCH (e:Entity {namespace: $namespace})
RETURN e {.id, .name, .normalized_name, .type, .aliases, .aliases_norm, .mention_count} AS entity
ORDER BY e.mention_count DESC, e.name
LIMIT $limit
