// One page (keyset by id) of a namespace's memories in some statuses, with what the lifecycle rules read (no embeddings).
// params: $namespace, $statuses, $after, $limit
MATCH (m:Memory {namespace: $namespace})
WHERE coalesce(m.status, 'active') IN $statuses AND m.id > $after
RETURN m {.id, .content, .category, .status, .tier, .source, .tags, .session_id, .created_at,
          .recorded_at, .last_accessed, .modified_at, .access_count, .repetition_count,
          .stability, .pinned, .immutable, .flashbulb, .confidence, .importance, .utility,
          .verification_state, .valid_until, .frozen_at, .stale_since, .deleted_at,
          .resolved_at, .last_reinforced_at, .utility_drifted_at, .rehearsed_at,
          .gate_rejections, .gate_rejected_epoch, .hot,
          entities: [(m)-[:MENTIONS]->(e:Entity) | e.id]} AS memory
ORDER BY m.id
LIMIT $limit
