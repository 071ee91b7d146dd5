// Both BM25 searches of one query within one namespace, in one statement ($query is an escaped Lucene query): `memory` over memory content, `episode` over the turns as said, answered as the memories derived from the matching episodes (a memory scores its best episode). Each half reads its own windows: the indexes are shared by every namespace, so a half reads its $memory_windows[0] / $episode_windows[0] rows and keeps this namespace's; while that holds fewer than $limit of them and the index had more to give, it reads its next, wider window (up to three per half). A half whose windows are empty is skipped and answers null. `seen`, `level` (the window read last) and, for episodes, `episodes` tell the caller whether a still wider read could find more. The episode half's `hits` also carry, tagged `kind: 'episode'`, the turns among its best $turn_limit matches that no memory was derived from (a turn with nothing extracted), with their rank among the matching turns, so recall can return the turn itself.
// params: $namespace, $query, $memory_windows, $episode_windows, $limit, $turn_limit, $retired_turn_share, $read_confidence
// values: plain
// A window that is not read leaves its subquery one row with seen = 0 (an aggregation over no
// rows); a window that is read has seen > 0, since the window before it was full. A skipped half
// reads no window at all: its first index call gets no row.
CALL () {
  WITH 1 AS go WHERE size($memory_windows) > 0
  CALL db.index.fulltext.queryNodes('memory_content', $query, {limit: $memory_windows[0]})
    YIELD node, score
  WITH count(*) AS seen0,
       collect(CASE WHEN node.namespace = $namespace THEN {id: node.id, score: score} END) AS own0
  CALL (seen0, own0) {
    WITH seen0, own0
    WHERE size(own0) < $limit AND seen0 >= $memory_windows[0] AND size($memory_windows) > 1
    CALL db.index.fulltext.queryNodes('memory_content', $query, {limit: $memory_windows[1]})
      YIELD node, score
    RETURN count(*) AS seen1,
           collect(CASE WHEN node.namespace = $namespace THEN {id: node.id, score: score} END) AS own1
  }
  CALL (seen1, own1) {
    WITH seen1, own1
    WHERE size(own1) < $limit AND seen1 >= $memory_windows[1] AND size($memory_windows) > 2
    CALL db.index.fulltext.queryNodes('memory_content', $query, {limit: $memory_windows[2]})
      YIELD node, score
    RETURN count(*) AS seen2,
           collect(CASE WHEN node.namespace = $namespace THEN {id: node.id, score: score} END) AS own2
  }
  RETURN CASE WHEN size($memory_windows) > 0 THEN {
           level: CASE WHEN seen2 > 0 THEN 2 WHEN seen1 > 0 THEN 1 ELSE 0 END,
           seen: CASE WHEN seen2 > 0 THEN seen2 WHEN seen1 > 0 THEN seen1 ELSE seen0 END,
           hits: (CASE WHEN seen2 > 0 THEN own2 WHEN seen1 > 0 THEN own1 ELSE own0 END)[..$limit]
         } END AS memory
}
CALL () {
  WITH 1 AS go WHERE size($episode_windows) > 0
  CALL db.index.fulltext.queryNodes('episode_text', $query, {limit: $episode_windows[0]})
    YIELD node, score
  WITH count(*) AS seen0,
       collect(CASE WHEN node.namespace = $namespace THEN {episode: node, score: score} END) AS own0
  CALL (seen0, own0) {
    WITH seen0, own0
    WHERE size(own0) < $limit AND seen0 >= $episode_windows[0] AND size($episode_windows) > 1
    CALL db.index.fulltext.queryNodes('episode_text', $query, {limit: $episode_windows[1]})
      YIELD node, score
    RETURN count(*) AS seen1,
           collect(CASE WHEN node.namespace = $namespace THEN {episode: node, score: score} END) AS own1
  }
  CALL (seen1, own1) {
    WITH seen1, own1
    WHERE size(own1) < $limit AND seen1 >= $episode_windows[1] AND size($episode_windows) > 2
    CALL db.index.fulltext.queryNodes('episode_text', $query, {limit: $episode_windows[2]})
      YIELD node, score
    RETURN count(*) AS seen2,
           collect(CASE WHEN node.namespace = $namespace THEN {episode: node, score: score} END) AS own2
  }
  WITH CASE WHEN seen2 > 0 THEN 2 WHEN seen1 > 0 THEN 1 ELSE 0 END AS level,
       CASE WHEN seen2 > 0 THEN seen2 WHEN seen1 > 0 THEN seen1 ELSE seen0 END AS seen,
       CASE WHEN seen2 > 0 THEN own2 WHEN seen1 > 0 THEN own1 ELSE own0 END AS own
  CALL (own) {
    UNWIND own AS x
    WITH x.episode AS e, x.score AS score
    // A turn that also gave a fact retired through a value read from its words matched partly
    // on the retired words ("reached 65% coverage" beside "aims at 100%"): its other memories
    // get a share of its score. A retirement through a guessed slot is not sure enough.
    WITH e, score, EXISTS {
      MATCH (s:Memory {namespace: $namespace, status: 'superseded'})-[:DERIVED_FROM]->(e)
      WHERE s.claim_confidence >= $read_confidence
    } AS retired
    MATCH (m:Memory {namespace: $namespace})-[:DERIVED_FROM]->(e)
    WITH m, max(CASE WHEN retired AND m.status <> 'superseded' THEN score * $retired_turn_share
                     ELSE score END) AS score
    ORDER BY score DESC, m.id
    LIMIT $limit
    RETURN collect({id: m.id, score: score}) AS hits
  }
  // Turns no memory stands for: `own` is in score order, so a turn's index is its rank. Any
  // derived memory counts, superseded ones too: a retired fact must not come back as its turn.
  CALL (own) {
    UNWIND range(0, size(own) - 1) AS i
    WITH i, own[i].episode AS e, own[i].score AS score
    WHERE i < $turn_limit AND NOT EXISTS { MATCH (:Memory)-[:DERIVED_FROM]->(e) }
    RETURN collect({kind: 'episode', id: e.id, score: score, rank: i + 1, turn_id: e.turn_id,
                    text: e.text, speaker: e.speaker, session_id: e.session_id,
                    at: e.at.epochSeconds * 1000000 + e.at.microsecond,
                    recorded_at: e.recorded_at.epochSeconds * 1000000 + e.recorded_at.microsecond})
           AS unclaimed
  }
  RETURN CASE WHEN size($episode_windows) > 0 THEN
           {level: level, seen: seen, episodes: size(own), hits: hits + unclaimed} END AS episode
}
RETURN memory, episode
