// The open memory box of each given session in a namespace, and the most recent traces for weaving.
// params: $namespace, $sessions, $trace_limit
CALL () {
  MATCH (b:Box {namespace: $namespace, status: 'open'}) WHERE b.session_id IN $sessions
  RETURN collect(b {.id, .session_id, .topics, .memory_count, .opened_at, .last_at,
                   memory_ids: [(m:Memory)-[:IN_BOX]->(b) | m.id]}) AS boxes
}
CALL () {
  MATCH (t:Trace {namespace: $namespace})
  WITH t ORDER BY t.last_at DESC LIMIT $trace_limit
  RETURN collect(t {.id, .topics, .box_count, .last_at,
                   box_ids: [(x:Box)-[:IN_TRACE]->(t) | x.id]}) AS traces
}
RETURN boxes, traces
