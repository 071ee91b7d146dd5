"""The MCP tools' answers, built from the service's records without I/O: each recall hit's
"why" names its channels and its strongest factors from the X-ray, the explanation counts every
drop by reason but names only the best few, the observe receipt counts the skip reasons, and the
graph path reads as a chain."""

from __future__ import annotations

from datetime import UTC, datetime

from hypothesis import given
from hypothesis import strategies as st

from kgmem.ingest.reports import ExtractionReport, ObserveReport
from kgmem.mcp.shapes import DROPPED_SHOWN, Explanation, Observed, Recalled
from kgmem.recall.results import RecallHit, RecallResult
from kgmem.recall.xray import ChannelEvidence, Dropped, DropReason, HitExplain, PathStep, Xray
from kgmem.records import TurnSkip, WriteReceipt

WHEN = datetime(2026, 3, 1, tzinfo=UTC)


def _hit(mid: str) -> RecallHit:
    return RecallHit(
        memory_id=mid,
        content=f"memory {mid}",
        score=0.61234,
        category="fact",
        status="active",
        injection="full",
        turn_ids=("t1",),
        valid_from=WHEN,
        valid_until=None,
        channels=(ChannelEvidence("vector", 1, 0.9), ChannelEvidence("fulltext", 3, 4.2)),
    )


def _explain(mid: str) -> HitExplain:
    return HitExplain(
        memory_id=mid,
        content=f"memory {mid}",
        final_score=0.61234,
        contributions={"relevance": 0.5, "recency": 0.02, "importance": 0.2, "penalty": -0.10766},
        path=(
            PathStep("e1", "Entity", "Maya"),
            PathStep(mid, "Memory", "Maya moved", edge_type="MENTIONS", edge_confidence=0.9),
        ),
    )


def test_a_recall_hit_says_why_from_its_channels_and_strongest_factors() -> None:
    result = RecallResult(
        hits=(_hit("m1"), _hit("m2")), xray=Xray(query="q", intent="fact", hits=(_explain("m1"),))
    )
    answer = Recalled.of(result, "ns")
    first, second = answer.hits
    assert first.id == "m1" and first.score == 0.6123 and first.valid_from == WHEN
    assert first.why == (
        "found by vector #1, fulltext #3; strongest factors relevance +0.500, importance +0.200, "
        "penalty -0.108"
    )
    assert second.why == "found by vector #1, fulltext #3"  # not in the X-ray: channels only


@given(st.lists(st.sampled_from(list(DropReason)), max_size=40))
def test_an_explanation_counts_every_drop_and_names_the_best_few(
    reasons: list[DropReason],
) -> None:
    dropped = tuple(Dropped(f"d{i}", "text", r, best_score=i / 100) for i, r in enumerate(reasons))
    x = Xray(query="q", intent="fact", hits=(_explain("m1"),), dropped=dropped)
    answer = Explanation.of(x, "ns")
    assert sum(answer.dropped_by_reason.values()) == len(reasons)
    assert len(answer.dropped) == min(DROPPED_SHOWN, len(reasons))
    scores = [d.best_score or 0.0 for d in answer.dropped]
    assert scores == sorted(scores, reverse=True)
    assert answer.hits[0].path == "Entity(Maya) -[MENTIONS 0.90]-> Memory(Maya moved)"
    assert answer.hits[0].contributions.startswith("relevance +0.500")


def test_the_observe_receipt_lists_what_was_written_and_why_turns_gave_nothing() -> None:
    extraction = ExtractionReport(
        receipts=[WriteReceipt("created", "m1", "new", (), ("Maya",))],
        skips=[TurnSkip("t2", ("too_short",)), TurnSkip("t3", ("too_short", "code_heavy"))],
    )
    report = ObserveReport(
        episode_ids=("e1", "e2", "e3"),
        new_episodes=3,
        trigger="flush",
        extraction=extraction,
        status="extracted",
    )
    answer = Observed.of(report, "ns")
    assert [r.memory_id for r in answer.memories] == ["m1"]
    assert answer.memories[0].entities == ["Maya"]
    assert answer.turns_without_memory == {"too_short": 2, "code_heavy": 1}
    assert answer.status == "extracted" and answer.episode_ids == ["e1", "e2", "e3"]
