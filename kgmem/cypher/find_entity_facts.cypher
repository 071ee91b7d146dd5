// An entity's attributes from the claims of its memories, in one read: the live memories (active, stale, challenged) and the superseded ones whose claim subject is the entity, each with the ids of the memories that superseded it, newest first. $entity is an entity id, normalised name or alias (a subject no entity carries, such as the speaker's "user", is matched as given); $slot, when not null, keeps one claim key ("preference:milk") or family ("preference").
// params: $namespace, $entity, $slot, $limit
OPTIONAL MATCH (e:Entity {namespace: $namespace})
WHERE e.id = $entity OR e.normalized_name = $entity OR $entity IN coalesce(e.aliases_norm, [])
WITH e ORDER BY CASE WHEN e.id = $entity THEN 0 WHEN e.normalized_name = $entity THEN 1 ELSE 2 END,
                e.mention_count DESC
WITH collect(e) AS found
WITH found, found[0] AS entity
CALL (found) {
  UNWIND [x IN found | x.normalized_name] + [$entity] AS subject
  WITH DISTINCT subject
  // the memory_claim index: (namespace, claim_subject, claim_family)
  MATCH (m:Memory {namespace: $namespace, claim_subject: subject})
  WHERE m.status IN ['active', 'stale', 'challenged', 'superseded']
    AND ($slot IS NULL OR m.claim_slot = $slot OR m.claim_family = $slot)
  OPTIONAL MATCH (w:Memory {namespace: $namespace})-[:SUPERSEDES]->(m)
  WITH m, collect(w.id) AS superseded_by
  ORDER BY coalesce(m.valid_from, m.created_at) DESC, m.created_at DESC, m.id
  LIMIT $limit
  RETURN collect(m {.id, .content, .status, .claim_subject, .claim_slot, .claim_value,
                    .claim_polarity, .claim_confidence, .valid_from, .valid_until, .created_at,
                    superseded_by: superseded_by}) AS claims
}
RETURN entity {.id, .name, .normalized_name, .type} AS entity, claims
