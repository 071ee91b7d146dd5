// Take the namespace's write lock for the rest of this transaction, then report the planned new memories (content hashes) and new entities (normalised names) that a concurrent writer stored after the plan was read.
// params: $namespace, $hashes, $names, $live, $now, $retiring
// Every write of the extraction path (remember, observe) takes this lock first, so writers of
// one namespace plan in parallel but write one after the other. Under the lock this read sees
// every earlier writer's committed nodes: a live memory with a planned hash, or an entity with
// the name of a planned new one, means the plan is stale and the caller plans again (and then
// reinforces that memory and names that entity) instead of writing a copy. The lock is the
// state node's (unique on namespace, so the MERGE is race-free), taken by a SET/REMOVE pair.
// A memory the plan itself retires ($retiring: one fact of the batch supersedes it, a later one
// says it again) is no race: the plan read it, and it is no longer live when the plan commits.
MERGE (s:NamespaceState {namespace: $namespace})
ON CREATE SET s.version = 0, s.id = $namespace
SET s.write_lock = true
REMOVE s.write_lock
WITH s
CALL (s) {
  OPTIONAL MATCH (m:Memory {namespace: $namespace})
  WHERE m.content_hash IN $hashes AND coalesce(m.status, 'active') IN $live
    AND NOT m.id IN $retiring
    AND (m.valid_until IS NULL OR m.valid_until > $now)
  RETURN collect(DISTINCT m.content_hash) AS memories
}
CALL (s) {
  OPTIONAL MATCH (e:Entity {namespace: $namespace})
  WHERE e.normalized_name IN $names
  RETURN collect(DISTINCT e.normalized_name) AS entities
}
RETURN memories, entities
