// Edges whose confidence may decay (seed 000): entity relations and prunable memory links unreinforced since $before, above the floor, least recently decayed first.
// params: $namespace, $before, $floor, $limit
// A memory link is not older than the later of its two memories' transaction times (when kgmem
// stored them): links among imported history start their decay clock at the import, not at the
// event time the turns describe.
CALL () {
  MATCH (:Entity {namespace: $namespace})-[r:RELATED]->(:Entity)
  RETURN r, null AS known
  UNION
  MATCH (a:Memory {namespace: $namespace})-[r:RELATED_TO|SAME_ENTITY|ELABORATES|CO_ACTIVATED]->(b:Memory)
  RETURN r, CASE WHEN a.recorded_at > b.recorded_at THEN a.recorded_at ELSE b.recorded_at END AS known
}
WITH r, known, coalesce(r.last_reinforced_at, r.created_at) AS anchor
WITH r, CASE WHEN known > anchor THEN known ELSE anchor END AS anchor
WHERE anchor <= $before AND coalesce(r.confidence, 1.0) > $floor
RETURN elementId(r) AS edge, coalesce(r.confidence, 1.0) AS confidence, anchor,
       r.decay_anchor AS decay_anchor, coalesce(r.decay_windows, 0) AS decay_windows
ORDER BY coalesce(r.decayed_at, anchor), edge
LIMIT $limit
