// Project a namespace's memory-entity graph into GDS: MENTIONS and memory links, undirected, weight = confidence x recency.
// params: $graph, $namespace, $half_life_days
MATCH (m:Memory {namespace: $namespace})
WHERE m.status = 'active'
OPTIONAL MATCH (m)-[r:MENTIONS|SAME_ENTITY|ELABORATES|RELATED_TO|CAUSES|CO_ACTIVATED]->(t)
WHERE t.namespace = $namespace AND (t:Entity OR t.status = 'active')
WITH m, t, r,
     CASE WHEN r IS NULL THEN null
          ELSE coalesce(r.confidence, 0.5) *
               exp(-0.693 * duration.inDays(coalesce(r.last_reinforced_at, r.created_at, datetime()),
                                            datetime()).days / $half_life_days)
     END AS w
WITH gds.graph.project($graph, m, t,
       {relationshipProperties: CASE WHEN r IS NULL THEN {} ELSE {weight: w} END},
       {undirectedRelationshipTypes: ['*']}) AS g
RETURN g.graphName AS graph, g.nodeCount AS nodes, g.relationshipCount AS relationships
