// Personalised PageRank over a projected namespace graph, seeded by memory/entity ids; top memories first.
// params: $graph, $namespace, $seeds, $limit
// Only what the projection holds can be a source: active memories, and entities they mention.
MATCH (s {namespace: $namespace}) WHERE s.id IN $seeds
  AND ((s:Memory AND s.status = 'active')
       OR (s:Entity AND EXISTS { (s)<-[:MENTIONS]-(:Memory {status: 'active'}) }))
WITH collect(s) AS sources WHERE size(sources) > 0  // none: no walk (an empty list means global PageRank)
CALL gds.pageRank.stream($graph, {sourceNodes: sources, dampingFactor: 0.85, maxIterations: 20,
                                  tolerance: 0.0001, relationshipWeightProperty: 'weight'})
YIELD nodeId, score
WITH gds.util.asNode(nodeId) AS node, score
WHERE node:Memory AND node.namespace = $namespace AND NOT node.id IN $seeds
RETURN node.id AS id, score
ORDER BY score DESC, id
LIMIT $limit
