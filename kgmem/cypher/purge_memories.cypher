// Hard-delete soft-deleted memories whose retention period is over; their audit records stay, with a final 'purged' entry.
// params: $namespace, $changes
UNWIND $changes AS c
MATCH (m:Memory {id: c.id, namespace: $namespace})
WHERE m.status = 'deleted'
CREATE (s:StatusChange {id: c.change_id, namespace: $namespace, memory_id: m.id, old: 'deleted',
                        new: 'purged', reason: c.reason, rule: c.rule, actor: c.actor, at: c.at})
DETACH DELETE m
RETURN count(*) AS purged
