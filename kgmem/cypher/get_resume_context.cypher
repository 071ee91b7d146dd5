// The resume sections for some namespaces: live core memories, recently changed non-core ones, memory counts by tier, trigger tags by use.
// params: $namespaces, $since, $limit
CALL () {
  MATCH (m:Memory)
  WHERE m.namespace IN $namespaces AND m.status = 'active' AND m.tier = 'core'
  WITH m ORDER BY coalesce(m.importance, 0.5) DESC, m.id LIMIT $limit
  RETURN collect(m {.id, .namespace, .content, .category, .type, .importance, .access_count,
                    .repetition_count, .created_at, .modified_at}) AS core
}
CALL () {
  MATCH (m:Memory)
  WHERE m.namespace IN $namespaces AND m.status = 'active'
    AND coalesce(m.tier, 'episodic') <> 'core'
    AND coalesce(m.modified_at, m.created_at) >= $since
  WITH m ORDER BY coalesce(m.modified_at, m.created_at) DESC, m.id LIMIT $limit
  RETURN collect(m {.id, .namespace, .content, .category, .tier, .created_at, .modified_at}) AS recent
}
CALL () {
  MATCH (m:Memory)
  WHERE m.namespace IN $namespaces AND m.status = 'active'
  WITH coalesce(m.tier, 'episodic') AS tier, count(*) AS n
  RETURN collect([tier, n]) AS tiers
}
CALL () {
  MATCH (m:Memory)
  WHERE m.namespace IN $namespaces AND m.status = 'active'
  UNWIND coalesce(m.tags, []) AS tag
  WITH tag, m WHERE tag STARTS WITH 'trigger:'
  WITH substring(tag, 8) AS trigger, sum(coalesce(m.access_count, 0)) AS uses
  ORDER BY uses DESC, trigger LIMIT $limit
  RETURN collect([trigger, uses]) AS triggers
}
RETURN core, recent, tiers, triggers
