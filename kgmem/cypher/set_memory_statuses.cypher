// Move memories to new statuses, each guarded by the status it was read with, and record every change as a StatusChange.
// params: $namespace, $changes
UNWIND $changes AS c
MATCH (m:Memory {id: c.id, namespace: $namespace})
WHERE coalesce(m.status, 'active') = c.old
SET m.status = c.new,
    m.modified_at = c.at,
    m.lifecycle_state = CASE WHEN c.new IN ['active', 'stale', 'archived'] THEN c.new
                             ELSE m.lifecycle_state END,
    m.stale_since = CASE WHEN c.new = 'stale' THEN c.at ELSE m.stale_since END,
    m.deleted_at = CASE WHEN c.new = 'deleted' THEN c.at ELSE m.deleted_at END
CREATE (s:StatusChange {id: c.change_id, namespace: $namespace, memory_id: m.id, old: c.old,
                        new: c.new, reason: c.reason, rule: c.rule, actor: c.actor, at: c.at,
                        related_id: c.related_id})
RETURN count(m) AS changed
