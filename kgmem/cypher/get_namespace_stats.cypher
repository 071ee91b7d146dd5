// Counts of a namespace's nodes by label and memory status, and of its relationships by type.
// params: $namespace
CALL () {
  MATCH (n {namespace: $namespace})
  RETURN count(n) AS nodes
}
CALL () {
  MATCH (n {namespace: $namespace})
  WITH labels(n)[0] AS label, count(*) AS c
  RETURN collect([label, c]) AS by_label
}
CALL () {
  MATCH (m:Memory {namespace: $namespace})
  WITH m.status AS status, count(*) AS c
  RETURN collect([status, c]) AS by_status
}
CALL () {
  MATCH (n {namespace: $namespace})-[r]->()
  WITH type(r) AS t, count(*) AS c
  RETURN collect([t, c]) AS by_rel
}
RETURN nodes, by_label, by_status, by_rel
