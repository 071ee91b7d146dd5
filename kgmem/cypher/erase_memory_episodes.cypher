// Hard forget, episodes: a turn only the erased memories came from goes; a turn that also yielded a memory that stays keeps its place (the survivor's provenance) with its text redacted.
// params: $namespace, $ids, $now
UNWIND $ids AS mid
OPTIONAL MATCH (:Memory {id: mid, namespace: $namespace})-[:DERIVED_FROM]->(ep:Episode)
WITH DISTINCT ep WHERE ep.namespace = $namespace
WITH ep, EXISTS { MATCH (ep)<-[:DERIVED_FROM]-(o:Memory) WHERE NOT o.id IN $ids } AS shared
SET ep.text = CASE WHEN shared THEN '' ELSE ep.text END,
    ep.redacted_at = CASE WHEN shared THEN $now ELSE ep.redacted_at END
WITH ep, shared
FOREACH (_ IN CASE WHEN shared THEN [] ELSE [1] END | DETACH DELETE ep)
RETURN sum(CASE WHEN shared THEN 0 ELSE 1 END) AS deleted,
       sum(CASE WHEN shared THEN 1 ELSE 0 END) AS redacted
