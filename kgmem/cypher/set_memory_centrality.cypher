// The PageRank over a projected memory-entity graph (weighted by edge confidence), written back as Memory.centrality rounded to $digits places, only where it moved by more than $tolerance (float noise is not a change); no timestamp beside it (nothing read one, and on a first run it was a second property written on every memory).
// params: $graph, $namespace, $digits, $tolerance
CALL gds.pageRank.stream($graph, {dampingFactor: 0.85, maxIterations: 20, tolerance: 0.0000001,
                                   relationshipWeightProperty: 'weight', concurrency: 1})
YIELD nodeId, score
WITH gds.util.asNode(nodeId) AS m, round(score, $digits) AS score
WHERE m:Memory AND m.namespace = $namespace
  AND (m.centrality IS NULL OR abs(m.centrality - score) > $tolerance)
SET m.centrality = score
RETURN count(m) AS updated
