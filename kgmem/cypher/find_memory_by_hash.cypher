// The memory of a namespace with this content hash, if any.
// params: $namespace, $hash
MATCH (m:Memory {namespace: $namespace, content_hash: $hash})
RETURN m.id AS id
LIMIT 1
