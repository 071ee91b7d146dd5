// One page (keyset by id) of the live memories the tier rules may move or gate: a superset filter on the rules' necessary conditions (thresholds from kgmem.lifecycle.tiers.rules/gate), the pure rules then decide; same row shape as find_lifecycle_memories.
// params: $namespace, $statuses, $shared, $promote_accesses, $promote_utility, $dormant_utility, $gate_importance, $after, $limit
MATCH (m:Memory {namespace: $namespace})
WHERE m.id > $after AND coalesce(m.status, 'active') IN $statuses
WITH m, coalesce(m.tier, 'episodic') AS tier,
     coalesce(m.pinned, false) OR coalesce(m.immutable, false) AS anchored
WHERE tier = 'working'
   OR (tier = 'dormant' AND m.frozen_at IS NOT NULL AND m.last_accessed > m.frozen_at)
   OR (tier = 'episodic' AND NOT anchored
       AND (coalesce(m.access_count, 0) >= $promote_accesses
            OR coalesce(m.utility, 0.5) >= $promote_utility
            OR EXISTS { (m)-[:MENTIONS]->(e:Entity) WHERE e.id IN $shared }))
   OR (tier = 'semantic' AND NOT anchored
       AND (coalesce(m.utility, 0.5) < $dormant_utility
            OR coalesce(m.importance, 0.5) >= $gate_importance))
RETURN m {.id, .content, .category, .status, .tier, .source, .tags, .session_id, .created_at,
          .recorded_at, .last_accessed, .modified_at, .access_count, .repetition_count,
          .stability, .pinned, .immutable, .flashbulb, .confidence, .importance, .utility,
          .verification_state, .valid_until, .frozen_at, .stale_since, .deleted_at,
          .resolved_at, .last_reinforced_at, .utility_drifted_at, .rehearsed_at,
          .gate_rejections, .gate_rejected_epoch, .hot,
          entities: [(m)-[:MENTIONS]->(e:Entity) | e.id]} AS memory
ORDER BY m.id
LIMIT $limit
