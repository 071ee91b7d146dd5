"""The rehearsal, utility drift and synaptic replay, and the contradiction / invalidation
cascade rules: thresholds, caps, order, and that repeating a run adds nothing."""

from __future__ import annotations

from dataclasses import replace
from datetime import UTC, datetime, timedelta

from hypothesis import given
from hypothesis import strategies as st

from kgmem.core.retention import exp_retention, fsrs_retention, regularise_retention
from kgmem.core.strength import needs_rehearsal
from kgmem.lifecycle.consolidation.policy import Policy
from kgmem.lifecycle.contradictions.rules import (
    Contradiction,
    Dependent,
    Side,
    cascade_plan,
    resolve_contradiction,
)
from kgmem.lifecycle.records import MemoryRecord
from kgmem.lifecycle.upkeep.rehearsal import (
    CoActivation,
    Endangered,
    drift,
    endangered,
    endangered_ratio,
    rehearsal_plan,
    replay_plan,
)
from kgmem.taxonomy import Category, Status, Tier

NOW = datetime(2025, 6, 1, 12, tzinfo=UTC)
DAY = timedelta(days=1)
POLICY = Policy()


def rec(**kw: object) -> MemoryRecord:
    base: dict[str, object] = {
        "id": "m",
        "category": Category.FACT,
        "status": Status.ACTIVE,
        "tier": Tier.SEMANTIC,
        "created_at": NOW - 100 * DAY,
        "last_accessed": NOW - 100 * DAY,
    }
    base.update(kw)
    return MemoryRecord(**base)  # type: ignore[arg-type]


# --- rehearsal ---------------------------------------------------------------------------------


def test_only_live_warm_endangered_memories_are_rehearsed_once_a_day() -> None:
    assert endangered(rec(), 0.29, NOW, POLICY)
    assert not endangered(rec(), 0.3, NOW, POLICY)  # R < 0.3
    assert not endangered(rec(tier=Tier.DORMANT), 0.1, NOW, POLICY)
    assert not endangered(rec(status=Status.ARCHIVED), 0.1, NOW, POLICY)
    assert endangered(rec(status=Status.STALE), 0.1, NOW, POLICY)
    assert not endangered(rec(rehearsed_at=NOW - DAY + timedelta(seconds=1)), 0.1, NOW, POLICY)
    assert endangered(rec(rehearsed_at=NOW - DAY), 0.1, NOW, POLICY)


def test_rehearsal_boosts_by_half_the_most_important_first_within_the_cap() -> None:
    due = [
        Endangered("low", 0.2, 0.1, 1.0),
        Endangered("high", 0.9, 0.25, 2.0),
        Endangered("mid-worse", 0.5, 0.05, 1.0),
        Endangered("mid", 0.5, 0.2, 1.0),
    ]
    plan, total = rehearsal_plan(due, 3)
    assert total == 4
    assert [(p.id, p.stability) for p in plan] == [("high", 3.0), ("mid-worse", 1.5), ("mid", 1.5)]


# --- drift --------------------------------------------------------------------------------------


def test_drift_moves_toward_half_per_whole_unused_day() -> None:
    d = drift(rec(utility=0.9, last_accessed=NOW - 10 * DAY - timedelta(hours=5)), NOW)
    assert d is not None and abs(d.utility - 0.86) < 1e-12
    assert d.drifted_at == NOW - timedelta(hours=5)  # the partial day carries over
    assert drift(rec(utility=0.9, last_accessed=NOW - timedelta(hours=23),
                     created_at=NOW - DAY), NOW) is None  # fmt: skip
    assert drift(rec(utility=0.5), NOW) is None
    assert drift(rec(utility=0.1, tier=Tier.DORMANT), NOW) is None
    up = drift(rec(utility=0.1, last_accessed=NOW - 10 * DAY), NOW)
    assert up is not None and abs(up.utility - 0.14) < 1e-12


@given(
    utility=st.floats(0, 1),
    idle_hours=st.integers(0, 24 * 400),
    later_hours=st.integers(0, 24 * 400),
)
def test_drifting_twice_never_drifts_a_day_twice_and_never_crosses_half(
    utility: float, idle_hours: int, later_hours: int
) -> None:
    m = rec(utility=utility, last_accessed=NOW - timedelta(hours=idle_hours),
            created_at=NOW - timedelta(hours=idle_hours))  # fmt: skip
    d = drift(m, NOW)
    if d is None:
        return
    assert min(utility, 0.5) <= d.utility <= max(utility, 0.5)
    moved = replace(m, utility=d.utility, utility_drifted_at=d.drifted_at)
    assert drift(moved, NOW) is None
    later = NOW + timedelta(hours=later_hours)
    again = drift(moved, later)
    if again is not None:
        assert again.drifted_at <= later and again.drifted_at - d.drifted_at >= DAY


