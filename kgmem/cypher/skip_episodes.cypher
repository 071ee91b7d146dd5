// Mark episodes the observer filters rejected as processed, with the reasons (the turn itself is kept).
// params: $namespace, $skips
UNWIND $skips AS s
MATCH (e:Episode {id: s.id, namespace: $namespace})
SET e.skip_reasons = s.reasons, e.skipped = true
RETURN count(e) AS skipped
