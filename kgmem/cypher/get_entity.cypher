// One entity of a namespace by id, or by normalised name or alias.
// params: $namespace, $id, $normalized
MATCH (e:Entity {namespace: $namespace})
WHERE e.id = $id OR e.normalized_name = $normalized OR $normalized IN coalesce(e.aliases_norm, [])
RETURN e {.id, .name, .normalized_name, .type, .aliases, .mention_count, .summary, .created_at} AS entity
ORDER BY CASE WHEN e.id = $id THEN 0 WHEN e.normalized_name = $normalized THEN 1 ELSE 2 END,
         e.mention_count DESC
LIMIT 1
