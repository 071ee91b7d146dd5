// One memory supersedes another by a caller's decision (a correction, a resolved conflict): loser superseded with valid_until, SUPERSEDES edge, their CONTRADICTS edges resolved, an audit record.
// params: $namespace, $winner_id, $loser_id, $reason, $actor, $now, $change_id
MATCH (winner:Memory {id: $winner_id, namespace: $namespace})
MATCH (loser:Memory {id: $loser_id, namespace: $namespace})
WITH winner, loser, loser.status AS was
SET loser.status = 'superseded', loser.modified_at = $now,
    loser.valid_until = CASE WHEN loser.valid_until IS NOT NULL AND loser.valid_until < $now
                             THEN loser.valid_until ELSE $now END
MERGE (winner)-[r:SUPERSEDES]->(loser)
ON CREATE SET r.confidence = 1.0, r.created_at = $now, r.reason = $reason
WITH winner, loser, was
CALL (winner, loser) {
  OPTIONAL MATCH (winner)-[c:CONTRADICTS]-(loser)
  SET c.resolved = true, c.resolved_at = $now
  RETURN count(c) AS resolved
}
CREATE (s:StatusChange {id: $change_id, namespace: $namespace, memory_id: loser.id, old: was,
                        new: 'superseded', reason: $reason, actor: $actor, at: $now,
                        related_id: winner.id})
RETURN was AS old, loser.status AS new, resolved
