// The live memories that assert one of the slot families answering a question (`taxonomy.slots.answering_families`) of the query's subjects (of every subject when the query names none), newest first: the current value of what a question asks ("How old is Ana?": Ana's age), with the value it replaced behind it.
// params: $namespace, $subjects, $families, $min_confidence, $limit
MATCH (m:Memory {namespace: $namespace})
WHERE m.claim_family IN $families
  AND (size($subjects) = 0 OR m.claim_subject IN $subjects)
  AND m.status IN ['active', 'stale', 'challenged']
  AND coalesce(m.claim_confidence, 0.0) >= $min_confidence
WITH m ORDER BY coalesce(m.valid_from, m.created_at) DESC, m.id
LIMIT $limit
RETURN m.id AS id, 1.0 AS score
