// The memories of one namespace said, or dated, within [$start, $end) (the day or week a question names: "on 13 October 2023"), the closest to the query embedding first: a question about what was said or done on a day reads that day's memories whatever their words. At most $scan memories of the period are read (the namespace and time indexes find them).
// params: $namespace, $start, $end, $embedding, $scan, $limit
CALL () {
  MATCH (m:Memory)
  WHERE m.namespace = $namespace AND m.created_at >= $start AND m.created_at < $end
  RETURN m
  UNION
  MATCH (m:Memory)
  WHERE m.namespace = $namespace AND m.valid_from >= $start AND m.valid_from < $end
  RETURN m
}
WITH m LIMIT $scan
WITH m
WHERE m.status IN ['active', 'stale', 'challenged'] AND m.embedding IS NOT NULL
WITH m, vector.similarity.cosine(m.embedding, $embedding) AS score
ORDER BY score DESC, m.id
LIMIT $limit
RETURN m.id AS id, score
