// A namespace's hub entities: those mentioned by at least $share of its memories (in a conversation, the speakers), most mentioned first, with their aliases. Their names are weak evidence for a text search there, although the shared fulltext index gives them a high IDF. Memories are counted through the (namespace, status) index (every memory has a status); a plain namespace match scanned every namespace's memories.
// params: $namespace, $share, $limit
CALL () {
  MATCH (m:Memory) WHERE m.namespace = $namespace AND m.status IS NOT NULL
  RETURN count(m) AS memories
}
MATCH (e:Entity {namespace: $namespace})
WHERE memories > 0 AND coalesce(e.mention_count, 0) >= $share * memories
WITH e ORDER BY e.mention_count DESC, e.name LIMIT $limit
RETURN collect([e.name] + coalesce(e.aliases, [])) AS names
