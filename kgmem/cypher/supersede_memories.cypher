// The winner supersedes the loser: loser gets status superseded and valid_until, a SUPERSEDES edge and an audit record.
// params: $namespace, $changes
// Planned once (replan=skip): every node is found by its unique id, so the plan does not depend
// on the store's counts, and replanning it as they drift cost 0.3-0.9 s of server CPU each time.
CYPHER replan=skip
UNWIND $changes AS c
MATCH (winner:Memory {id: c.winner_id, namespace: $namespace})
MATCH (loser:Memory {id: c.loser_id, namespace: $namespace})
WITH c, winner, loser, loser.status AS was
SET loser.status = 'superseded', loser.valid_until = c.valid_until, loser.modified_at = c.at
MERGE (winner)-[r:SUPERSEDES]->(loser)
ON CREATE SET r.confidence = c.confidence, r.created_at = c.at, r.reason = c.reason
CREATE (s:StatusChange {id: c.change_id, namespace: $namespace, memory_id: loser.id,
                        old: was, new: 'superseded', reason: c.reason, actor: c.actor,
                        at: c.at, related_id: winner.id})
RETURN loser.id AS id
