// The utility drift toward the 0.5 prior (guarded by the value read), remembering the day it was counted to.
// params: $namespace, $drifts
UNWIND $drifts AS d
MATCH (m:Memory {id: d.id, namespace: $namespace})
WHERE coalesce(m.utility, 0.5) = d.old
SET m.utility = d.utility, m.utility_drifted_at = d.drifted_at
RETURN count(m) AS drifted
