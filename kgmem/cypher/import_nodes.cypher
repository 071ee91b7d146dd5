// Upsert exported nodes by (label, id) and replace their properties; labels come from literal branches only.
// params: $nodes
// A node whose id already belongs to another namespace is left alone and reported (was <> the
// row's namespace) so the caller can roll the batch back. New nodes carry a creation marker only
// until `SET n = row.props` replaces every property, marker included.
UNWIND $nodes AS row
CALL (row) {
  WITH row WHERE row.label = 'Memory'
  MERGE (n:Memory {id: row.props.id}) ON CREATE SET n.import_created = true
  RETURN n
  UNION ALL
  WITH row WHERE row.label = 'Episode'
  MERGE (n:Episode {id: row.props.id}) ON CREATE SET n.import_created = true
  RETURN n
  UNION ALL
  WITH row WHERE row.label = 'Entity'
  MERGE (n:Entity {id: row.props.id}) ON CREATE SET n.import_created = true
  RETURN n
  UNION ALL
  WITH row WHERE row.label = 'Box'
  MERGE (n:Box {id: row.props.id}) ON CREATE SET n.import_created = true
  RETURN n
  UNION ALL
  WITH row WHERE row.label = 'Trace'
  MERGE (n:Trace {id: row.props.id}) ON CREATE SET n.import_created = true
  RETURN n
  UNION ALL
  WITH row WHERE row.label = 'Topic'
  MERGE (n:Topic {id: row.props.id}) ON CREATE SET n.import_created = true
  RETURN n
  UNION ALL
  WITH row WHERE row.label = 'StatusChange'
  MERGE (n:StatusChange {id: row.props.id}) ON CREATE SET n.import_created = true
  RETURN n
  UNION ALL
  WITH row WHERE row.label = 'TierChange'
  MERGE (n:TierChange {id: row.props.id}) ON CREATE SET n.import_created = true
  RETURN n
  UNION ALL
  WITH row WHERE row.label = 'MergedEntity'
  MERGE (n:MergedEntity {id: row.props.id}) ON CREATE SET n.import_created = true
  RETURN n
  UNION ALL
  WITH row WHERE row.label = 'Lease'
  MERGE (n:Lease {id: row.props.id}) ON CREATE SET n.import_created = true
  RETURN n
  UNION ALL
  WITH row WHERE row.label = 'NamespaceState'
  MERGE (n:NamespaceState {namespace: row.props.namespace}) ON CREATE SET n.import_created = true
  RETURN n
}
WITH row, n, n.namespace AS was, n.import_created IS NOT NULL AS created
FOREACH (_ IN CASE WHEN was IS NULL OR was = row.props.namespace THEN [1] ELSE [] END |
  SET n = row.props)
RETURN row.line AS line, was, created