# --- synaptic replay ------------------------------------------------------------------------------


def test_replay_strengthens_pairs_seen_together_three_times_once_per_new_count() -> None:
    pairs = [
        CoActivation("a", "b", 3, 0),
        CoActivation("a", "c", 5, 5),  # already replayed at this count
        CoActivation("b", "d", 2, 0),  # below the 3
        CoActivation("c", "d", 4, 3),
    ]
    done, stability = replay_plan(pairs, {"a": 1.0, "b": 2.0, "c": 1.0, "d": 1.0}, 3)
    assert [(p.a, p.b) for p in done] == [("a", "b"), ("c", "d")]
    assert stability == {"a": 1.02, "b": 2.04, "c": 1.02, "d": 1.02}


# --- contradictions and the cascade -------------------------------------------------------------


def side(mid: str, days_ago: int, **kw: object) -> Side:
    return Side(mid, NOW - days_ago * DAY, None, Tier.EPISODIC, **kw)  # type: ignore[arg-type]


def test_the_older_side_of_a_contradiction_goes_dormant_unless_anchored() -> None:
    res = resolve_contradiction(Contradiction("e", side("new", 1), side("old", 9)))
    assert res is not None and (res.older, res.newer, res.demote) == ("old", "new", True)
    # valid_from decides before creation time
    a = Side("a", NOW, NOW - 30 * DAY, Tier.SEMANTIC)
    b = Side("b", NOW - 10 * DAY, None, Tier.SEMANTIC)
    assert resolve_contradiction(Contradiction("e", a, b)).older == "a"  # type: ignore[union-attr]
    assert (
        resolve_contradiction(Contradiction("e", side("n", 1), side("o", 9, pinned=True))) is None
    )
    dormant = Side("o", NOW - 9 * DAY, None, Tier.DORMANT)
    res = resolve_contradiction(Contradiction("e", side("n", 1), dormant))
    assert res is not None and not res.demote  # already dormant: just close the edge


def test_the_cascade_flags_live_dependents_nearest_first_within_the_cap() -> None:
    found = [
        Dependent("c2", Status.ACTIVE, "p", Status.SUPERSEDED, 2),
        Dependent("c1", Status.ACTIVE, "p", Status.SUPERSEDED, 1),
        Dependent("c1", Status.ACTIVE, "q", Status.INVALIDATED, 2),  # farther path: ignored
        Dependent("c3", Status.CHALLENGED, "p", Status.SUPERSEDED, 3),  # already flagged
        Dependent("c4", Status.STALE, "p", Status.SUPERSEDED, 3),
        Dependent("c5", Status.ACTIVE, "r", Status.ACTIVE, 1),  # premise still holds
    ]
    changes, due = cascade_plan(found, 2)
    assert due == 3 and [c.id for c in changes] == ["c1", "c2"]
    assert all(c.new is Status.CHALLENGED and c.related_id == "p" for c in changes)
    assert "2 steps back" in changes[1].reason


# --- the rehearsal filter's bound ---------------------------------------------------------------

POLICIES = [
    Policy(),
    Policy(retention_model="exp"),
    Policy(regularisation="huber"),
    Policy(regularisation="elastic"),
    Policy(retention_model="exp", regularisation="elastic"),
]


@given(
    st.sampled_from(POLICIES),
    st.floats(min_value=0.0, max_value=5_000.0),
    st.floats(min_value=0.01, max_value=5_000.0),
)
def test_no_memory_below_the_endangered_ratio_needs_rehearsal(
    policy: Policy, t_days: float, stability_days: float
) -> None:
    # the server-side filter keeps t/S >= ratio: every endangered memory must pass it
    r = regularise_retention(
        (fsrs_retention if policy.retention_model == "fsrs" else exp_retention)(
            t_days, stability_days
        ),
        policy.regularisation,
    )
    if needs_rehearsal(r):
        assert t_days / stability_days >= endangered_ratio(policy)


@given(st.sampled_from(POLICIES))
def test_the_endangered_ratio_is_tight(policy: Policy) -> None:
    # just above the bound a memory is endangered, at the bound not yet (a useful filter)
    ratio = endangered_ratio(policy)
    curve = fsrs_retention if policy.retention_model == "fsrs" else exp_retention

    def due(x: float) -> bool:
        return needs_rehearsal(regularise_retention(curve(x, 1.0), policy.regularisation))

    assert not due(ratio) and due(ratio * (1 + 1e-6))


def test_the_endangered_ratio_matches_fsrs_at_seed_004s_threshold() -> None:
    # FSRS-6: (1 + x/9)^-2 < 0.3  <=>  x > 9 (0.3^-1/2 - 1)
    assert abs(endangered_ratio(Policy()) - 9 * (0.3**-0.5 - 1)) < 1e-8
