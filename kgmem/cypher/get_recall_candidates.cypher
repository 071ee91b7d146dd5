// Everything scoring needs about candidate memories of one namespace: fields, entities, turns, co-activation.
// params: $namespace, $ids
MATCH (m:Memory {namespace: $namespace}) WHERE m.id IN $ids
OPTIONAL MATCH (m)-[:MENTIONS]->(e:Entity)
WITH m, collect(DISTINCT e.normalized_name) AS entities
OPTIONAL MATCH (m)-[:DERIVED_FROM]->(ep:Episode)
WITH m, entities, collect(DISTINCT coalesce(ep.turn_id, ep.id)) AS turns
OPTIONAL MATCH (m)-[c:CO_ACTIVATED]-(o:Memory) WHERE o.id IN $ids
WITH m, entities, turns, collect({id: o.id, count: c.count}) AS coactive
OPTIONAL MATCH (w:Memory)-[:SUPERSEDES]->(m)
RETURN m {.*} AS memory, entities, turns, coactive, collect(w.id) AS superseded_by
