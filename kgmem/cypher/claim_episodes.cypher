// Mark episodes extracted inside the extraction's own transaction; a count below the ids given means another worker got there first.
// params: $namespace, $ids, $now, $engine
MATCH (e:Episode {namespace: $namespace, extracted: false}) WHERE e.id IN $ids
SET e.extracted = true, e.extracted_at = $now, e.engine = $engine, e.attempts = e.attempts + 1
RETURN count(e) AS claimed
