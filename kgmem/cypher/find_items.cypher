// The stored items (framework store entries: an episode with an item key and its JSON value) of the given keys in a namespace, each with the memories derived from it and whether each memory derives from this item alone.
// params: $namespace, $keys
MATCH (e:Episode {namespace: $namespace})
WHERE e.item_key IN $keys
OPTIONAL MATCH (m:Memory {namespace: $namespace})-[:DERIVED_FROM]->(e)
WITH e, m, CASE WHEN m IS NULL THEN null
                ELSE NOT EXISTS { MATCH (m)-[:DERIVED_FROM]->(o:Episode) WHERE o <> e } END AS sole
WITH e, [x IN collect({id: m.id, sole: sole}) WHERE x.id IS NOT NULL] AS memories
RETURN e.namespace AS namespace, e.item_key AS key, e.item_value AS value, e.id AS episode_id,
       e.item_created_at AS created_at, e.recorded_at AS updated_at,
       memories
