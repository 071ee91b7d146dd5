// Delete the stored items of the given keys in a namespace (their episodes); the memories derived from them are erased or kept by the caller first.
// params: $namespace, $keys
MATCH (e:Episode {namespace: $namespace})
WHERE e.item_key IN $keys
DETACH DELETE e
RETURN count(*) AS deleted
