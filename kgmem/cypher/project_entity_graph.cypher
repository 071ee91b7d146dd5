// Project a namespace's entities that have name embeddings into GDS (nodes only, with the embedding) for kNN.
// params: $graph, $namespace
MATCH (e:Entity {namespace: $namespace})
WHERE e.embedding IS NOT NULL
WITH gds.graph.project($graph, e, null, {sourceNodeProperties: e {.embedding},
                                         targetNodeProperties: {}}) AS g
RETURN g.graphName AS graph, g.nodeCount AS nodes
