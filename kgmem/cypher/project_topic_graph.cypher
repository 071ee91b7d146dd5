// Project a namespace's live memories, the entities they mention and their memory links into GDS, undirected, weight = edge confidence.
// params: $graph, $namespace
MATCH (m:Memory {namespace: $namespace})
WHERE m.status IN ['active', 'stale'] AND coalesce(m.tier, 'episodic') <> 'dormant'
OPTIONAL MATCH (m)-[r:MENTIONS|SAME_ENTITY|ELABORATES|RELATED_TO|CAUSES]->(t)
WHERE t.namespace = $namespace
  AND (t:Entity OR (t:Memory AND t.status IN ['active', 'stale']
                    AND coalesce(t.tier, 'episodic') <> 'dormant'))
WITH m, t, CASE WHEN r IS NULL THEN null ELSE coalesce(r.confidence, 0.5) END AS w
WITH gds.graph.project($graph, m, t,
       {relationshipProperties: CASE WHEN w IS NULL THEN {} ELSE {weight: w} END},
       {undirectedRelationshipTypes: ['*']}) AS g
RETURN g.graphName AS graph, g.nodeCount AS nodes, g.relationshipCount AS relationships
