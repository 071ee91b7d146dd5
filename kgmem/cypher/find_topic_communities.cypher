// GDS Louvain over a projected memory-entity graph: one row per community holding at least $min_members memories, with its memory ids and its entities (id, name, mention count) as lists, so a few hundred rows travel rather than one per node; no memory text is read (naming asks find_memory_contents for the few it needs).
// params: $graph, $namespace, $min_members
CALL gds.louvain.stream($graph, {relationshipWeightProperty: 'weight', concurrency: 1})
YIELD nodeId, communityId
WITH gds.util.asNode(nodeId) AS n, communityId
WHERE n.namespace = $namespace
WITH communityId AS community,
     collect(CASE WHEN n:Memory THEN n.id END) AS memories,
     collect(CASE WHEN n:Memory THEN null
                  ELSE {id: n.id, text: coalesce(n.name, ''),
                        mentions: coalesce(n.mention_count, 0)} END) AS entities
WHERE size(memories) >= $min_members
RETURN community, memories, entities
ORDER BY community
