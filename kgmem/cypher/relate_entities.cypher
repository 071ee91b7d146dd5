// Typed entity relations (type stored as a property of the fixed RELATED type), reinforced on re-observation.
// params: $namespace, $relations
// Planned once (replan=skip): every node is found by its unique id, so the plan does not depend
// on the store's counts, and replanning it as they drift cost 0.3-0.9 s of server CPU each time.
CYPHER replan=skip
UNWIND $relations AS r
MATCH (a:Entity {id: r.source_id, namespace: $namespace})
MATCH (b:Entity {id: r.target_id, namespace: $namespace})
MERGE (a)-[x:RELATED {type: r.type}]->(b)
ON CREATE SET x.count = 0, x.confidence = r.confidence, x.created_at = r.at, x.evidence = [],
              x.inferred = r.inferred
SET x.confidence = CASE WHEN x.count = 0 THEN x.confidence
                        WHEN x.confidence + r.delta > 1.0 THEN 1.0
                        ELSE x.confidence + r.delta END,
    x.count = x.count + 1,
    x.last_reinforced_at = r.at,
    x.evidence = CASE WHEN r.memory_id IN x.evidence OR size(x.evidence) >= 20 THEN x.evidence
                      ELSE x.evidence + r.memory_id END
RETURN count(x) AS related
