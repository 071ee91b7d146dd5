// Extraction leases over every namespace: grants to a new holder, takeovers of expired leases, and how many are held now.
// params: $now
MATCH (l:Lease {name: 'extraction'})
RETURN coalesce(sum(l.claims), 0) AS claims, coalesce(sum(l.expiries), 0) AS expiries,
       count(CASE WHEN l.holder IS NOT NULL AND l.expires_at > $now THEN 1 END) AS held
