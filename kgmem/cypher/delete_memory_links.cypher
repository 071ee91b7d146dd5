// Delete pruned memory links by element id; only prunable types can match, never supersedes, contradicts or causes.
// params: $namespace, $edges
UNWIND $edges AS eid
MATCH ()-[r:RELATED_TO|CO_ACTIVATED|SAME_ENTITY|ELABORATES]->()
WHERE elementId(r) = eid AND startNode(r).namespace = $namespace
DELETE r
RETURN count(*) AS deleted
