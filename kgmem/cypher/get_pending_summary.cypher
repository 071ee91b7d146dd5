// How many episodes wait for extraction in a namespace, and when the oldest was recorded.
// params: $namespace
MATCH (e:Episode {namespace: $namespace, extracted: false})
RETURN count(e) AS pending, min(e.recorded_at) AS oldest
