// Mark the memories a redundancy run compared with the namespace, and that are still live after its merges, as checked at $now: the next run compares only memories written or changed after.
// params: $namespace, $ids, $now
UNWIND $ids AS id
MATCH (m:Memory {id: id, namespace: $namespace})
WHERE m.status = 'active'
SET m.dedup_checked_at = $now
RETURN count(m) AS checked
