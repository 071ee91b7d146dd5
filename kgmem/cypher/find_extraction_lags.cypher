// The extraction lag (turn stored → its memories committed, server clock) of the most recent commits, newest first.
// params: $limit
MATCH (e:Episode) WHERE e.committed_at IS NOT NULL AND e.stored_at IS NOT NULL
WITH e ORDER BY e.committed_at DESC LIMIT $limit
RETURN duration.inSeconds(e.stored_at, e.committed_at).milliseconds / 1000.0 AS lag_s
