"""Tier rules (docs/lifecycle.md) at their exact thresholds, their exemptions, the core gate
with its escalating cooldowns, the hot tier and the capacity trim — and that one run reaches the
tier a second run would leave alone."""

from __future__ import annotations

from dataclasses import replace
from datetime import UTC, datetime, timedelta

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from kgmem.lifecycle.records import MemoryRecord
from kgmem.lifecycle.tiers.core_gate import (
    BLOCKED_TAGS,
    GateVerdict,
    cooled_down,
    gate_candidate,
    heuristic_gate,
    heuristic_is_certain,
    parse_llm_verdict,
    reinforcement_score,
)
from kgmem.lifecycle.tiers.rules import (
    decide_tier,
    hot_tier,
    shared_entities,
    tier_after,
    trim_plan,
)
from kgmem.taxonomy import Category, Status, Tier

NOW = datetime(2025, 6, 1, 12, tzinfo=UTC)
DAY = timedelta(days=1)
SEC = timedelta(seconds=1)


def rec(**kw: object) -> MemoryRecord:
    base: dict[str, object] = {
        "id": "m",
        "category": Category.FACT,
        "status": Status.ACTIVE,
        "tier": Tier.EPISODIC,
        "created_at": NOW,
        "last_accessed": NOW,
    }
    base.update(kw)
    return MemoryRecord(**base)  # type: ignore[arg-type]


def tier(m: MemoryRecord, shared: frozenset[str] = frozenset(), epoch: int = 1) -> Tier:
    return tier_after(m, decide_tier(m, NOW, shared, epoch))


def test_working_leaves_after_thirty_minutes_or_two_accesses() -> None:
    assert tier(rec(tier=Tier.WORKING, created_at=NOW - timedelta(minutes=30))) is Tier.EPISODIC
    assert tier(rec(tier=Tier.WORKING, created_at=NOW - timedelta(minutes=30) + SEC)) is (
        Tier.WORKING
    )
    assert tier(rec(tier=Tier.WORKING, access_count=2)) is Tier.EPISODIC
    assert tier(rec(tier=Tier.WORKING, access_count=1)) is Tier.WORKING


def test_episodic_promotes_by_seed_004s_three_rules() -> None:
    assert tier(rec(access_count=3)) is Tier.SEMANTIC
    assert tier(rec(access_count=2)) is Tier.EPISODIC
    useful = {"utility": 0.7, "created_at": NOW - 7 * DAY}
    assert tier(rec(**useful)) is Tier.SEMANTIC
    assert tier(rec(**{**useful, "created_at": NOW - 7 * DAY + SEC})) is Tier.EPISODIC
    assert tier(rec(**{**useful, "utility": 0.69})) is Tier.EPISODIC
    assert tier(rec(entities=("zed",)), frozenset({"zed"})) is Tier.SEMANTIC
    assert tier(rec(entities=("yan",)), frozenset({"zed"})) is Tier.EPISODIC


def test_a_working_memory_can_go_all_the_way_to_semantic_in_one_run() -> None:
    m = rec(tier=Tier.WORKING, access_count=3)
    d = decide_tier(m, NOW, frozenset(), 1)
    assert d.change is not None and d.change.new is Tier.SEMANTIC
    assert "working" in d.change.reason and "accessed 3 times" in d.change.reason


def test_pinned_and_immutable_memories_are_never_promoted() -> None:
    assert tier(rec(access_count=9, pinned=True)) is Tier.EPISODIC
    assert tier(rec(access_count=9, immutable=True)) is Tier.EPISODIC


def test_shared_entities_need_three_episodic_memories() -> None:
    mems = [
        rec(id="a", entities=("zed", "yan")),
        rec(id="b", entities=("zed", "zed")),  # counted once
        rec(id="c", tier=Tier.WORKING, access_count=2, entities=("zed", "yan")),
        rec(id="d", tier=Tier.WORKING, entities=("yan",)),  # stays working: not counted
        rec(id="e", tier=Tier.SEMANTIC, entities=("yan",)),  # not episodic
        rec(id="f", status=Status.ARCHIVED, entities=("yan",)),
    ]
    assert shared_entities(mems, NOW) == frozenset({"zed"})


def test_semantic_goes_dormant_after_sixty_idle_days_at_low_utility() -> None:
    s = {"tier": Tier.SEMANTIC, "created_at": NOW - 100 * DAY, "utility": 0.19}
    assert tier(rec(**s, last_accessed=NOW - 60 * DAY)) is Tier.DORMANT
    assert tier(rec(**s, last_accessed=NOW - 60 * DAY + SEC)) is Tier.SEMANTIC
    assert tier(rec(**{**s, "utility": 0.2}, last_accessed=NOW - 60 * DAY)) is Tier.SEMANTIC
    for anchor in ({"pinned": True}, {"immutable": True}, {"flashbulb": True}):
        assert tier(rec(**s, **anchor, last_accessed=NOW - 99 * DAY)) is Tier.SEMANTIC


