// Refresh the hot tier: mark some memories hot and others no longer hot.
// params: $namespace, $hot, $cold
CALL () {
  UNWIND $hot AS id
  MATCH (m:Memory {id: id, namespace: $namespace})
  WHERE coalesce(m.hot, false) = false
  SET m.hot = true
  RETURN count(m) AS heated
}
CALL () {
  UNWIND $cold AS id
  MATCH (m:Memory {id: id, namespace: $namespace})
  WHERE m.hot = true
  SET m.hot = false
  RETURN count(m) AS cooled
}
RETURN heated, cooled
