// Hard forget, audit: the erased memories' status and tier records go; a linked memory's record that names one of them (a supersession, a merge) keeps its change but loses the name and its reason.
// params: $namespace, $ids
CALL () {
  UNWIND $ids AS mid
  MATCH (s:StatusChange|TierChange {namespace: $namespace, memory_id: mid})
  DELETE s
  RETURN count(*) AS deleted
}
CALL () {
  UNWIND $ids AS mid
  MATCH (:Memory {id: mid, namespace: $namespace})--(o:Memory)
  WHERE NOT o.id IN $ids
  WITH DISTINCT o
  MATCH (s:StatusChange {namespace: $namespace, memory_id: o.id})
  WHERE s.related_id IN $ids OR any(x IN $ids WHERE coalesce(s.reason, '') CONTAINS x)
  SET s.related_id = null, s.reason = 'a related memory was erased'
  RETURN count(*) AS rewritten
}
RETURN deleted, rewritten
