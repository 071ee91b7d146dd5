"""The X-ray records: frozen, additive by construction when built from a composite, JSON-ready."""

from __future__ import annotations

import dataclasses
import json
from datetime import UTC, datetime

import pytest

from kgmem.recall.candidates import Candidate
from kgmem.recall.filters import Filters, apply_filters
from kgmem.recall.profiles import PROFILES, get_mode
from kgmem.recall.scoring import score
from kgmem.recall.xray import (
    ChannelEvidence,
    Dropped,
    DropReason,
    HitExplain,
    PathStep,
    Xray,
    check_additive,
)

NOW = datetime(2025, 6, 1, tzinfo=UTC)


def _hit() -> HitExplain:
    c = Candidate(
        id="m1",
        content="Ann works at Acme.",
        created_at=NOW,
        vector_score=0.9,
        matched_entities=("ann",),
        lifecycle_state="active",
    )
    return HitExplain.from_scored(
        score(c, PROFILES["balanced"], NOW),
        c.content,
        channels=(ChannelEvidence("vector", 1, 0.9),),
        path=(
            PathStep("e1", "Entity", "Ann"),
            PathStep("m1", "Memory", "Ann works at Acme.", "MENTIONS", 0.87),
        ),
        valid_from=NOW,
        episodes=("t1",),
        injection="full",
    )


def test_hit_built_from_a_composite_is_additive() -> None:
    hit = _hit()
    assert hit.memory_id == "m1" and check_additive(hit)
    assert hit.contributions["entity_boost"] == pytest.approx(0.1)
    tampered = dataclasses.replace(hit, final_score=hit.final_score + 0.01)
    assert not check_additive(tampered)


def test_records_are_frozen() -> None:
    with pytest.raises(dataclasses.FrozenInstanceError):
        _hit().final_score = 1.0  # type: ignore[misc]


def test_xray_to_dict_is_json_ready() -> None:
    xray = Xray(
        query="where does Ann work?",
        intent="factual",
        sub_queries=("where does Ann work?",),
        hyde=("Ann works at",),
        hits=(_hit(),),
        dropped=(Dropped("m2", "Ann worked at Initech.", DropReason.SUPERSEDED, "by m1", 0.41),),
        timings={"vector": 3.2, "fusion": 0.1},
        queries_run=("where does Ann work?", "Ann works at"),
    )
    data = json.loads(json.dumps(xray.to_dict()))
    assert data["hits"][0]["path"][1]["edge_confidence"] == 0.87
    assert data["hits"][0]["valid_from"] == NOW.isoformat()
    assert data["dropped"][0]["reason"] == "superseded"
    assert data["timings"] == {"vector": 3.2, "fusion": 0.1}


def test_drop_reasons() -> None:
    assert {r.value for r in DropReason} == {
        "namespace", "status", "validity", "confidence_floor", "mmr", "limit", "superseded",
    }  # fmt: skip


def test_a_superseded_candidate_is_dropped_naming_what_superseded_it() -> None:
    old = Candidate(id="m-oat", content="Maya prefers oat milk.", created_at=NOW,
                    status="superseded", valid_until=NOW)  # fmt: skip
    merged = Candidate(id="m-x", content="Old text.", created_at=NOW, status="merged")
    mode = get_mode("full_context")
    kept, dropped = apply_filters([old, merged], Filters(), mode, NOW, {}, {"m-oat": ("m-almond",)})
    assert not kept
    assert [(d.reason, d.detail) for d in dropped] == [
        (DropReason.SUPERSEDED, "superseded by m-almond"),
        (DropReason.SUPERSEDED, "status merged"),
    ]
    kept, _ = apply_filters([old], Filters(include_superseded=True), mode, NOW, {}, {})
    assert kept == [old]


def test_a_lapsed_memory_answers_when_questions_but_a_superseded_one_stays_out() -> None:
    party = Candidate(id="m-party", content="Nate is hosting a gaming party.", created_at=NOW,
                      valid_until=datetime(2025, 5, 1, tzinfo=UTC))  # fmt: skip
    oat = Candidate(id="m-oat", content="Maya prefers oat milk.", created_at=NOW,
                    status="superseded", valid_until=NOW)  # fmt: skip
    mode = get_mode("full_context")
    kept, dropped = apply_filters([party, oat], Filters(), mode, NOW, {}, {})
    assert not kept and {d.reason for d in dropped} == {DropReason.VALIDITY, DropReason.SUPERSEDED}
    kept, dropped = apply_filters([party, oat], Filters(include_expired=True), mode, NOW, {}, {})
    assert kept == [party] and [d.reason for d in dropped] == [DropReason.SUPERSEDED]
