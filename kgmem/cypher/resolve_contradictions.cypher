// Close contradictions: the older side goes dormant, its tier move recorded, and the edge is marked resolved with what was demoted.
// params: $namespace, $resolutions, $now
UNWIND $resolutions AS x
MATCH (a:Memory)-[r:CONTRADICTS]->(b:Memory)
WHERE elementId(r) = x.edge AND a.namespace = $namespace AND b.namespace = $namespace
  AND coalesce(r.resolved, false) = false
MATCH (o:Memory {id: x.older, namespace: $namespace})
WITH x, r, o, coalesce(o.tier, 'episodic') AS was
SET r.resolved = true, r.resolved_at = $now, r.resolved_by = x.actor, r.older_id = o.id,
    r.demoted_from = CASE WHEN x.demote AND was <> 'dormant' THEN was ELSE null END
FOREACH (_ IN CASE WHEN x.demote AND was <> 'dormant' THEN [1] ELSE [] END |
  SET o.tier = 'dormant', o.frozen_at = $now, o.tier_changed_at = $now
  CREATE (:TierChange {id: x.change_id, namespace: $namespace, memory_id: o.id, old: was,
                       new: 'dormant', reason: x.reason, rule: 'contradiction', actor: x.actor,
                       at: $now}))
RETURN count(r) AS resolved, sum(CASE WHEN x.demote AND was <> 'dormant' THEN 1 ELSE 0 END) AS demoted
