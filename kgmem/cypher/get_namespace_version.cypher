// A namespace's write version and the GDS graphs already projected under a name prefix.
// params: $namespace, $graph_prefix
OPTIONAL MATCH (s:NamespaceState {namespace: $namespace})
WITH coalesce(s.version, 0) AS version
CALL () {
  CALL gds.graph.list() YIELD graphName
  RETURN collect(graphName) AS graphs
}
RETURN version, [g IN graphs WHERE g STARTS WITH $graph_prefix] AS graphs
