// GDS Louvain over a projected memory-entity graph: every node's community, with what naming a topic needs.
// params: $graph, $namespace
CALL gds.louvain.stream($graph, {relationshipWeightProperty: 'weight', concurrency: 1})
YIELD nodeId, communityId
WITH gds.util.asNode(nodeId) AS n, communityId
WHERE n.namespace = $namespace
RETURN CASE WHEN n:Memory THEN 'memory' ELSE 'entity' END AS kind, n.id AS id,
       CASE WHEN n:Memory THEN n.content ELSE n.name END AS text, communityId AS community,
       coalesce(n.mention_count, 0) AS mentions
ORDER BY community, kind, id
