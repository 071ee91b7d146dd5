// Live memories reachable over DEPENDS_ON (premise -> conclusion) from premises that no longer hold, nearest first.
// params: $namespace, $statuses, $depth, $limit
MATCH (p:Memory {namespace: $namespace})
WHERE p.status IN $statuses
MATCH path = (p)-[:DEPENDS_ON*1..5]->(c:Memory {namespace: $namespace})
WHERE length(path) <= $depth AND c.status IN ['active', 'stale'] AND c <> p
WITH c, p, min(length(path)) AS depth
RETURN c.id AS id, c.status AS status, p.id AS premise, p.status AS premise_status, depth
ORDER BY depth, id, premise
LIMIT $limit
