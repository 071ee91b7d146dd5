// Project one namespace's memory-entity graph into GDS (undirected MENTIONS, weight = confidence).
// params: $graph, $namespace
MATCH (m:Memory {namespace: $namespace})-[r:MENTIONS]->(e:Entity)
WITH gds.graph.project($graph, m, e, {relationshipProperties: {weight: coalesce(r.confidence, 0.5)}},
                       {undirectedRelationshipTypes: ['*']}) AS g
RETURN g.graphName AS graph, g.nodeCount AS nodes, g.relationshipCount AS relationships
