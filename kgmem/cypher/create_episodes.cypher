// Store observed turns as :Episode nodes before anything else (idempotent on the episode id).
// params: $namespace, $episodes, $now
UNWIND $episodes AS ep
MERGE (e:Episode {id: ep.id})
ON CREATE SET e += ep, e.namespace = $namespace, e.extracted = false, e.recorded_at = $now,
              e.attempts = 0
RETURN e.id AS id, e.extracted AS extracted, e.recorded_at = $now AS created
