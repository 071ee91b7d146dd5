// Compare-and-set one memory's utility: writes only if it still holds $previous (else no row, the caller retries).
// params: $namespace, $id, $previous, $utility, $now
MATCH (m:Memory {id: $id, namespace: $namespace})
WHERE coalesce(m.utility, 0.5) = $previous
SET m.utility = $utility, m.last_feedback_at = $now,
    m.feedback_count = coalesce(m.feedback_count, 0) + 1
RETURN m.utility AS utility
