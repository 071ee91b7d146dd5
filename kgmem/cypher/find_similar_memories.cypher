// GDS filtered kNN over a projected namespace's embeddings: pairs from an Unchecked memory (the run's window) to any memory, at or above a similarity cutoff (GDS cosine = (1 + cos) / 2), topK bounded.
// params: $graph, $namespace, $top_k, $cutoff, $limit
CALL gds.knn.filtered.stream($graph, {nodeProperties: ['embedding'], topK: $top_k,
                                      sourceNodeFilter: 'Unchecked',
                                      similarityCutoff: $cutoff, maxIterations: 30,
                                      concurrency: 4})
YIELD node1, node2, similarity
WITH gds.util.asNode(node1) AS a, gds.util.asNode(node2) AS b, similarity
WHERE a.namespace = $namespace AND b.namespace = $namespace
RETURN a {.id, .utility, .importance, .access_count, .created_at, .pinned, .immutable} AS a,
       b {.id, .utility, .importance, .access_count, .created_at, .pinned, .immutable} AS b,
       similarity
ORDER BY similarity DESC, a.id, b.id
LIMIT $limit
