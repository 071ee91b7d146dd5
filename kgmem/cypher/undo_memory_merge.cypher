// Undo one redundancy merge: restore each merged memory's previous status, tier and times, drop the MERGED_INTO edges, and delete the theme memory the merge created.
// params: $namespace, $merge_id, $now, $actor
MATCH (l:Memory {namespace: $namespace})-[r:MERGED_INTO {merge_id: $merge_id}]->(w:Memory {namespace: $namespace})
WHERE l.status = 'merged'
WITH l, r, w, l.status AS was
SET l.status = r.prev_status, l.tier = r.prev_tier, l.frozen_at = r.prev_frozen_at,
    l.modified_at = r.prev_modified_at, l.lifecycle_state = r.prev_lifecycle_state
CREATE (s:StatusChange {id: randomUUID(), namespace: $namespace, memory_id: l.id, old: was,
                        new: r.prev_status, reason: 'undo merge ' + $merge_id,
                        rule: 'undo_merge', actor: $actor, at: $now, related_id: w.id})
DELETE r
WITH collect(DISTINCT w) AS survivors, count(l) AS restored
CALL (survivors) {
  UNWIND survivors AS w
  WITH w WHERE w.theme_merge_id = $merge_id
  CALL (w) {
    MATCH (w)-[:MENTIONS]->(e:Entity)
    SET e.mention_count = e.mention_count - 1
    RETURN count(e) AS unmentioned
  }
  DETACH DELETE w
  RETURN count(*) AS themes
}
RETURN restored, themes
