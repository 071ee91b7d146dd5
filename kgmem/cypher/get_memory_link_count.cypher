// How many memory-to-memory links a namespace holds (kgmem prunes them above a cap).
// params: $namespace
MATCH (:Memory {namespace: $namespace})-[r:SUPERSEDES|CONTRADICTS|CAUSES|ELABORATES|SAME_ENTITY|RELATED_TO|MERGED_INTO|DEPENDS_ON|CO_ACTIVATED]->(:Memory)
RETURN count(r) AS links
