// Everything scoring needs about candidate memories of one namespace: fields, entities, turns, co-activation. Only the fields recall reads are sent, and its timestamps as UTC epoch microseconds (the driver's temporal decoding cost more client time than the query took on the server); the repository turns them back into datetimes. One row holds the whole list: the async driver pays ~0.1 ms of client CPU per record, more than a candidate costs the server. A turn's text is sent only when the memory has several turns, since it only orders them.
// params: $namespace, $ids
// values: plain
MATCH (m:Memory {namespace: $namespace}) WHERE m.id IN $ids
// The candidates as nodes, so a co-activated neighbour is recognised by identity: matching its id
// against $ids read the id of every neighbour (~15 % of the statement's db hits at 100k).
WITH collect(m) AS cands
UNWIND cands AS m
OPTIONAL MATCH (m)-[:MENTIONS]->(e:Entity)
WITH m, cands, collect(DISTINCT e.normalized_name) AS entities,
     collect(DISTINCT CASE WHEN e.type = 'person' THEN e.normalized_name END) AS people
OPTIONAL MATCH (m)-[d:DERIVED_FROM]->(ep:Episode)
// the turns that created the memory first, then the ones that reinforced it
WITH m, cands, entities, people, ep, d ORDER BY CASE d.role WHEN 'source' THEN 0 ELSE 1 END, ep.at, ep.seq
WITH m, cands, entities, people,
     [x IN collect({turn: coalesce(ep.turn_id, ep.id), text: ep.text})
      WHERE x.turn IS NOT NULL][..50] AS turns
WITH m, cands, entities, people,
     CASE WHEN size(turns) > 1 THEN turns ELSE [x IN turns | {turn: x.turn}] END AS turns
OPTIONAL MATCH (m)-[c:CO_ACTIVATED]-(o) WHERE o IN cands
WITH m, entities, people, turns, collect({id: o.id, count: c.count}) AS coactive
OPTIONAL MATCH (w:Memory)-[:SUPERSEDES]->(m)
WITH m, entities, people, turns, coactive, collect(w.id) AS superseded_by
RETURN collect({memory: m {.id, .content, .category, .type, .status, .tier, .lifecycle_state,
          .verification_state, .source, .importance, .utility, .confidence, .source_trust,
          .access_count, .stability, .session_id, .valence, .embedding,
          created_at: m.created_at.epochSeconds * 1000000 + m.created_at.microsecond,
          last_accessed: m.last_accessed.epochSeconds * 1000000 + m.last_accessed.microsecond,
          valid_from: m.valid_from.epochSeconds * 1000000 + m.valid_from.microsecond,
          valid_until: m.valid_until.epochSeconds * 1000000 + m.valid_until.microsecond,
          recorded_at: m.recorded_at.epochSeconds * 1000000 + m.recorded_at.microsecond},
       entities: entities, people: people, turns: turns, coactive: coactive, superseded_by: superseded_by}) AS rows
