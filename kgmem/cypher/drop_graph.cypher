// Drop a GDS in-memory graph if it exists.
// params: $graph
CALL gds.graph.drop($graph, false) YIELD graphName
RETURN graphName
