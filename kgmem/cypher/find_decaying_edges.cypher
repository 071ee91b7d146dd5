// Edges whose confidence may decay (seed 000): entity relations and prunable memory links unreinforced since $before, above the floor, least recently decayed first.
// params: $namespace, $before, $floor, $limit
CALL () {
  MATCH (:Entity {namespace: $namespace})-[r:RELATED]->(:Entity)
  RETURN r
  UNION
  MATCH (:Memory {namespace: $namespace})-[r:RELATED_TO|SAME_ENTITY|ELABORATES|CO_ACTIVATED]->(:Memory)
  RETURN r
}
WITH r, coalesce(r.last_reinforced_at, r.created_at) AS anchor
WHERE anchor <= $before AND coalesce(r.confidence, 1.0) > $floor
RETURN elementId(r) AS edge, coalesce(r.confidence, 1.0) AS confidence, anchor,
       r.decay_anchor AS decay_anchor, coalesce(r.decay_windows, 0) AS decay_windows
ORDER BY coalesce(r.decayed_at, anchor), edge
LIMIT $limit
