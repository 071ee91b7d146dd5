// What a theme memory is built from: content, category, embedding, entities and counters of some memories.
// params: $namespace, $ids
MATCH (m:Memory {namespace: $namespace})
WHERE m.id IN $ids
RETURN m {.id, .content, .category, .created_at, .embedding, .tags, .utility, .confidence,
          .stability, .access_count, .repetition_count, .valid_from,
          entities: [(m)-[:MENTIONS]->(e:Entity) | e.id]} AS memory
ORDER BY m.id
