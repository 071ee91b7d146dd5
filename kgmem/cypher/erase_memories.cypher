// Hard forget, last step: the erased memories go with all their edges (and so from the vector and fulltext indexes); each leaves one record that it was erased, naming nothing but its id.
// params: $namespace, $ids, $actor, $now
UNWIND $ids AS mid
MATCH (m:Memory {id: mid, namespace: $namespace})
WITH m, m.id AS id, m.status AS was
DETACH DELETE m
CREATE (:StatusChange {id: randomUUID(), namespace: $namespace, memory_id: id, old: was,
                       new: 'purged', reason: 'erased on request', rule: 'erasure',
                       actor: $actor, at: $now})
RETURN count(*) AS memories, collect(id) AS erased
