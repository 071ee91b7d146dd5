// Project a namespace's live memories that have embeddings (not the job's own summaries and snapshots) into GDS (nodes only, with the embedding) for kNN; those in $sources also get the label Unchecked (the run's window, compared with all).
// params: $graph, $namespace, $sources
MATCH (m:Memory {namespace: $namespace})
WHERE m.status = 'active' AND coalesce(m.tier, 'episodic') <> 'dormant'
  AND m.embedding IS NOT NULL AND m.synthesis IS NULL
WITH gds.graph.project($graph, m, null,
       {sourceNodeLabels: CASE WHEN m.id IN $sources THEN ['Memory', 'Unchecked']
                               ELSE ['Memory'] END,
        targetNodeLabels: null, sourceNodeProperties: m {.embedding},
        targetNodeProperties: {}}) AS g
RETURN g.graphName AS graph, g.nodeCount AS nodes
