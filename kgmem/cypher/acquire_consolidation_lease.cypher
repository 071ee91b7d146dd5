// Take or renew a namespace's consolidation lease if it is free, expired or already ours (one transaction); a new run also advances the epoch.
// params: $namespace, $holder, $now, $expires_at, $new_run
MERGE (l:Lease {id: 'consolidation:' + $namespace})
ON CREATE SET l.namespace = $namespace, l.name = 'consolidation', l.epoch = 0
WITH l, coalesce(l.holder = $holder, false) AS ours,
     (l.holder IS NULL OR l.expires_at IS NULL OR l.expires_at <= $now) AS free
WITH l, ours, free, ours OR free AS granted, l.holder AS before
SET l.holder = CASE WHEN granted THEN $holder ELSE l.holder END,
    l.expires_at = CASE WHEN granted THEN $expires_at ELSE l.expires_at END,
    l.epoch = CASE WHEN granted AND $new_run THEN l.epoch + 1 ELSE l.epoch END,
    l.acquired_at = CASE WHEN granted AND NOT ours THEN $now ELSE l.acquired_at END,
    l.taken_over_from = CASE WHEN granted AND NOT ours AND before IS NOT NULL THEN before
                             ELSE l.taken_over_from END
RETURN granted AS acquired, l.holder AS holder, l.expires_at AS expires_at, l.epoch AS epoch,
       CASE WHEN granted AND NOT ours THEN before ELSE null END AS taken_over_from
