// The memories of one topic, a parent topic's through its subtopics (the drill-down into a topic), most central first.
// params: $namespace, $id, $limit
MATCH (t:Topic {id: $id, namespace: $namespace})
MATCH (m:Memory {namespace: $namespace})-[:IN_TOPIC]->(:Topic)-[:SUBTOPIC_OF*0..2]->(t)
WITH DISTINCT m
RETURN m {.id, .content, .category, .tier, .status, .centrality} AS memory
ORDER BY coalesce(m.centrality, 0.0) DESC, m.id
LIMIT $limit
