// The topics of some namespaces (built by the consolidation job): id, name, terms, member count, level (0 leaf, 1 parent), parent topic and how the name was given, largest first.
// params: $namespaces, $limit
MATCH (t:Topic)
WHERE t.namespace IN $namespaces
OPTIONAL MATCH (t)-[:SUBTOPIC_OF]->(p:Topic)
RETURN t.id AS id, t.namespace AS namespace, t.name AS name, coalesce(t.terms, []) AS terms,
       coalesce(t.member_count, 0) AS members, coalesce(t.level, 0) AS level, p.id AS parent,
       coalesce(t.name_method, 'local') AS name_method
ORDER BY members DESC, name, id
LIMIT $limit
