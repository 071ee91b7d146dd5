// Ask a worker to extract a namespace now: the smart buffer's count or age trigger fired on these pending episodes.
// params: $namespace, $ids
MATCH (e:Episode {namespace: $namespace}) WHERE e.id IN $ids AND e.extracted = false
SET e.due = true
RETURN count(e) AS marked
