// Which merge a key names: a memory merge (by merge id, merged memory or theme id) or an entity merge (by merge id or merged entity id).
// params: $namespace, $key
CALL () {
  MATCH (l:Memory {namespace: $namespace})-[r:MERGED_INTO]->(w:Memory {namespace: $namespace})
  WHERE r.merge_id = $key OR l.id = $key OR (w.id = $key AND w.theme_merge_id = r.merge_id)
  RETURN DISTINCT 'memory' AS kind, r.merge_id AS merge_id
  UNION
  MATCH (l:MergedEntity {namespace: $namespace})-[s:SAME_AS]->(:Entity {namespace: $namespace})
  WHERE s.merge_id = $key OR l.id = $key
  RETURN DISTINCT 'entity' AS kind, s.merge_id AS merge_id
}
RETURN kind, merge_id
ORDER BY kind, merge_id
