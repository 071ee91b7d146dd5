// The namespaces that hold stored items, equal to the prefix or under it ("a" covers "a" and "a.b", not "ab"); every one when the prefix is empty.
// params: $prefix, $limit
// values: plain
MATCH (e:Episode)
WHERE e.item_key IS NOT NULL
  AND ($prefix = '' OR e.namespace = $prefix OR e.namespace STARTS WITH $prefix + '.')
RETURN DISTINCT e.namespace AS namespace
ORDER BY namespace
LIMIT $limit
