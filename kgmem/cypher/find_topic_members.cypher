// The memories of one topic (seed 002's drill-down into a topic), most central first.
// params: $namespace, $id, $limit
MATCH (m:Memory {namespace: $namespace})-[:IN_TOPIC]->(t:Topic {id: $id, namespace: $namespace})
RETURN m {.id, .content, .category, .tier, .status, .centrality} AS memory
ORDER BY coalesce(m.centrality, 0.0) DESC, m.id
LIMIT $limit
