// Record core-gate refusals (the escalating cooldowns count epochs from the last one).
// params: $namespace, $rejections, $epoch, $now
UNWIND $rejections AS r
MATCH (m:Memory {id: r.id, namespace: $namespace})
WHERE coalesce(m.gate_rejections, 0) = r.old
SET m.gate_rejections = r.old + 1, m.gate_rejected_epoch = $epoch, m.gate_rejected_at = $now,
    m.gate_reason = r.reason
RETURN count(m) AS rejected
