// Lower edge confidences by their due decay windows, guarded by the value read, remembering the windows applied and their anchor.
// params: $namespace, $decays, $now
UNWIND $decays AS d
MATCH ()-[r]->()
WHERE elementId(r) = d.edge AND startNode(r).namespace = $namespace
  AND coalesce(r.confidence, 1.0) = d.old
SET r.confidence = d.confidence, r.decay_anchor = d.anchor, r.decay_windows = d.windows,
    r.decayed_at = $now
RETURN count(r) AS decayed
