// Rebuild a namespace's topic tree: delete the stale topics, create new ones (leaves with IN_TOPIC edges from their memories, parents with SUBTOPIC_OF edges from their child topics), rename changed ones.
// params: $namespace, $remove, $create, $rename, $now
CALL () {
  UNWIND $remove AS tid
  MATCH (t:Topic {id: tid, namespace: $namespace})
  DETACH DELETE t
  RETURN count(*) AS removed
}
CALL () {
  UNWIND $create AS x
  CREATE (t:Topic {id: x.id, namespace: $namespace, name: x.name, terms: x.terms,
                   summary: x.summary, member_count: size(x.members),
                   entity_count: size(x.entities), level: x.level, name_method: x.name_method,
                   created_at: $now, method: x.method})
  WITH t, x
  CALL (t, x) {
    UNWIND CASE WHEN x.level = 0 THEN x.members ELSE [] END AS mid
    MATCH (m:Memory {id: mid, namespace: $namespace})
    CREATE (m)-[r:IN_TOPIC {created_at: $now, confidence: 1.0}]->(t)
    RETURN count(r) AS linked
  }
  RETURN count(t) AS created, sum(linked) AS members
}
CALL () {
  UNWIND $create AS x
  UNWIND x.children AS cid
  MATCH (p:Topic {id: x.id, namespace: $namespace})
  MATCH (c:Topic {id: cid, namespace: $namespace})
  CREATE (c)-[r:SUBTOPIC_OF {created_at: $now, confidence: 1.0}]->(p)
  RETURN count(r) AS nested
}
CALL () {
  UNWIND $rename AS x
  MATCH (t:Topic {id: x.id, namespace: $namespace})
  SET t.name = x.name, t.terms = x.terms, t.summary = x.summary
  RETURN count(t) AS renamed
}
RETURN removed, created, members, nested, renamed
