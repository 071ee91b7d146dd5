// Whether a namespace holds anything: how many memories, entities and episodes it has.
// params: $namespace
CALL () {
  MATCH (m:Memory {namespace: $namespace})
  RETURN count(m) AS memories
}
CALL () {
  MATCH (e:Entity {namespace: $namespace})
  RETURN count(e) AS entities
}
CALL () {
  MATCH (p:Episode {namespace: $namespace})
  RETURN count(p) AS episodes
}
RETURN memories, entities, episodes
