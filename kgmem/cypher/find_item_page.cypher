// Stored items of the given namespaces, most recently written first (a store search without a query).
// params: $namespaces, $limit
MATCH (e:Episode)
WHERE e.namespace IN $namespaces AND e.item_key IS NOT NULL
RETURN e.namespace AS namespace, e.item_key AS key, e.item_value AS value, e.id AS episode_id,
       e.item_created_at AS created_at, e.recorded_at AS updated_at,
       [] AS memories
ORDER BY e.recorded_at DESC, e.namespace, e.item_key
LIMIT $limit
