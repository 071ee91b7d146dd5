// Everything scoring needs about candidate memories of one namespace: fields, entities, turns, co-activation.
// params: $namespace, $ids
MATCH (m:Memory {namespace: $namespace}) WHERE m.id IN $ids
OPTIONAL MATCH (m)-[:MENTIONS]->(e:Entity)
WITH m, collect(DISTINCT e.normalized_name) AS entities
OPTIONAL MATCH (m)-[d:DERIVED_FROM]->(ep:Episode)
// the turns that created the memory first, then the ones that reinforced it
WITH m, entities, ep, d ORDER BY CASE d.role WHEN 'source' THEN 0 ELSE 1 END, ep.at, ep.seq
WITH m, entities, [x IN collect({turn: coalesce(ep.turn_id, ep.id), text: ep.text})
                   WHERE x.turn IS NOT NULL][..50] AS turns
OPTIONAL MATCH (m)-[c:CO_ACTIVATED]-(o:Memory) WHERE o.id IN $ids
WITH m, entities, turns, collect({id: o.id, count: c.count}) AS coactive
OPTIONAL MATCH (w:Memory)-[:SUPERSEDES]->(m)
RETURN m {.*} AS memory, entities, turns, coactive, collect(w.id) AS superseded_by
