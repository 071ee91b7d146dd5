// One memory by id within a namespace, with the names of the entities it mentions.
// params: $namespace, $id
MATCH (m:Memory {id: $id, namespace: $namespace})
OPTIONAL MATCH (m)-[:MENTIONS]->(e:Entity)
RETURN m {.*, embedding: null} AS memory, collect(e.name) AS entities
