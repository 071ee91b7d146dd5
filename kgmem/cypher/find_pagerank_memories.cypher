// Personalised PageRank over a projected namespace graph, seeded by memory/entity ids; top memories first.
// params: $graph, $namespace, $seeds, $limit
MATCH (s {namespace: $namespace}) WHERE (s:Memory OR s:Entity) AND s.id IN $seeds
WITH collect(s) AS sources
CALL gds.pageRank.stream($graph, {sourceNodes: sources, dampingFactor: 0.85, maxIterations: 20,
                                  tolerance: 0.0001, relationshipWeightProperty: 'weight'})
YIELD nodeId, score
WITH gds.util.asNode(nodeId) AS node, score
WHERE node:Memory AND node.namespace = $namespace AND NOT node.id IN $seeds
RETURN node.id AS id, score
ORDER BY score DESC, id
LIMIT $limit
