// BM25 fulltext search over memory content within one namespace ($query is an escaped Lucene query). The index is shared by every namespace: it reads $windows[0] rows and keeps this namespace's; while that holds fewer than $limit of them and the index had more to give, it reads the next, wider window (up to three in this one statement, so a crowded namespace costs no extra round trip). `seen` and `level` (the window read last) tell the caller whether a still wider read could find more.
// params: $namespace, $query, $windows, $limit
CALL db.index.fulltext.queryNodes('memory_content', $query, {limit: $windows[0]}) YIELD node, score
WITH count(*) AS seen0,
     collect(CASE WHEN node.namespace = $namespace THEN {id: node.id, score: score} END) AS own0
// A window that is not read leaves its subquery one row with seen = 0 (an aggregation over no
// rows); a window that is read has seen > 0, since the window before it was full.
CALL (seen0, own0) {
  WITH seen0, own0 WHERE size(own0) < $limit AND seen0 >= $windows[0] AND size($windows) > 1
  CALL db.index.fulltext.queryNodes('memory_content', $query, {limit: $windows[1]})
    YIELD node, score
  RETURN count(*) AS seen1,
         collect(CASE WHEN node.namespace = $namespace THEN {id: node.id, score: score} END) AS own1
}
CALL (seen1, own1) {
  WITH seen1, own1 WHERE size(own1) < $limit AND seen1 >= $windows[1] AND size($windows) > 2
  CALL db.index.fulltext.queryNodes('memory_content', $query, {limit: $windows[2]})
    YIELD node, score
  RETURN count(*) AS seen2,
         collect(CASE WHEN node.namespace = $namespace THEN {id: node.id, score: score} END) AS own2
}
RETURN CASE WHEN seen2 > 0 THEN 2 WHEN seen1 > 0 THEN 1 ELSE 0 END AS level,
       CASE WHEN seen2 > 0 THEN seen2 WHEN seen1 > 0 THEN seen1 ELSE seen0 END AS seen,
       (CASE WHEN seen2 > 0 THEN own2 WHEN seen1 > 0 THEN own1 ELSE own0 END)[..$limit] AS hits
