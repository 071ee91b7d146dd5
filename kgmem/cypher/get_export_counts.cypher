// How many nodes and relationships an export of one namespace (every namespace when null) writes.
// params: $namespace
CALL () {
  MATCH (n)
  WHERE n.namespace = $namespace OR ($namespace IS NULL AND n.namespace IS NOT NULL)
  RETURN count(n) AS nodes
}
CALL () {
  MATCH (a)-[r]->()
  WHERE a.namespace = $namespace OR ($namespace IS NULL AND a.namespace IS NOT NULL)
  RETURN count(r) AS edges
}
RETURN nodes, edges
