// The content of some memories of a namespace (topic naming reads the texts of the few topics their entities do not name; recall's pseudo-relevance feedback reads its top candidates' words).
// params: $namespace, $ids
UNWIND $ids AS id
MATCH (m:Memory {id: id, namespace: $namespace})
RETURN m.id AS id, coalesce(m.content, '') AS content
