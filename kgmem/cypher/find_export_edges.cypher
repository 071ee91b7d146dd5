// One page of the relationships leaving a namespace's nodes (every namespace when null), with their endpoints' labels and ids.
// params: $namespace, $after, $limit
// Order and limit before reading properties, so a page materialises only its own rows.
MATCH (a)-[r]->(b)
WHERE (a.namespace = $namespace OR ($namespace IS NULL AND a.namespace IS NOT NULL))
  AND elementId(r) > $after
WITH a, r, b, elementId(r) AS key
ORDER BY key
LIMIT $limit
RETURN key, type(r) AS type, labels(a) AS start_labels, a.id AS start_id,
       labels(b) AS end_labels, b.id AS end_id, properties(r) AS props
