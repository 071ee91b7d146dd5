// Episodes of a namespace not yet extracted, oldest first (the durable smart buffer).
// params: $namespace, $limit
MATCH (e:Episode {namespace: $namespace, extracted: false})
RETURN e {.id, .session_id, .role, .speaker, .text, .at, .turn_id, .seq, .recorded_at} AS episode
ORDER BY e.at, e.seq
LIMIT $limit
