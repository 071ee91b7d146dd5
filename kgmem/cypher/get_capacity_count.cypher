// How many live memories (active, not dormant) a namespace holds, for the capacity trim.
// params: $namespace
MATCH (m:Memory {namespace: $namespace, status: 'active'})
WHERE coalesce(m.tier, 'episodic') <> 'dormant'
RETURN count(m) AS live
