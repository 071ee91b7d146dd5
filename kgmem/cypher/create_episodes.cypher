// Store observed turns as :Episode nodes before anything else (idempotent on the episode id). `stored_at` is the server's clock (extraction lag and a worker's age trigger are measured on it, whatever `$now` the caller gave); `due` asks a worker to extract the namespace now (a HIGH signal or a flush), also when a pending turn is sent again.
// params: $namespace, $episodes, $now, $due
UNWIND $episodes AS ep
MERGE (e:Episode {id: ep.id})
ON CREATE SET e += ep, e.namespace = $namespace, e.extracted = false, e.recorded_at = $now,
              e.attempts = 0, e.stored_at = datetime(), e.due = $due
ON MATCH SET e.due = CASE WHEN $due AND e.extracted = false THEN true ELSE e.due END
RETURN e.id AS id, e.extracted AS extracted, e.recorded_at = $now AS created
