// Project a namespace's live memories that have embeddings (not the job's own summaries and snapshots) into GDS (nodes only, with the embedding) for kNN.
// params: $graph, $namespace
MATCH (m:Memory {namespace: $namespace})
WHERE m.status = 'active' AND coalesce(m.tier, 'episodic') <> 'dormant'
  AND m.embedding IS NOT NULL AND m.synthesis IS NULL
WITH gds.graph.project($graph, m, null, {sourceNodeProperties: m {.embedding},
                                         targetNodeProperties: {}}) AS g
RETURN g.graphName AS graph, g.nodeCount AS nodes
