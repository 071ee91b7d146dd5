// Move memories to new tiers, each guarded by the tier it was read with (dormant ones freeze), and record every move as a TierChange.
// params: $namespace, $changes
UNWIND $changes AS c
MATCH (m:Memory {id: c.id, namespace: $namespace})
WHERE coalesce(m.tier, 'episodic') = c.old
SET m.tier = c.new,
    m.tier_changed_at = c.at,
    m.frozen_at = CASE WHEN c.new = 'dormant' THEN c.at ELSE null END
CREATE (t:TierChange {id: c.change_id, namespace: $namespace, memory_id: m.id, old: c.old,
                      new: c.new, reason: c.reason, rule: c.rule, actor: c.actor, at: c.at})
RETURN count(m) AS changed
