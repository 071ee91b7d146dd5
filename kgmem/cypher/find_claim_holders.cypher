// For each candidate claim: the live memories of the namespace that assert the same subject's slot families (any qualifier, any value; `taxonomy.slots.holder_families`), newest first, each with its cosine to the candidate and to the candidate's subject name (`it.subject_vector`, or null) (the gate tells which of several dates or amounts a candidate restates).
// params: $namespace, $items, $limit
// Conflicts are found by (namespace, subject, slot), not by embedding similarity: two wordings
// of a change ("I'm at Stripe now" / "works at Google") can be far apart in the vector space.
UNWIND $items AS it
CALL (it) {
  MATCH (m:Memory {namespace: $namespace, claim_subject: it.subject})
  WHERE m.claim_family IN it.families AND m.status IN ['active', 'stale', 'challenged']
  WITH m ORDER BY coalesce(m.valid_from, m.created_at) DESC, m.id
  LIMIT $limit
  RETURN collect(m {
    .id, .content, .content_hash, .category, .status, .valid_from, .valid_until,
    .importance, .utility, .confidence, .pinned, .immutable, .created_at, .session_id,
    .claim_subject, .claim_slot, .claim_value, .claim_polarity, .claim_confidence,
    similarity: CASE WHEN m.embedding IS NULL THEN 0.0
                ELSE 2.0 * vector.similarity.cosine(m.embedding, it.embedding) - 1.0 END,
    subject_similarity: CASE WHEN m.embedding IS NULL OR it.subject_vector IS NULL THEN null
                        ELSE 2.0 * vector.similarity.cosine(m.embedding, it.subject_vector) - 1.0 END,
    entities: [(m)-[:MENTIONS]->(e:Entity) | e.normalized_name]
  }) AS holders
}
RETURN it.key AS key, holders