def test_a_dormant_memory_accessed_after_it_froze_is_reactivated() -> None:
    assert tier(rec(tier=Tier.DORMANT, frozen_at=NOW - DAY, last_accessed=NOW)) is Tier.SEMANTIC
    assert tier(rec(tier=Tier.DORMANT, frozen_at=NOW, last_accessed=NOW - DAY)) is Tier.DORMANT


def test_only_live_memories_move() -> None:
    for status in (Status.ARCHIVED, Status.MERGED, Status.SUPERSEDED, Status.DELETED):
        assert decide_tier(rec(status=status, access_count=9), NOW, frozenset(), 1).change is None


# --- the core gate -----------------------------------------------------------------


def core_candidate(**kw: object) -> MemoryRecord:
    return rec(**{"tier": Tier.SEMANTIC, "importance": 0.6, "access_count": 3, **kw})


def test_gate_candidates_follow_seed_002s_score_and_importance() -> None:
    assert reinforcement_score(rec(access_count=1, repetition_count=2)) == 3.5
    assert gate_candidate(core_candidate(), NOW, 1)
    assert not gate_candidate(core_candidate(importance=0.59), NOW, 1)
    assert not gate_candidate(core_candidate(access_count=2), NOW, 1)
    assert gate_candidate(core_candidate(access_count=0, repetition_count=3), NOW, 1)  # 5.0
    assert not gate_candidate(core_candidate(access_count=0, repetition_count=2), NOW, 1)  # 2.5
    aged = {"access_count": 1, "created_at": NOW - 7 * DAY - SEC}
    assert gate_candidate(core_candidate(**aged), NOW, 1)
    assert not gate_candidate(core_candidate(**{**aged, "created_at": NOW - 7 * DAY}), NOW, 1)
    for tag in BLOCKED_TAGS:
        assert not gate_candidate(core_candidate(tags=(tag,)), NOW, 1)
    assert not gate_candidate(core_candidate(source="session"), NOW, 1)
    assert not gate_candidate(core_candidate(pinned=True), NOW, 1)


def test_gate_rejection_cooldowns_escalate_48_144_then_never() -> None:
    assert cooled_down(0, None, 0)
    assert not cooled_down(1, 10, 57) and cooled_down(1, 10, 58)
    assert not cooled_down(2, 10, 153) and cooled_down(2, 10, 154)
    assert not cooled_down(3, 10, 10_000)
    m = core_candidate(gate_rejections=1, gate_rejected_epoch=5)
    assert not gate_candidate(m, NOW, 52) and gate_candidate(m, NOW, 53)


@pytest.mark.parametrize(
    ("category", "content", "approve", "label"),
    [
        (Category.IDENTITY, "The user is Dana.", True, "identity"),
        (Category.PREFERENCE, "Dana prefers tabs.", True, "identity"),
        (Category.PRINCIPLE, "Never force-push to main.", True, "constraint"),
        (Category.PRINCIPLE, "For now, deploy from the release branch.", False, "rejected"),
        (Category.IDENTITY, "Dana is temporarily in Oslo.", False, "rejected"),
        (Category.DECISION, "We use Postgres because we need transactions.", True,
         "decision_rationale"),
        (Category.DECISION, "We use Postgres.", False, "rejected"),
        (Category.FACT, "The cluster has 12 nodes.", False, "rejected"),
        (Category.EVENT, "Deployed v2 on Monday.", False, "rejected"),
    ],
)  # fmt: skip
def test_heuristic_gate_admits_only_seed_002s_whitelist(
    category: Category, content: str, approve: bool, label: str
) -> None:
    verdict = heuristic_gate(rec(category=category, content=content))
    assert (verdict.approve, verdict.label) == (approve, label)


def test_a_lesson_tag_is_a_lesson_and_uncertain_refusals_go_to_the_llm() -> None:
    assert heuristic_gate(rec(content="Retry flaky tests once.", tags=("lesson",))).approve
    fact = rec(category=Category.FACT, content="x")
    assert not heuristic_is_certain(fact, heuristic_gate(fact))
    event = rec(category=Category.EVENT, content="x")
    assert heuristic_is_certain(event, heuristic_gate(event))


