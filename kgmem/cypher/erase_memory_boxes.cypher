// Hard forget, boxes and traces: a box left with no memory goes; another keeps only the topics a remaining member's text still says; a trace keeps the topics all its remaining boxes share, and goes with its last box.
// params: $namespace, $ids
CALL () {
  UNWIND $ids AS mid
  MATCH (:Memory {id: mid, namespace: $namespace})-[:IN_BOX]->(:Box)-[:IN_TRACE]->(t:Trace)
  RETURN collect(DISTINCT t) AS traces
}
CALL () {
  UNWIND $ids AS mid
  MATCH (:Memory {id: mid, namespace: $namespace})-[:IN_BOX]->(b:Box)
  WITH DISTINCT b WHERE b.namespace = $namespace
  OPTIONAL MATCH (o:Memory)-[:IN_BOX]->(b) WHERE NOT o.id IN $ids
  WITH b, collect(o.content) AS texts
  // a topic is a normalised entity name or a content word: kept when a remaining member says it
  // as a whole word (\Q..\E: matched literally)
  SET b.topics = [t IN coalesce(b.topics, []) WHERE any(x IN texts WHERE x =~
                   ('(?isu).*(?<![\\p{L}\\p{N}])\\Q' + replace(t, '\\E', '\\E\\\\E\\Q')
                    + '\\E(?![\\p{L}\\p{N}]).*'))],
      b.memory_count = size(texts)
  WITH b, texts
  FOREACH (_ IN CASE WHEN size(texts) = 0 THEN [1] ELSE [] END | DETACH DELETE b)
  RETURN count(*) AS boxes
}
CALL (traces) {
  UNWIND traces AS t
  OPTIONAL MATCH (b:Box)-[:IN_TRACE]->(t)
  WITH t, collect(b) AS boxes
  SET t.topics = [x IN coalesce(t.topics, []) WHERE all(b IN boxes WHERE x IN b.topics)],
      t.box_count = size(boxes)
  WITH t, boxes
  FOREACH (_ IN CASE WHEN size(boxes) = 0 THEN [1] ELSE [] END | DETACH DELETE t)
  RETURN count(*) AS traced
}
RETURN boxes, traced
