// Typed relations of each given entity (both directions), with the entity at the other end.
// params: $namespace, $ids
MATCH (e:Entity {namespace: $namespace})-[r:RELATED]-(o:Entity {namespace: $namespace})
WHERE e.id IN $ids
RETURN e.id AS entity_id, r.type AS type,
       CASE WHEN startNode(r) = e THEN 'out' ELSE 'in' END AS direction,
       r.confidence AS confidence, r.count AS count, r.inferred AS inferred,
       r.last_reinforced_at AS last_reinforced_at,
       o {.id, .name, .normalized_name, .type, .aliases, .mention_count, .summary, .created_at} AS other
ORDER BY entity_id, r.confidence DESC, o.name
