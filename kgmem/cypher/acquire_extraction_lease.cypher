// Take or renew a namespace's extraction lease if it is free, expired or already ours (one transaction). Counts the grants to a new holder (`claims`) and the takeovers of a lease whose holder never released it (`expiries`: that worker died or hung).
// params: $namespace, $holder, $now, $expires_at
MERGE (l:Lease {id: 'extraction:' + $namespace})
ON CREATE SET l.namespace = $namespace, l.name = 'extraction', l.claims = 0, l.expiries = 0
WITH l, coalesce(l.holder = $holder, false) AS ours,
     (l.holder IS NULL OR l.expires_at IS NULL OR l.expires_at <= $now) AS free
WITH l, ours, free, ours OR free AS granted, l.holder AS before
SET l.holder = CASE WHEN granted THEN $holder ELSE l.holder END,
    l.expires_at = CASE WHEN granted THEN $expires_at ELSE l.expires_at END,
    l.acquired_at = CASE WHEN granted AND NOT ours THEN $now ELSE l.acquired_at END,
    l.claims = CASE WHEN granted AND NOT ours THEN coalesce(l.claims, 0) + 1
                    ELSE coalesce(l.claims, 0) END,
    l.expiries = CASE WHEN granted AND NOT ours AND before IS NOT NULL
                      THEN coalesce(l.expiries, 0) + 1 ELSE coalesce(l.expiries, 0) END,
    l.taken_over_from = CASE WHEN granted AND NOT ours AND before IS NOT NULL THEN before
                             ELSE l.taken_over_from END
RETURN granted AS acquired, l.holder AS holder, l.expires_at AS expires_at,
       CASE WHEN granted AND NOT ours THEN before ELSE null END AS taken_over_from
