// The memories the hot-tier refresh looks at: those in the hot tier now and those passing the hot filter on everything but the tier (thresholds from kgmem.recall.diversity); same row shape as find_lifecycle_memories.
// params: $namespace, $statuses, $min_utility, $min_access, $created_after
MATCH (m:Memory {namespace: $namespace})
WHERE coalesce(m.status, 'active') IN $statuses
  AND (coalesce(m.hot, false)
       OR (coalesce(m.status, 'active') = 'active' AND coalesce(m.utility, 0.5) >= $min_utility
           AND coalesce(m.access_count, 0) >= $min_access
           AND coalesce(m.recorded_at, m.created_at) > $created_after))
RETURN m {.id, .content, .category, .status, .tier, .source, .tags, .session_id, .created_at,
          .recorded_at, .last_accessed, .modified_at, .access_count, .repetition_count,
          .stability, .pinned, .immutable, .flashbulb, .confidence, .importance, .utility,
          .verification_state, .valid_until, .frozen_at, .stale_since, .deleted_at,
          .resolved_at, .last_reinforced_at, .utility_drifted_at, .rehearsed_at,
          .gate_rejections, .gate_rejected_epoch, .hot,
          entities: [(m)-[:MENTIONS]->(e:Entity) | e.id]} AS memory
ORDER BY m.id
