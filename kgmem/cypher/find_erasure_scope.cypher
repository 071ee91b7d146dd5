// What a hard forget erases: the memory, the memories merged into it, and the memories built from any of them (a theme, a category summary, a session snapshot); and each entity they mention that other memories still mention, with the names of it those memories' texts still say and how they wrote it.
// params: $namespace, $id
MATCH (m:Memory {id: $id, namespace: $namespace})
OPTIONAL MATCH (x:Memory)-[:MERGED_INTO*1..10]->(m)
WITH m, [m] + [y IN collect(DISTINCT x) WHERE y.namespace = $namespace] AS core
WITH m, core, [c IN core | c.id] AS core_ids
// the memories built from one of them hold its text: a theme it was merged into, a snapshot
// distilled from it, a category summary that lists it as a source
CALL (core, core_ids) {
  UNWIND core AS c
  CALL (c) {
    MATCH (c)-[:MERGED_INTO]->(t:Memory) WHERE t.theme_of IS NOT NULL
    RETURN t
    UNION
    MATCH (t:Memory)-[:DERIVED_FROM]->(c)
    RETURN t
    UNION
    MATCH (t:Memory {namespace: $namespace, synthesis: 'category_summary'})
    WHERE c.id IN coalesce(t.summary_sources, [])
    RETURN t
  }
  WITH DISTINCT t WHERE t.namespace = $namespace AND NOT t.id IN core_ids
  RETURN collect(t.id) AS built
}
WITH m, core_ids + built AS ids
CALL (ids) {
  UNWIND ids AS mid
  MATCH (:Memory {id: mid, namespace: $namespace})-[:MENTIONS]->(e:Entity)
  WITH DISTINCT e
  WHERE EXISTS { MATCH (o:Memory)-[:MENTIONS]->(e) WHERE NOT o.id IN ids }
  UNWIND [e.name] + coalesce(e.aliases, []) AS n
  WITH DISTINCT e, n
  // a name is still said when a surviving memory's text has it as a whole word (\Q..\E: the
  // name is matched literally, never read as a pattern)
  WITH e, n, EXISTS {
    MATCH (o:Memory)-[:MENTIONS]->(e)
    WHERE NOT o.id IN ids
      AND o.content =~ ('(?isu).*(?<![\\p{L}\\p{N}])\\Q' + replace(n, '\\E', '\\E\\\\E\\Q')
                        + '\\E(?![\\p{L}\\p{N}]).*')
  } AS said
  WITH e, collect(CASE WHEN said THEN n END) AS said
  WITH e, said, COLLECT {
    MATCH (o:Memory)-[r:MENTIONS]->(e)
    WHERE NOT o.id IN ids AND r.surface IS NOT NULL
    RETURN DISTINCT r.surface LIMIT 20
  } AS surfaces
  RETURN collect({id: e.id, name: e.name, aliases: coalesce(e.aliases, []), said: said,
                  surfaces: surfaces}) AS shared
}
RETURN m.status AS status, ids, shared
