"""Episode hits, the pure part: which unclaimed turns qualify and where they enter the hits."""

from __future__ import annotations

from datetime import UTC, datetime

from hypothesis import given
from hypothesis import strategies as st

from kgmem.graph.rows import ScoredId, TurnRow, episode_search_hits
from kgmem.recall.episode_hits import (
    MAX_TURN_HITS,
    MAX_TURN_RANK,
    TurnMatch,
    eligible,
    kept_memories,
    place,
    topic_words,
    unclaimed_turns,
    wanted,
)
from kgmem.recall.options import RecallOptions
from kgmem.recall.request import build_request

AT = datetime(2024, 5, 1, 10, tzinfo=UTC)


def _turn(rank: int, eid: str = "", turn: str | None = None, at: datetime = AT) -> TurnMatch:
    return TurnMatch(eid or f"e{rank}", turn, "Any bakeries?", "Maya", "s", at, rank, 2.0)


def test_unclaimed_turns_reads_only_the_tagged_rows_best_first() -> None:
    micros = int((AT - datetime(1970, 1, 1, tzinfo=UTC)).total_seconds() * 1_000_000)
    rows = [
        {"id": "m1", "score": 3.0},  # a memory row of the episode channel
        {"kind": "episode", "id": "e2", "score": 1.0, "rank": 2, "turn_id": "3:1",
         "text": "Any good bakeries?", "speaker": "Maya", "session_id": "s", "at": micros,
         "recorded_at": micros},
        {"kind": "episode", "id": "e1", "score": 2.0, "rank": 1, "turn_id": None,
         "text": "How are you?", "speaker": None, "session_id": None, "at": None,
         "recorded_at": None},
    ]  # fmt: skip
    hits = episode_search_hits(rows)  # the gateway's records of the episode search's rows
    assert hits[0] == ScoredId("m1", 3.0)
    turns = unclaimed_turns([h for h in hits if isinstance(h, TurnRow)])
    assert [t.episode_id for t in turns] == ["e1", "e2"]
    assert turns[1].at == AT == turns[1].recorded_at and turns[1].turn_id == "3:1"
    assert turns[1].content == "Maya: Any good bakeries?"
    assert turns[0].content == "How are you?" and turns[0].at is None


def test_eligible_keeps_the_best_matching_turn_if_uncited_and_said_by_as_of() -> None:
    best, second = _turn(MAX_TURN_RANK, turn="1:1"), _turn(MAX_TURN_RANK + 1, turn="1:2")
    assert eligible([best, second], frozenset(), None) == [best]
    assert eligible([best], frozenset({"1:1"}), None) == []  # a memory hit stands for it
    assert eligible([best], frozenset({best.episode_id}), None) == []
    late = _turn(1, turn="2:1", at=datetime(2025, 1, 1, tzinfo=UTC))
    assert eligible([late], frozenset(), as_of=datetime(2024, 12, 1, tzinfo=UTC)) == []


def test_a_turn_that_shares_only_a_name_with_the_query_is_not_a_hit() -> None:
    greeting = TurnMatch("e1", "1:2", "Welcome back, Maya. How are you?", "Sam", "s", AT, 1, 2.0)
    assert topic_words("What does Maya do for a living?") == frozenset({"livin"})
    assert (
        eligible([greeting], frozenset(), None, topic_words("What does Maya do for a living?"))
        == []
    )
    bakery = _turn(1, turn="3:1")  # "Any bakeries?"
    assert eligible([bakery], frozenset(), None, topic_words("Which bakery did Maya like?")) == [
        bakery
    ]
    assert eligible([bakery], frozenset(), None, topic_words("Where is Maya?")) == []  # names only


def test_a_turn_takes_the_last_place_and_pushes_the_lowest_memory_out() -> None:
    memories = [f"m{i}" for i in range(10)]
    order = place(memories, [_turn(1), _turn(2)], limit=10)
    assert order[:9] == memories[:9]
    assert order[9] == _turn(1)  # m9 is pushed past the limit, one turn at most


def test_with_few_memories_the_turn_comes_after_all_of_them() -> None:
    order = place(["m0", "m1"], [_turn(1)], limit=10)
    assert order == ["m0", "m1", _turn(1)]
    assert place([], [_turn(1)], limit=3) == [_turn(1)]
    assert place(["m0"], [_turn(1)], limit=1) == ["m0"]  # the best memory is never displaced


def test_only_a_plain_recall_takes_episode_hits() -> None:
    assert wanted(build_request("bakeries?", "ns"))
    assert not wanted(build_request("bakeries?", "ns", RecallOptions.parse(episode_hits=False)))
    assert not wanted(build_request("bakeries?", "ns", RecallOptions.parse(categories=["fact"])))
    assert not wanted(build_request("bakeries?", "ns", RecallOptions.parse(min_confidence=0.5)))
    assert not wanted(build_request("bakeries?", "ns", RecallOptions.parse(mode="facts_only")))
    assert wanted(build_request("bakeries?", "ns", RecallOptions.parse(as_of=AT)))


@given(
    n_memories=st.integers(0, 40),
    n_turns=st.integers(0, 6),
    limit=st.integers(1, 40),
)
def test_placement_never_displaces_the_best_memories(
    n_memories: int, n_turns: int, limit: int
) -> None:
    memories = [f"m{i}" for i in range(min(n_memories, limit))]
    turns = [_turn(r + 1) for r in range(n_turns)]
    order = place(memories, turns, limit)
    assert len(order) <= limit
    kept = [x for x in order if isinstance(x, str)]
    added = [x for x in order if isinstance(x, TurnMatch)]
    assert kept == memories[: len(kept)]  # memories keep their order, only the tail goes
    assert len(kept) >= min(len(memories), kept_memories(limit))
    assert len(added) <= MAX_TURN_HITS
    if not turns:
        assert order == memories


def test_as_of_is_bi_temporal_for_turns_too() -> None:
    later = datetime(2026, 1, 1, tzinfo=UTC)
    told_late = TurnMatch("e1", "1:1", "Any bakeries?", "Maya", "s", AT, 1, 2.0, recorded_at=later)
    assert eligible([told_late], frozenset(), as_of=datetime(2024, 6, 1, tzinfo=UTC)) == []
    assert eligible([told_late], frozenset(), as_of=later) == [told_late]
