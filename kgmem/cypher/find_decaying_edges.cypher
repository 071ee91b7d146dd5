// Edges whose confidence may decay: entity relations and prunable memory links unreinforced since $before, above the floor, least recently decayed first.
// params: $namespace, $before, $floor, $limit
// An edge's clock starts no earlier than kgmem learned it: a memory link's at the later of its
// two memories' transaction times (when kgmem stored them), an entity relation's at that of the
// memory that first evidenced it. Edges among imported history start decaying from the import,
// not from the event time the turns describe (which their created_at keeps).
CALL () {
  MATCH (:Entity {namespace: $namespace})-[r:RELATED]->(:Entity)
  OPTIONAL MATCH (m:Memory {id: r.evidence[0], namespace: $namespace})
  RETURN r, m.recorded_at AS known
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
