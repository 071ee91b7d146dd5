// The cheapest prunable memory links of a namespace, in prune order ($priorities: relationship type -> rank, lowest pruned first; then lowest confidence).
// params: $namespace, $priorities, $limit
MATCH (a:Memory {namespace: $namespace})-[r:RELATED_TO|CO_ACTIVATED|SAME_ENTITY|ELABORATES]->(b:Memory)
WHERE type(r) IN keys($priorities)
WITH a, r, b, $priorities[type(r)] AS rank, coalesce(r.confidence, 1.0) AS confidence
RETURN elementId(r) AS edge, toLower(type(r)) AS type, confidence, a.id AS source, b.id AS target
ORDER BY rank, confidence, source, target
LIMIT $limit
