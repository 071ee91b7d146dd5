// Store one memory with its embedding (idempotent on namespace + content hash) and link the entities it mentions.
// params: $namespace, $memory, $entities
MERGE (m:Memory {namespace: $namespace, content_hash: $memory.content_hash})
ON CREATE SET m += $memory
ON MATCH SET m.repetition_count = coalesce(m.repetition_count, 0) + 1,
             m.last_accessed = $memory.created_at
WITH m, m.id = $memory.id AS created
CALL {
  WITH m
  UNWIND $entities AS e
  MERGE (n:Entity {namespace: $namespace, normalized_name: e.normalized_name})
  ON CREATE SET n.id = e.id, n.name = e.name, n.type = e.type, n.aliases = [e.name],
                n.aliases_text = e.name, n.mention_count = 0, n.created_at = e.created_at
  MERGE (m)-[r:MENTIONS]->(n)
  ON CREATE SET r.confidence = e.confidence, r.created_at = e.created_at,
                n.mention_count = n.mention_count + 1
  RETURN count(n) AS linked
}
RETURN m.id AS id, created, linked
