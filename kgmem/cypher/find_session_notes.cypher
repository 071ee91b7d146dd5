// A namespace's live session notes (tagged 'session' or with source 'session') that no status snapshot was distilled from yet, by session and time.
// params: $namespace, $limit
MATCH (m:Memory {namespace: $namespace})
WHERE m.status IN ['active', 'stale'] AND m.synthesis IS NULL
  AND ('session' IN [t IN coalesce(m.tags, []) | toLower(trim(t))]
       OR toLower(coalesce(m.source, '')) = 'session')
  AND NOT EXISTS {
    MATCH (s:Memory {namespace: $namespace, synthesis: 'session_snapshot'})-[:DERIVED_FROM]->(m)
  }
RETURN m {.id, .content, .created_at, .session_id, .importance, .confidence, .valid_from,
          .embedding, entities: [(m)-[:MENTIONS]->(e:Entity) | e.id]} AS memory
ORDER BY coalesce(m.session_id, ''), m.created_at, m.id
LIMIT $limit
