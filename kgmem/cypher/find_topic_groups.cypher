// GDS Leiden at a coarser resolution (gamma) over a projected memory-entity graph: every memory's coarse community, for the parent level of the topic tree (one thread, fixed seed).
// params: $graph, $namespace, $resolution
CALL gds.leiden.stream($graph, {relationshipWeightProperty: 'weight', gamma: $resolution,
                               concurrency: 1, randomSeed: 42})
YIELD nodeId, communityId
WITH gds.util.asNode(nodeId) AS n, communityId
WHERE n.namespace = $namespace AND n:Memory
RETURN n.id AS id, communityId AS community
ORDER BY community, id
