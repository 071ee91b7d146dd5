// One page (keyset by id) of the live, non-dormant memories rehearsal may touch: a utility off the drift's fixed point unused for a whole day, or a retention that may be below the rehearsal threshold (elapsed t over the effective stability S, tables passed in, at or above $min_ratio); a superset filter, the pure rules decide. Same row shape as find_lifecycle_memories.
// params: $namespace, $statuses, $after, $limit, $utility_prior, $drift_before, $now_ms, $min_ratio, $base_stability, $tier_decay, $pinned_decay, $human_sources, $auto_decay, $access_weight
MATCH (m:Memory {namespace: $namespace})
WHERE m.id > $after AND coalesce(m.status, 'active') IN $statuses
  AND coalesce(m.tier, 'episodic') <> 'dormant'
WITH m, coalesce(m.recorded_at, m.created_at) AS created
WITH m, CASE WHEN m.last_accessed > created THEN m.last_accessed ELSE created END AS used,
     $tier_decay[coalesce(m.tier, 'episodic')] AS decay
WITH m, used,
     CASE WHEN coalesce(m.pinned, false)
            THEN CASE WHEN decay < $pinned_decay THEN decay ELSE $pinned_decay END
          WHEN coalesce(m.source, 'human') IN $human_sources THEN decay
          ELSE decay * $auto_decay END AS decay
WHERE (coalesce(m.utility, 0.5) <> $utility_prior
       AND CASE WHEN m.utility_drifted_at > used THEN m.utility_drifted_at ELSE used END
           <= $drift_before)
   OR ($now_ms - used.epochMillis + 1000) / 86400000.0
      >= $min_ratio * $base_stability[coalesce(m.category, 'fact')]
         * (1.0 + log(1.0 + coalesce(m.access_count, 0)) * $access_weight)
         * coalesce(m.stability, 1.0) / decay
RETURN m {.id, .content, .category, .status, .tier, .source, .tags, .session_id, .created_at,
          .recorded_at, .last_accessed, .modified_at, .access_count, .repetition_count,
          .stability, .pinned, .immutable, .flashbulb, .confidence, .importance, .utility,
          .verification_state, .valid_until, .frozen_at, .stale_since, .deleted_at,
          .resolved_at, .last_reinforced_at, .utility_drifted_at, .rehearsed_at,
          .gate_rejections, .gate_rejected_epoch, .hot,
          entities: [(m)-[:MENTIONS]->(e:Entity) | e.id]} AS memory
ORDER BY m.id
LIMIT $limit
