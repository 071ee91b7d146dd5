// The episodes (and callers' turn ids) each memory derives from.
// params: $namespace, $ids
MATCH (m:Memory {namespace: $namespace}) WHERE m.id IN $ids
OPTIONAL MATCH (m)-[d:DERIVED_FROM]->(e:Episode)
WITH m, e, d ORDER BY CASE d.role WHEN 'source' THEN 0 ELSE 1 END, e.at, e.seq
RETURN m.id AS id, collect(e.id) AS episode_ids,
       [t IN collect(e.turn_id) WHERE t IS NOT NULL] AS turn_ids
