// Episodes of every namespace waiting for extraction, and the oldest one's age in seconds (server clock).
// params: -
MATCH (e:Episode) WHERE e.extracted = false
WITH count(e) AS pending, min(coalesce(e.stored_at, e.recorded_at)) AS oldest
RETURN pending,
       CASE WHEN oldest IS NULL THEN 0.0
            ELSE duration.inSeconds(oldest, datetime()).milliseconds / 1000.0 END AS oldest_age_s
