// The topics of some namespaces (built by the consolidation job): id, name, terms and member count, largest first.
// params: $namespaces, $limit
MATCH (t:Topic)
WHERE t.namespace IN $namespaces
RETURN t.id AS id, t.namespace AS namespace, t.name AS name, coalesce(t.terms, []) AS terms,
       coalesce(t.member_count, 0) AS members
ORDER BY members DESC, name, id
LIMIT $limit
