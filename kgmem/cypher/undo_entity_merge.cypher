// Undo one entity merge: delete the mentions and relations it copied, take back the names it added, restore the merged entity as an :Entity and remember both as distinct (no later run merges them again).
// params: $namespace, $merge_id, $now
MATCH (l:MergedEntity {namespace: $namespace})-[s:SAME_AS {merge_id: $merge_id}]->(c:Entity {namespace: $namespace})
CALL (c) {
  MATCH (:Memory)-[r:MENTIONS {merge_id: $merge_id}]->(c)
  DELETE r
  RETURN count(*) AS mentions
}
CALL (c) {
  MATCH (c)-[r:RELATED {merge_id: $merge_id}]-(:Entity)
  DELETE r
  RETURN count(*) AS relations
}
WITH l, s, c, mentions, relations,
     [a IN coalesce(c.aliases, []) WHERE NOT a IN s.added_aliases] AS names
SET c.aliases = names,
    c.aliases_norm = [a IN coalesce(c.aliases_norm, []) WHERE NOT a IN s.added_aliases_norm],
    c.aliases_text = reduce(t = '', a IN names | t + ' ' + a),
    c.mention_count = coalesce(c.mention_count, 0) - s.added_mentions,
    l.merged_into = null, l.merged_at = null, l.unmerged_at = $now,
    l.distinct_from = [x IN coalesce(l.distinct_from, []) WHERE x <> c.id] + c.id,
    c.distinct_from = [x IN coalesce(c.distinct_from, []) WHERE x <> l.id] + l.id
REMOVE l:MergedEntity
SET l:Entity
DELETE s
RETURN count(l) AS restored, sum(mentions) AS mentions, sum(relations) AS relations
