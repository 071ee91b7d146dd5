// Merge near-duplicates reversibly: each loser becomes merged and dormant, with a MERGED_INTO edge that keeps its previous state, and an audit record.
// params: $namespace, $merges
UNWIND $merges AS x
MATCH (l:Memory {id: x.loser, namespace: $namespace})
WHERE l.status = 'active'
MATCH (w:Memory {id: x.survivor, namespace: $namespace})
WHERE w <> l
CREATE (l)-[r:MERGED_INTO {merge_id: x.merge_id, similarity: x.similarity,
                           confidence: x.similarity, created_at: x.at, reason: x.reason,
                           prev_status: l.status, prev_tier: l.tier,
                           prev_frozen_at: l.frozen_at, prev_modified_at: l.modified_at,
                           prev_lifecycle_state: l.lifecycle_state}]->(w)
SET l.status = 'merged', l.tier = 'dormant', l.frozen_at = x.at, l.modified_at = x.at
CREATE (s:StatusChange {id: x.change_id, namespace: $namespace, memory_id: l.id, old: 'active',
                        new: 'merged', reason: x.reason, rule: 'redundancy', actor: x.actor,
                        at: x.at, related_id: w.id})
RETURN count(l) AS merged
