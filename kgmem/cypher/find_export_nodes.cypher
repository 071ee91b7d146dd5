// One page of a namespace's nodes (every namespace when null) with all their properties, in element-id order.
// params: $namespace, $after, $limit
// Order and limit before reading properties, so a page materialises only its own rows.
MATCH (n)
WHERE (n.namespace = $namespace OR ($namespace IS NULL AND n.namespace IS NOT NULL))
  AND elementId(n) > $after
WITH n, elementId(n) AS key
ORDER BY key
LIMIT $limit
RETURN key, labels(n) AS labels, properties(n) AS props
