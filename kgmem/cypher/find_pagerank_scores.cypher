// GDS PageRank over a projected memory-entity graph (weighted by edge confidence): each memory's score and its stored centrality.
// params: $graph, $namespace
CALL gds.pageRank.stream($graph, {dampingFactor: 0.85, maxIterations: 20, tolerance: 0.0000001,
                                   relationshipWeightProperty: 'weight', concurrency: 1})
YIELD nodeId, score
WITH gds.util.asNode(nodeId) AS n, score
WHERE n:Memory AND n.namespace = $namespace
RETURN n.id AS id, score, n.centrality AS centrality
ORDER BY id
