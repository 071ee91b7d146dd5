// Memories about one entity (id, normalised name or alias) or one topic (Topic node, or a box topic), superseded included, deleted left out, in the order they became true.
// params: $namespace, $entity, $topic, $limit
CALL () {
  MATCH (e:Entity {namespace: $namespace})<-[:MENTIONS]-(m:Memory {namespace: $namespace})
  WHERE $entity IS NOT NULL
    AND (e.id = $entity OR e.normalized_name = $entity OR $entity IN coalesce(e.aliases_norm, []))
  RETURN m
  UNION
  MATCH (t:Topic {namespace: $namespace})<-[:IN_TOPIC]-(m:Memory {namespace: $namespace})
  WHERE $topic IS NOT NULL
    AND (t.id = $topic OR toLower(t.name) = $topic OR $topic IN coalesce(t.terms, []))
  RETURN m
  UNION
  MATCH (b:Box {namespace: $namespace})<-[:IN_BOX]-(m:Memory {namespace: $namespace})
  WHERE $topic IS NOT NULL AND $topic IN coalesce(b.topics, [])
  RETURN m
}
WITH DISTINCT m WHERE m.status <> 'deleted'
OPTIONAL MATCH (w:Memory {namespace: $namespace})-[:SUPERSEDES]->(m)
WITH m, collect(w.id) AS superseded_by
ORDER BY coalesce(m.valid_from, m.created_at), m.created_at, m.id
RETURN m {.*, embedding: null} AS memory, superseded_by
LIMIT $limit
