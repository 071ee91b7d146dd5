// Hard forget of a theme's member: the theme (it holds the member's text) is erased, so its other members get back the status, tier and times they had before the merge, with an audit record.
// params: $namespace, $ids, $actor, $now
UNWIND $ids AS tid
MATCH (l:Memory {namespace: $namespace})-[r:MERGED_INTO]->(:Memory {id: tid, namespace: $namespace})
WHERE NOT l.id IN $ids AND l.status = 'merged'
SET l.status = r.prev_status, l.tier = r.prev_tier, l.frozen_at = r.prev_frozen_at,
    l.modified_at = r.prev_modified_at, l.lifecycle_state = r.prev_lifecycle_state
CREATE (:StatusChange {id: randomUUID(), namespace: $namespace, memory_id: l.id, old: 'merged',
                       new: r.prev_status, reason: 'the theme it was merged into was erased',
                       rule: 'erasure', actor: $actor, at: $now})
DELETE r
RETURN count(l) AS restored
