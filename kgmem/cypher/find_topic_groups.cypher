// GDS Leiden at a coarser resolution (gamma) over a projected memory-entity graph: one row per coarse community with the ids of its memories, for the parent level of the topic tree (one thread, fixed seed).
// params: $graph, $namespace, $resolution
CALL gds.leiden.stream($graph, {relationshipWeightProperty: 'weight', gamma: $resolution,
                               concurrency: 1, randomSeed: 42})
YIELD nodeId, communityId
WITH gds.util.asNode(nodeId) AS n, communityId
WHERE n.namespace = $namespace AND n:Memory
RETURN communityId AS community, collect(n.id) AS ids
ORDER BY community
