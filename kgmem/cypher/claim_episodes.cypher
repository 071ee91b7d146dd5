// Mark episodes extracted inside the extraction's own transaction; a count below the ids given means another worker got there first. The write lock is taken (SET/REMOVE of a marker) before `extracted` is read: a worker that read `extracted = false` and then waited on a concurrent claim would otherwise claim the same episodes a second time once that claim committed. `committed_at` (server clock, like `stored_at`) dates the commit for the extraction-lag metric.
// params: $namespace, $ids, $now, $engine
MATCH (e:Episode {namespace: $namespace}) WHERE e.id IN $ids
SET e.claim_lock = true
REMOVE e.claim_lock
WITH e WHERE e.extracted = false
SET e.extracted = true, e.extracted_at = $now, e.engine = $engine, e.attempts = e.attempts + 1,
    e.committed_at = datetime(), e.due = false
RETURN count(e) AS claimed