def test_the_gate_promotes_to_core_or_records_a_refusal() -> None:
    ok = decide_tier(core_candidate(category=Category.IDENTITY), NOW, frozenset(), 1)
    assert ok.change is not None and ok.change.new is Tier.CORE and ok.rejected is None
    no = decide_tier(core_candidate(), NOW, frozenset(), 1)
    assert no.change is None and no.rejected is not None
    llm = GateVerdict(True, "lesson", "llm: learned the hard way")
    yes = decide_tier(core_candidate(), NOW, frozenset(), 1, gate=llm)
    assert yes.change is not None and yes.change.new is Tier.CORE


def test_llm_verdicts_are_checked_against_the_schema() -> None:
    good = parse_llm_verdict({"approve": True, "kind": "lesson", "reason": "learned"})
    assert good == GateVerdict(True, "lesson", "llm: learned")
    for bad in ({"approve": "yes", "kind": "lesson", "reason": ""},
                {"approve": True, "kind": "rejected", "reason": ""},
                {"approve": False, "kind": "other", "reason": ""}, {}):  # fmt: skip
        assert parse_llm_verdict(bad) is None


# --- hot tier and capacity trim ----------------------------------------------------


def test_hot_tier_picks_useful_used_young_semantic_memories_at_most_fifteen() -> None:
    hot = {"tier": Tier.SEMANTIC, "utility": 0.8, "access_count": 10, "created_at": NOW - DAY}
    mems = [rec(id=f"h{i:02d}", **{**hot, "utility": 0.8 + i / 100}) for i in range(20)]
    mems += [
        rec(id="cold-utility", **{**hot, "utility": 0.79}),
        rec(id="cold-access", **{**hot, "access_count": 9}),
        rec(id="cold-old", **{**hot, "created_at": NOW - 30 * DAY}),
        rec(id="cold-episodic", **{**hot, "tier": Tier.EPISODIC}),
    ]
    chosen = hot_tier([(m, m.tier) for m in mems], NOW)
    assert chosen == [f"h{i:02d}" for i in range(19, 4, -1)]


def test_capacity_trim_takes_the_lowest_utility_down_to_the_target_never_anchored() -> None:
    rows = [
        {"id": "pinned", "tier": "episodic", "utility": 0.0, "importance": 0.1, "pinned": True},
        {"id": "core", "tier": "core", "utility": 0.0, "importance": 0.1},
        *({"id": f"m{i}", "tier": "episodic", "utility": i / 10, "importance": 0.5}
          for i in range(6)),
    ]  # fmt: skip
    changes, due = trim_plan(rows, live=12, cap=10, target=9, batch=500)
    assert due == 3 and [c.id for c in changes] == ["m0", "m1", "m2"]
    assert all(c.new is Tier.DORMANT and c.rule == "capacity_trim" for c in changes)
    assert trim_plan(rows, live=10, cap=10, target=9, batch=500) == ([], 0)
    assert len(trim_plan(rows, live=12, cap=10, target=9, batch=2)[0]) == 2
    assert trim_plan(rows, live=12, cap=0, target=0, batch=5) == ([], 0)


# --- one run reaches the fixed point ---------------------------------------------------------


@settings(max_examples=300, deadline=None)
@given(
    tier_=st.sampled_from(list(Tier)),
    age=st.integers(0, 200 * 24 * 60).map(lambda m: timedelta(minutes=m)),
    idle=st.integers(0, 200).map(lambda d: timedelta(days=d)),
    access=st.integers(0, 5),
    utility=st.floats(0, 1),
    importance=st.floats(0, 1),
    category=st.sampled_from(list(Category)),
    pinned=st.booleans(),
    shared=st.booleans(),
)
def test_a_second_decision_after_applying_the_first_changes_nothing(
    tier_: Tier,
    age: timedelta,
    idle: timedelta,
    access: int,
    utility: float,
    importance: float,
    category: Category,
    pinned: bool,
    shared: bool,
) -> None:
    m = rec(
        tier=tier_,
        category=category,
        created_at=NOW - age - idle,
        last_accessed=NOW - idle,
        frozen_at=NOW - idle - DAY if tier_ is Tier.DORMANT else None,
        access_count=access,
        utility=utility,
        importance=importance,
        pinned=pinned,
        entities=("e",),
    )
    pool = frozenset({"e"}) if shared else frozenset()
    d = decide_tier(m, NOW, pool, 1)
    if d.change is None:
        return
    moved = replace(
        m,
        tier=d.change.new,
        frozen_at=NOW if d.change.new is Tier.DORMANT else None,
        gate_rejections=m.gate_rejections + (1 if d.rejected else 0),
        gate_rejected_epoch=1 if d.rejected else m.gate_rejected_epoch,
    )
    again = decide_tier(moved, NOW, pool, 2)
    assert again.change is None
