// Bounded spreading activation from seed memories over MENTIONS (via shared entities) and memory links, decaying per hop, fan-out capped. One row holds the ranked list (the async driver's per-record cost).
// params: $namespace, $seeds, $decay, $fanout, $limit
UNWIND $seeds AS seed
MATCH (s:Memory {id: seed.id, namespace: $namespace})
CALL (s, seed) {
  MATCH (s)-[r1:MENTIONS]->(e:Entity)
  WHERE coalesce(e.mention_count, 1) <= $fanout
  WITH s, seed, e, r1 ORDER BY coalesce(r1.confidence, 0.5) DESC LIMIT 8
  MATCH (e)<-[r2:MENTIONS]-(m:Memory {namespace: $namespace})
  WHERE m <> s
  RETURN m, seed.weight * $decay * coalesce(r1.confidence, 0.5) * coalesce(r2.confidence, 0.5)
            / sqrt(coalesce(e.mention_count, 1)) AS act,
         [s.id, 'MENTIONS', e.name, 'MENTIONS', m.id] AS path,
         [coalesce(r1.confidence, 0.5), coalesce(r2.confidence, 0.5)] AS confs
  UNION
  WITH s, seed
  MATCH (s)-[r:SAME_ENTITY|ELABORATES|RELATED_TO|CAUSES|CO_ACTIVATED]-(m:Memory {namespace: $namespace})
  RETURN m, seed.weight * $decay * coalesce(r.confidence, 0.5) AS act,
         [s.id, type(r), m.id] AS path, [coalesce(r.confidence, 0.5)] AS confs
}
WITH m, act, path, confs ORDER BY act DESC
WITH m, sum(act) AS activation, collect({path: path, confs: confs})[0] AS best
WITH m.id AS id, activation AS score, best
ORDER BY score DESC, id
LIMIT $limit
RETURN collect({id: id, score: score, path: best.path, confidences: best.confs}) AS rows
