// Write entity profiles (summary text, how it was written, the memories it came from and their fingerprint), each guarded by the fingerprint it replaces.
// params: $namespace, $profiles, $now
UNWIND $profiles AS p
MATCH (e:Entity {id: p.id, namespace: $namespace})
WHERE coalesce(e.summary_fingerprint, '') = p.old
SET e.summary = p.summary, e.summary_method = p.method, e.summary_sources = p.sources,
    e.summary_fingerprint = p.fingerprint, e.summary_at = $now
RETURN count(e) AS profiled
