// Write PageRank scores back as Memory.centrality.
// params: $namespace, $scores, $now
UNWIND $scores AS s
MATCH (m:Memory {id: s.id, namespace: $namespace})
SET m.centrality = s.score, m.centrality_at = $now
RETURN count(m) AS updated
