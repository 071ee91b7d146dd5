// Memory boxes of a namespace (optionally only open or sealed ones), most recent first, with member and trace ids.
// params: $namespace, $status, $limit
MATCH (b:Box {namespace: $namespace})
WHERE $status IS NULL OR b.status = $status
WITH b ORDER BY b.last_at DESC, b.id LIMIT $limit
OPTIONAL MATCH (b)-[:IN_TRACE]->(t:Trace)
WITH b, collect(t.id) AS trace_ids
ORDER BY b.last_at DESC, b.id
RETURN b {.id, .session_id, .status, .topics, .memory_count, .opened_at, .last_at, .sealed_at,
          .seal_reason, memory_ids: [(m:Memory)-[:IN_BOX]->(b) | m.id]} AS box,
       trace_ids
