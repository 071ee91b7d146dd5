// Per category of a namespace: the id and content hash of every active memory (what a category summary is built from) and the live summary memory of that category, if any.
// params: $namespace
MATCH (m:Memory {namespace: $namespace})
WHERE m.status = 'active' AND m.synthesis IS NULL
WITH m ORDER BY m.id
WITH coalesce(m.category, 'fact') AS category,
     collect(m.id + '|' + coalesce(m.content_hash, '')) AS signature
OPTIONAL MATCH (s:Memory {namespace: $namespace, synthesis: 'category_summary', summary_of: category})
WHERE s.status IN ['active', 'stale', 'challenged']
WITH category, signature, s ORDER BY s.created_at, s.id
WITH category, signature, collect(s {.id, .summary_fingerprint}) AS summaries
RETURN category, signature, summaries[0] AS summary
ORDER BY category
