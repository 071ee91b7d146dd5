// Traces (boxes sharing recurring topics over time) of a namespace, most recent first, with box ids.
// params: $namespace, $limit
MATCH (t:Trace {namespace: $namespace})
WITH t ORDER BY t.last_at DESC, t.id LIMIT $limit
RETURN t {.id, .topics, .box_count, .created_at, .last_at,
          box_ids: [(b:Box)-[:IN_TRACE]->(t) | b.id]} AS trace
ORDER BY t.last_at DESC, t.id
