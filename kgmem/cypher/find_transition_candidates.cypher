// One page (keyset by id) of the memories the state-transition rules may change: every memory not ACTIVE (purges, the stale/archived chain, expiries; few), and the ACTIVE ones that are not anchored and that a rule may fire on — a commitment, a valid_until, a confidence below the speculative bar, old enough with low importance and few accesses for fact archival, or not dormant with elapsed t over the effective stability S at or above $min_ratio (where retention can be below the stale threshold). A superset filter with the pure rules' thresholds passed in; the pure rules decide. Same row shape as find_lifecycle_memories.
// params: $namespace, $statuses, $after, $limit, $speculative_below, $archival_before, $archival_max_importance, $archival_max_access, $now_ms, $min_ratio, $base_stability, $tier_decay, $pinned_decay, $human_sources, $auto_decay, $access_weight
MATCH (m:Memory {namespace: $namespace})
WHERE m.id > $after AND coalesce(m.status, 'active') IN $statuses
WITH m, coalesce(m.recorded_at, m.created_at) AS created
WITH m, created, CASE WHEN m.last_accessed > created THEN m.last_accessed ELSE created END AS used,
     $tier_decay[coalesce(m.tier, 'episodic')] AS decay
WITH m, created, used,
     CASE WHEN coalesce(m.pinned, false)
            THEN CASE WHEN decay < $pinned_decay THEN decay ELSE $pinned_decay END
          WHEN coalesce(m.source, 'human') IN $human_sources THEN decay
          ELSE decay * $auto_decay END AS decay
WHERE coalesce(m.status, 'active') <> 'active'
   OR (NOT coalesce(m.pinned, false) AND NOT coalesce(m.immutable, false)
       AND (m.category = 'commitment' OR m.valid_until IS NOT NULL
            OR coalesce(m.confidence, 0.5) < $speculative_below
            OR (created <= $archival_before
                AND coalesce(m.importance, 0.5) < $archival_max_importance
                AND coalesce(m.access_count, 0) <= $archival_max_access)
            OR (coalesce(m.tier, 'episodic') <> 'dormant'
                AND ($now_ms - used.epochMillis + 1000) / 86400000.0
                    >= $min_ratio * $base_stability[coalesce(m.category, 'fact')]
                       * (1.0 + log(1.0 + coalesce(m.access_count, 0)) * $access_weight)
                       * coalesce(m.stability, 1.0) / decay)))
RETURN m {.id, .content, .category, .status, .tier, .source, .tags, .session_id, .created_at,
          .recorded_at, .last_accessed, .modified_at, .access_count, .repetition_count,
          .stability, .pinned, .immutable, .flashbulb, .confidence, .importance, .utility,
          .verification_state, .valid_until, .frozen_at, .stale_since, .deleted_at,
          .resolved_at, .last_reinforced_at, .utility_drifted_at, .rehearsed_at,
          .gate_rejections, .gate_rejected_epoch, .hot,
          entities: [(m)-[:MENTIONS]->(e:Entity) | e.id]} AS memory
ORDER BY m.id
LIMIT $limit
