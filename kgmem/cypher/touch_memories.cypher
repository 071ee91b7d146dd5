// After a (non-dry) recall: access counts, last access, stability growth, Hebbian co-activation, 2% boost to linked neighbours.
// params: $namespace, $touches, $pairs, $now, $neighbour_boost, $pair_delta, $max_stability
CALL () {
  UNWIND $touches AS t
  MATCH (m:Memory {id: t.id, namespace: $namespace})
  SET m.access_count = coalesce(m.access_count, 0) + 1, m.last_accessed = $now,
      m.stability = t.stability
  WITH m
  OPTIONAL MATCH (m)-[:SAME_ENTITY|ELABORATES|RELATED_TO|CO_ACTIVATED]-(n:Memory {namespace: $namespace})
  WHERE n.status = 'active'
  WITH DISTINCT n WHERE n IS NOT NULL
  // the boost never lifts a multiplier past the lifecycle's cap (repeated recalls cannot make a
  // neighbour immortal) and never lowers one already above it
  WITH n, coalesce(n.stability, 1.0) AS s
  SET n.stability = CASE WHEN s * $neighbour_boost > $max_stability
                         THEN CASE WHEN s > $max_stability THEN s ELSE $max_stability END
                         ELSE s * $neighbour_boost END
  RETURN count(n) AS boosted
}
CALL () {
  UNWIND $pairs AS p
  MATCH (a:Memory {id: p[0], namespace: $namespace})
  MATCH (b:Memory {id: p[1], namespace: $namespace})
  MERGE (a)-[c:CO_ACTIVATED]->(b)
  ON CREATE SET c.count = 0, c.created_at = $now, c.confidence = 0.3
  SET c.count = c.count + 1, c.last_reinforced_at = $now,
      c.confidence = CASE WHEN c.confidence + $pair_delta > 1.0 THEN 1.0
                          ELSE c.confidence + $pair_delta END
  RETURN count(c) AS pairs
}
RETURN boosted, pairs
