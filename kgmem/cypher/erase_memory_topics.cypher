// Hard forget, topics: the topics the erased memories belong to and their parents go (names, terms and summaries were read from their members); the next consolidation builds them again from the memories that remain.
// params: $namespace, $ids
UNWIND $ids AS mid
OPTIONAL MATCH (:Memory {id: mid, namespace: $namespace})-[:IN_TOPIC]->(t:Topic)
OPTIONAL MATCH (t)-[:SUBTOPIC_OF*1..5]->(p:Topic)
WITH collect(DISTINCT t) + collect(DISTINCT p) AS topics
UNWIND topics AS x
WITH DISTINCT x WHERE x.namespace = $namespace
DETACH DELETE x
RETURN count(*) AS topics
