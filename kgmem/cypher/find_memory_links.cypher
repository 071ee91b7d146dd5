// Memory-to-memory edges of each given memory (both directions), with the other memory's fields.
// params: $namespace, $ids
MATCH (m:Memory {namespace: $namespace})-[r:SUPERSEDES|CONTRADICTS|CAUSES|ELABORATES|SAME_ENTITY|RELATED_TO|MERGED_INTO|CO_ACTIVATED|DEPENDS_ON]-(o:Memory {namespace: $namespace})
WHERE m.id IN $ids
RETURN m.id AS memory_id, type(r) AS type,
       CASE WHEN startNode(r) = m THEN 'out' ELSE 'in' END AS direction,
       r.confidence AS confidence, r.created_at AS created_at, r.count AS count,
       r.resolved AS resolved, o {.*, embedding: null} AS other
ORDER BY memory_id, type, o.id
