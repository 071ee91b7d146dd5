// Existing entities that may be the ones mentioned: by normalised name, alias, first token or fuzzy fulltext.
// params: $namespace, $names, $tokens, $fuzzy
MATCH (e:Entity {namespace: $namespace})
WHERE e.normalized_name IN $names OR any(a IN coalesce(e.aliases_norm, []) WHERE a IN $names)
   OR e.first_token IN $tokens
RETURN e {.id, .name, .normalized_name, .type, .aliases, .aliases_norm, .mention_count} AS entity,
       'lexical' AS via
UNION
UNWIND $fuzzy AS q
CALL db.index.fulltext.queryNodes('entity_names', q) YIELD node, score
WITH node, score WHERE node.namespace = $namespace AND score > 0.5
RETURN node {.id, .name, .normalized_name, .type, .aliases, .aliases_norm, .mention_count} AS entity,
       'fuzzy' AS via
