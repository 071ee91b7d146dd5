// Recreate exported relationships between existing nodes: each distinct (type, ends, properties) gets its copies.
// params: $edges, $namespaces
// Endpoints are found by (label, id) through literal branches (index seeks); the relationship type
// was checked against taxonomy's closed vocabulary before it got here. Only the missing copies are
// created, so importing the same file twice changes nothing. A row whose endpoint is missing
// returns nothing, and the caller rolls the batch back. Both ends must lie in one namespace the
// file holds ($namespaces): an edge into another namespace (a memory made to mention a stranger's
// entity, which the entity channel then follows) or among another namespace's nodes creates
// nothing, and the row's namespaces tell the caller which line to refuse.
UNWIND $edges AS row
CALL (row) {
  WITH row WHERE row.start_label = 'Memory'
  MATCH (a:Memory {id: row.start_id})
  RETURN a
  UNION ALL
  WITH row WHERE row.start_label = 'Episode'
  MATCH (a:Episode {id: row.start_id})
  RETURN a
  UNION ALL
  WITH row WHERE row.start_label = 'Entity'
  MATCH (a:Entity {id: row.start_id})
  RETURN a
  UNION ALL
  WITH row WHERE row.start_label = 'Box'
  MATCH (a:Box {id: row.start_id})
  RETURN a
  UNION ALL
  WITH row WHERE row.start_label = 'Trace'
  MATCH (a:Trace {id: row.start_id})
  RETURN a
  UNION ALL
  WITH row WHERE row.start_label = 'Topic'
  MATCH (a:Topic {id: row.start_id})
  RETURN a
  UNION ALL
  WITH row WHERE row.start_label = 'StatusChange'
  MATCH (a:StatusChange {id: row.start_id})
  RETURN a
  UNION ALL
  WITH row WHERE row.start_label = 'TierChange'
  MATCH (a:TierChange {id: row.start_id})
  RETURN a
  UNION ALL
  WITH row WHERE row.start_label = 'MergedEntity'
  MATCH (a:MergedEntity {id: row.start_id})
  RETURN a
  UNION ALL
  WITH row WHERE row.start_label = 'Lease'
  MATCH (a:Lease {id: row.start_id})
  RETURN a
  UNION ALL
  WITH row WHERE row.start_label = 'NamespaceState'
  MATCH (a:NamespaceState {id: row.start_id})
  RETURN a
}
CALL (row) {
  WITH row WHERE row.end_label = 'Memory'
  MATCH (b:Memory {id: row.end_id})
  RETURN b
  UNION ALL
  WITH row WHERE row.end_label = 'Episode'
  MATCH (b:Episode {id: row.end_id})
  RETURN b
  UNION ALL
  WITH row WHERE row.end_label = 'Entity'
  MATCH (b:Entity {id: row.end_id})
  RETURN b
  UNION ALL
  WITH row WHERE row.end_label = 'Box'
  MATCH (b:Box {id: row.end_id})
  RETURN b
  UNION ALL
  WITH row WHERE row.end_label = 'Trace'
  MATCH (b:Trace {id: row.end_id})
  RETURN b
  UNION ALL
  WITH row WHERE row.end_label = 'Topic'
  MATCH (b:Topic {id: row.end_id})
  RETURN b
  UNION ALL
  WITH row WHERE row.end_label = 'StatusChange'
  MATCH (b:StatusChange {id: row.end_id})
  RETURN b
  UNION ALL
  WITH row WHERE row.end_label = 'TierChange'
  MATCH (b:TierChange {id: row.end_id})
  RETURN b
  UNION ALL
  WITH row WHERE row.end_label = 'MergedEntity'
  MATCH (b:MergedEntity {id: row.end_id})
  RETURN b
  UNION ALL
  WITH row WHERE row.end_label = 'Lease'
  MATCH (b:Lease {id: row.end_id})
  RETURN b
  UNION ALL
  WITH row WHERE row.end_label = 'NamespaceState'
  MATCH (b:NamespaceState {id: row.end_id})
  RETURN b
}
WITH row, a, b, a.namespace = b.namespace AND a.namespace IN $namespaces AS scoped
OPTIONAL MATCH (a)-[r]->(b)
WHERE scoped AND type(r) = row.type AND properties(r) = row.props
WITH row, a, b, scoped, count(r) AS have
CALL (row, a, b, have, scoped) {
  UNWIND CASE WHEN scoped THEN range(1, row.copies - have) ELSE [] END AS copy
  CREATE (a)-[x:$(row.type)]->(b)
  SET x = row.props
  RETURN count(x) AS created
}
RETURN row.line AS line, created, a.namespace AS start_namespace, b.namespace AS end_namespace
