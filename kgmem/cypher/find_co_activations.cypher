// Co-activated pairs of live memories seen together at least $min_count times and not yet replayed at that count.
// params: $namespace, $min_count, $limit
MATCH (a:Memory {namespace: $namespace})-[c:CO_ACTIVATED]->(b:Memory {namespace: $namespace})
WHERE c.count >= $min_count AND c.count > coalesce(c.replayed_count, 0)
  AND a.status = 'active' AND b.status = 'active'
RETURN a.id AS a, b.id AS b, c.count AS count, coalesce(c.replayed_count, 0) AS replayed,
       coalesce(a.stability, 1.0) AS a_stability, coalesce(b.stability, 1.0) AS b_stability
ORDER BY count DESC, a, b
LIMIT $limit
