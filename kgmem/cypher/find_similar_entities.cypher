// GDS kNN over a projected namespace's entity-name embeddings: entity pairs at or above a similarity cutoff (GDS cosine = (1 + cos) / 2), topK bounded, one thread and a fixed seed so the same graph gives the same pairs.
// params: $graph, $namespace, $top_k, $cutoff, $limit
CALL gds.knn.stream($graph, {nodeProperties: ['embedding'], topK: $top_k,
                             similarityCutoff: $cutoff, maxIterations: 30, sampleRate: 1.0,
                             concurrency: 1, randomSeed: 42})
YIELD node1, node2, similarity
WITH gds.util.asNode(node1) AS a, gds.util.asNode(node2) AS b, similarity
WHERE a.namespace = $namespace AND b.namespace = $namespace
RETURN a {.id, .name, .normalized_name, .type, .aliases_norm, .mention_count, .created_at,
          .distinct_from} AS a,
       b {.id, .name, .normalized_name, .type, .aliases_norm, .mention_count, .created_at,
          .distinct_from} AS b,
       similarity
ORDER BY similarity DESC, a.id, b.id
LIMIT $limit
