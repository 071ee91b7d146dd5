// The memories of one namespace said, or dated, within [$start, $end) (the day or week a question names: "on 13 October 2023"), the closest to the query embedding first: a question about what was said or done on a day reads that day's memories whatever their words. A period that holds more than $scan memories is not read at all (the namespace and time indexes count them without reading one): scoring a busy namespace's day costs more than the rest of the recall, and the time boost still lifts that day's memories the other channels find.
// params: $namespace, $start, $end, $embedding, $scan, $limit
// the memories said in the period, counted up to one past $scan: a full period stops here
CALL () {
  MATCH (m:Memory)
  WHERE m.namespace = $namespace AND m.created_at >= $start AND m.created_at < $end
  WITH m LIMIT $scan + 1
  RETURN count(m) AS said
}
WITH said
WHERE said <= $scan
CALL () {
  MATCH (m:Memory)
  WHERE m.namespace = $namespace AND m.created_at >= $start AND m.created_at < $end
  RETURN m
  UNION
  MATCH (m:Memory)
  WHERE m.namespace = $namespace AND m.valid_from >= $start AND m.valid_from < $end
  RETURN m
}
WITH collect(m) AS found
WHERE size(found) <= $scan
UNWIND found AS m
WITH m
WHERE m.status IN ['active', 'stale', 'challenged'] AND m.embedding IS NOT NULL
WITH m, vector.similarity.cosine(m.embedding, $embedding) AS score
ORDER BY score DESC, m.id
LIMIT $limit
RETURN m.id AS id, score
