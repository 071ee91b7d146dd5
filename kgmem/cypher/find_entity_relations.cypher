// Typed entity relations of a namespace with their counts and confidences.
// params: $namespace, $limit
MATCH (a:Entity {namespace: $namespace})-[r:RELATED]->(b:Entity {namespace: $namespace})
RETURN a.name AS source, r.type AS type, b.name AS target, r.count AS count,
       r.confidence AS confidence, r.inferred AS inferred, r.last_reinforced_at AS last_reinforced_at
ORDER BY r.confidence DESC, source, type, target
LIMIT $limit
