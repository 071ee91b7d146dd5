// Change one memory's status (the caller checked the transition) and record it.
// params: $namespace, $id, $status, $reason, $actor, $now, $change_id
MATCH (m:Memory {id: $id, namespace: $namespace})
WITH m, m.status AS was
SET m.status = $status, m.modified_at = $now
CREATE (s:StatusChange {id: $change_id, namespace: $namespace, memory_id: m.id, old: was,
                        new: $status, reason: $reason, actor: $actor, at: $now})
RETURN was AS old, m.status AS new
