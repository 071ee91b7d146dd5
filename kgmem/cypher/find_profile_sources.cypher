// One page (keyset by id) of a namespace's entities with the id and content hash of every active memory that mentions them (what an entity profile is built from), and the stored profile's fingerprint.
// params: $namespace, $after, $limit
MATCH (e:Entity {namespace: $namespace})
WHERE e.id > $after
WITH e ORDER BY e.id LIMIT $limit
OPTIONAL MATCH (m:Memory {namespace: $namespace})-[:MENTIONS]->(e)
WHERE m.status = 'active' AND m.synthesis IS NULL
WITH e, m ORDER BY m.id
WITH e, collect(m.id + '|' + coalesce(m.content_hash, '')) AS signature
RETURN e {.id, .name, .type, .summary_fingerprint} AS entity, signature
ORDER BY e.id
