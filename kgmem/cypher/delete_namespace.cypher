// Remove every node of one namespace and its relationships (hard delete; used by wipe and tests).
// params: $namespace
MATCH (n {namespace: $namespace})
WITH collect(n) AS doomed
FOREACH (x IN doomed | DETACH DELETE x)
RETURN size(doomed) AS deleted
