// Where the given episodes of a namespace stand: extracted or pending, the skip reasons of a turn that gave no memory, and the memories derived from each (an observe waiting for a worker).
// params: $namespace, $ids
MATCH (e:Episode {namespace: $namespace}) WHERE e.id IN $ids
OPTIONAL MATCH (m:Memory {namespace: $namespace})-[:DERIVED_FROM]->(e)
RETURN e.id AS id, e.extracted AS extracted, e.skip_reasons AS skip_reasons,
       e.engine AS engine, collect(DISTINCT m.id) AS memory_ids
