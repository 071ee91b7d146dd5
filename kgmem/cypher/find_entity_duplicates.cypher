// Pairs of a namespace's entities where one's normalised name is the other's name or alias (fragmented entities).
// params: $namespace, $limit
MATCH (a:Entity {namespace: $namespace})
UNWIND coalesce(a.aliases_norm, []) + [a.normalized_name] AS key
WITH DISTINCT a, key
MATCH (b:Entity {namespace: $namespace, normalized_name: key})
WHERE b <> a
RETURN DISTINCT
       a {.id, .name, .normalized_name, .type, .aliases_norm, .mention_count, .created_at,
          .distinct_from} AS a,
       b {.id, .name, .normalized_name, .type, .aliases_norm, .mention_count, .created_at,
          .distinct_from} AS b
ORDER BY a.id, b.id
LIMIT $limit
