// How many memories set_memory_centrality would update (the same PageRank, rounding and tolerance): what a dry run reports.
// params: $graph, $namespace, $digits, $tolerance
CALL gds.pageRank.stream($graph, {dampingFactor: 0.85, maxIterations: 20, tolerance: 0.0000001,
                                   relationshipWeightProperty: 'weight', concurrency: 1})
YIELD nodeId, score
WITH gds.util.asNode(nodeId) AS m, round(score, $digits) AS score
WHERE m:Memory AND m.namespace = $namespace
  AND (m.centrality IS NULL OR abs(m.centrality - score) > $tolerance)
RETURN count(m) AS updated
