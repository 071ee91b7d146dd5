// The live memories that assert one of the slot families answering a question (`taxonomy.slots.answering_families`) of the query's subjects (of every subject when the query names none), newest first (an ending only while nothing of its family holds since): the current value of what a question asks ("How old is Ana?": Ana's age), with the value it replaced behind it.
// params: $namespace, $subjects, $families, $min_confidence, $limit
MATCH (m:Memory {namespace: $namespace})
WHERE m.claim_family IN $families
  AND (size($subjects) = 0 OR m.claim_subject IN $subjects)
  AND m.status IN ['active', 'stale', 'challenged']
  AND coalesce(m.claim_confidence, 0.0) >= $min_confidence
// An ending answers what is held now only while nothing of the subject's family holds since:
// "dropped Spanish" said with "switched to Japanese" leaves Japanese as the language learnt.
WITH m, coalesce(m.valid_from, m.created_at) AS at
WHERE m.claim_polarity IS NULL OR m.claim_polarity <> 'ended' OR NOT EXISTS {
  MATCH (h:Memory {namespace: $namespace, claim_subject: m.claim_subject, claim_family: m.claim_family})
  WHERE h.claim_polarity = 'holds'
    AND h.status IN ['active', 'stale', 'challenged']
    AND coalesce(h.claim_confidence, 0.0) >= $min_confidence
    AND coalesce(h.valid_from, h.created_at) >= at
}
WITH m ORDER BY at DESC, m.id
LIMIT $limit
RETURN m.id AS id, 1.0 AS score
