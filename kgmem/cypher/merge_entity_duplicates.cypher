// Merge fragmented entities (same name or alias, or close name embeddings) reversibly: copy the loser's mentions and relations onto the canonical entity (tagged with the merge id), add its names as aliases, and retire it as a :MergedEntity linked by SAME_AS.
// params: $namespace, $merges, $now
UNWIND $merges AS x
MATCH (l:Entity {id: x.loser, namespace: $namespace})
MATCH (c:Entity {id: x.canonical, namespace: $namespace})
WHERE c <> l
CALL (l, c, x) {
  MATCH (m:Memory)-[r:MENTIONS]->(l)
  WHERE NOT (m)-[:MENTIONS]->(c)
  CREATE (m)-[r2:MENTIONS]->(c)
  SET r2 = properties(r), r2.merge_id = x.merge_id
  RETURN count(r2) AS mentions
}
CALL (l, c, x) {
  MATCH (l)-[r:RELATED]->(o:Entity)
  WHERE o <> c AND NOT EXISTS { MATCH (c)-[q:RELATED]->(o) WHERE q.type = r.type }
  CREATE (c)-[r2:RELATED]->(o)
  SET r2 = properties(r), r2.merge_id = x.merge_id
  RETURN count(r2) AS outgoing
}
CALL (l, c, x) {
  MATCH (o:Entity)-[r:RELATED]->(l)
  WHERE o <> c AND NOT EXISTS { MATCH (o)-[q:RELATED]->(c) WHERE q.type = r.type }
  CREATE (o)-[r2:RELATED]->(c)
  SET r2 = properties(r), r2.merge_id = x.merge_id
  RETURN count(r2) AS incoming
}
WITH l, c, x, mentions, outgoing + incoming AS relations,
     reduce(acc = [], a IN coalesce(l.aliases, []) + [l.name] |
            CASE WHEN a IN acc OR a IN coalesce(c.aliases, []) THEN acc ELSE acc + a END) AS names,
     reduce(acc = [], a IN coalesce(l.aliases_norm, []) + [l.normalized_name] |
            CASE WHEN a IN acc OR a IN coalesce(c.aliases_norm, []) THEN acc ELSE acc + a END) AS norms
WITH l, c, x, mentions, relations, names, norms, coalesce(c.aliases, []) + names AS all_names
CREATE (l)-[s:SAME_AS {merge_id: x.merge_id, created_at: $now, reason: x.reason, actor: x.actor,
                       rule: coalesce(x.rule, 'name'), confidence: coalesce(x.confidence, 1.0),
                       added_aliases: names, added_aliases_norm: norms,
                       added_mentions: mentions, copied_relations: relations}]->(c)
SET c.aliases = all_names,
    c.aliases_norm = coalesce(c.aliases_norm, []) + norms,
    c.aliases_text = reduce(t = '', a IN all_names | t + ' ' + a),
    c.mention_count = coalesce(c.mention_count, 0) + mentions,
    l.merged_into = c.id, l.merged_at = $now
REMOVE l:Entity
SET l:MergedEntity
RETURN count(l) AS merged, sum(mentions) AS mentions, sum(relations) AS relations
