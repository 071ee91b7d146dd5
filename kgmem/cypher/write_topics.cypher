// Rebuild a namespace's topics: delete the stale ones, create new ones with IN_TOPIC edges from their memories, rename changed ones.
// params: $namespace, $remove, $create, $rename, $now
CALL {
  UNWIND $remove AS tid
  MATCH (t:Topic {id: tid, namespace: $namespace})
  DETACH DELETE t
  RETURN count(*) AS removed
}
CALL {
  UNWIND $create AS x
  CREATE (t:Topic {id: x.id, namespace: $namespace, name: x.name, terms: x.terms,
                   summary: x.summary, member_count: size(x.members),
                   entity_count: size(x.entities), created_at: $now, method: 'louvain'})
  WITH t, x
  CALL {
    WITH t, x
    UNWIND x.members AS mid
    MATCH (m:Memory {id: mid, namespace: $namespace})
    CREATE (m)-[r:IN_TOPIC {created_at: $now, confidence: 1.0}]->(t)
    RETURN count(r) AS linked
  }
  RETURN count(t) AS created, sum(linked) AS members
}
CALL {
  UNWIND $rename AS x
  MATCH (t:Topic {id: x.id, namespace: $namespace})
  SET t.name = x.name, t.terms = x.terms, t.summary = x.summary
  RETURN count(t) AS renamed
}
RETURN removed, created, members, renamed
