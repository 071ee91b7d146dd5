// GDS Leiden at a coarser resolution (gamma) over a projected memory-entity graph: every memory's id and coarse community as two parallel lists in one row (one row per community meant a row per isolated memory — tens of thousands of tiny rows streamed one by one), for the parent level of the topic tree (one thread, fixed seed).
// params: $graph, $namespace, $resolution
CALL gds.leiden.stream($graph, {relationshipWeightProperty: 'weight', gamma: $resolution,
                               concurrency: 1, randomSeed: 42})
YIELD nodeId, communityId
WITH gds.util.asNode(nodeId) AS n, communityId
WHERE n.namespace = $namespace AND n:Memory
RETURN collect(n.id) AS ids, collect(communityId) AS communities
