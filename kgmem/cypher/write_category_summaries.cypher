// Create new category summary memories and rewrite changed ones in place (guarded by the fingerprint they replace).
// params: $namespace, $create, $update, $now
CALL () {
  UNWIND $create AS x
  CREATE (m:Memory)
  SET m = x.props, m.namespace = $namespace
  RETURN count(m) AS created
}
CALL () {
  UNWIND $update AS x
  MATCH (m:Memory {id: x.id, namespace: $namespace, synthesis: 'category_summary'})
  WHERE coalesce(m.summary_fingerprint, '') = x.old
  SET m.content = x.content, m.content_hash = x.content_hash, m.embedding = x.embedding,
      m.summary_fingerprint = x.fingerprint, m.summary_sources = x.sources,
      m.summary_method = x.method, m.modified_at = $now
  RETURN count(m) AS updated
}
RETURN created, updated
