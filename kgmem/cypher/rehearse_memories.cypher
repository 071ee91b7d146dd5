// The rehearsal and synaptic replay: set boosted stabilities (guarded by the value read), stamp rehearsals, mark co-activation pairs replayed.
// params: $namespace, $updates, $pairs, $now
CALL () {
  UNWIND $updates AS u
  MATCH (m:Memory {id: u.id, namespace: $namespace})
  WHERE coalesce(m.stability, 1.0) = u.old
  SET m.stability = u.stability,
      m.rehearsed_at = CASE WHEN u.rehearsed THEN $now ELSE m.rehearsed_at END,
      m.rehearsal_count = coalesce(m.rehearsal_count, 0) + CASE WHEN u.rehearsed THEN 1 ELSE 0 END
  RETURN count(m) AS updated
}
CALL () {
  UNWIND $pairs AS p
  MATCH (a:Memory {id: p.a, namespace: $namespace})-[c:CO_ACTIVATED]->(b:Memory {id: p.b, namespace: $namespace})
  WHERE c.count = p.count
  SET c.replayed_count = p.count, c.replayed_at = $now
  RETURN count(c) AS replayed
}
RETURN updated, replayed
