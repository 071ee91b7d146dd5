"""The state-transitions rules (docs/lifecycle.md) at their exact thresholds, their exemptions,
and the law that makes a second consolidation run a no-op: deciding again after applying a
decision at the same clock decides nothing."""

from __future__ import annotations

from dataclasses import replace
from datetime import UTC, datetime, timedelta

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from kgmem.errors import InvalidInput
from kgmem.lifecycle.consolidation.policy import (
    MAX_CAP,
    STEP_ORDER,
    Caps,
    Policy,
    StepName,
    parse_caps,
    parse_steps,
)
from kgmem.lifecycle.records import MemoryRecord, StatusChange
from kgmem.lifecycle.upkeep.transitions import commitment_resolved_at, decide_status, retention_now
from kgmem.taxonomy import Category, Status, Tier

NOW = datetime(2025, 6, 1, 12, tzinfo=UTC)
DAY = timedelta(days=1)
SEC = timedelta(seconds=1)
POLICY = Policy()


def rec(**kw: object) -> MemoryRecord:
    base: dict[str, object] = {
        "id": "m",
        "category": Category.FACT,
        "status": Status.ACTIVE,
        "tier": Tier.SEMANTIC,
        "created_at": NOW,
        "last_accessed": NOW,
        "verification_state": "user_confirmed",
        "confidence": 0.8,
    }
    base.update(kw)
    return MemoryRecord(**base)  # type: ignore[arg-type]


def age_at(r: float, stability_days: float = 21.0) -> timedelta:
    """The FSRS-6 inverted: the age at which R = (1 + t / 9S)^-2 equals ``r``."""
    return timedelta(days=9 * stability_days * (r**-0.5 - 1))


def new_status(m: MemoryRecord) -> Status | None:
    d = decide_status(m, NOW, POLICY)
    return None if d is None else d.new


# --- the decay chain -------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("r", "before", "after"),
    [(0.3, Status.ACTIVE, Status.STALE), (0.1, Status.STALE, Status.ARCHIVED),
     (0.01, Status.ARCHIVED, Status.DELETED)],
)  # fmt: skip
def test_decay_chain_moves_exactly_where_retention_crosses_its_threshold(
    r: float, before: Status, after: Status
) -> None:
    old = NOW - 3000 * DAY
    ctx = {"category": Category.CONTEXT, "created_at": old}
    just_above = rec(**ctx, status=before, last_accessed=NOW - age_at(r) + SEC, stale_since=NOW)
    just_below = rec(**ctx, status=before, last_accessed=NOW - age_at(r) - SEC, stale_since=NOW)
    assert retention_now(just_above, NOW, POLICY) > r > retention_now(just_below, NOW, POLICY)
    assert new_status(just_above) is None
    assert new_status(just_below) is after


def test_active_goes_straight_to_archived_or_deleted_when_retention_is_that_low() -> None:
    ctx = {"category": Category.CONTEXT, "created_at": NOW - 5000 * DAY}
    assert new_status(rec(**ctx, last_accessed=NOW - age_at(0.1) - DAY)) is Status.ARCHIVED
    assert new_status(rec(**ctx, last_accessed=NOW - age_at(0.01) - DAY)) is Status.DELETED


def test_thirty_days_stale_archives_at_exactly_thirty_days() -> None:
    mid = NOW - age_at(0.2)  # 0.1 < R < 0.3: only the stale clock can archive it
    ctx = {"category": Category.CONTEXT, "status": Status.STALE, "last_accessed": mid,
           "created_at": mid}  # fmt: skip
    assert new_status(rec(**ctx, stale_since=NOW - 30 * DAY)) is Status.ARCHIVED
    assert new_status(rec(**ctx, stale_since=NOW - 30 * DAY + SEC)) is None


def test_a_stale_memory_whose_retention_recovered_is_active_again() -> None:
    m = rec(category=Category.CONTEXT, status=Status.STALE, stale_since=NOW - DAY)
    assert new_status(m) is Status.ACTIVE


@pytest.mark.parametrize(
    "exempt",
    [{"pinned": True}, {"immutable": True}, {"category": Category.PREFERENCE},
     {"category": Category.CORRECTION}, {"category": Category.DECISION}, {"tier": Tier.DORMANT}],
)  # fmt: skip
def test_anchored_protected_and_frozen_memories_never_decay(exempt: dict[str, object]) -> None:
    ancient = NOW - 20_000 * DAY
    m = rec(**{"category": Category.CONTEXT, "created_at": ancient, "last_accessed": ancient,
               "frozen_at": ancient, **exempt})  # fmt: skip
    assert new_status(m) is None


def test_minimum_retention_keeps_a_young_memory_from_being_archived() -> None:
    # kgmem keeps every memory at least 7 days; an auto-extracted working ephemeral memory
    # (3 days ÷ 10 ÷ 3) is down to R ≈ 0.02 after 6 days, but may only go stale
    young = {"category": Category.EPHEMERAL, "tier": Tier.WORKING, "source": "ingest",
             "created_at": NOW - 6 * DAY, "last_accessed": NOW - 6 * DAY}  # fmt: skip
    assert retention_now(rec(**young), NOW, POLICY) < 0.1
    assert new_status(rec(**young)) is Status.STALE
    old = {**young, "created_at": NOW - 7 * DAY}
    assert new_status(rec(**old)) is Status.ARCHIVED


# --- purge, expiries, archival -------------------------------------------------------------------


def test_soft_deleted_memories_are_purged_after_the_retention_period() -> None:
    gone = decide_status(rec(status=Status.DELETED, deleted_at=NOW - 90 * DAY), NOW, POLICY)
    assert gone is not None and gone.new is None and gone.rule == "purge"
    assert new_status(rec(status=Status.DELETED, deleted_at=NOW - 90 * DAY + SEC)) is None
    # even a pinned memory, once deleted, is purged: deletion was explicit
    pinned = rec(status=Status.DELETED, deleted_at=NOW - 100 * DAY, pinned=True)
    assert decide_status(pinned, NOW, POLICY) is not None
    assert decide_status(rec(status=Status.DELETED, deleted_at=NOW), NOW, Policy(
        purge_after_days=0.5)) is None  # fmt: skip


def test_speculative_memories_expire_after_thirty_unconfirmed_days() -> None:
    spec = {"confidence": 0.39, "verification_state": "unverified"}
    assert new_status(rec(**spec, created_at=NOW - 30 * DAY)) is Status.DELETED
    assert new_status(rec(**spec, created_at=NOW - 30 * DAY + SEC)) is None
    assert new_status(rec(**{**spec, "confidence": 0.40}, created_at=NOW - 30 * DAY)) is None
    # a later extraction confirmed it: the clock restarts
    assert new_status(rec(**spec, created_at=NOW - 60 * DAY,
                          last_reinforced_at=NOW - 29 * DAY)) is None  # fmt: skip
    assert new_status(rec(confidence=0.39, created_at=NOW - 60 * DAY)) is None  # user-confirmed
    assert new_status(rec(**spec, created_at=NOW - 60 * DAY, pinned=True)) is None


def test_foresight_expires_when_valid_until_passes() -> None:
    assert new_status(rec(valid_until=NOW)) is Status.SUPERSEDED
    assert new_status(rec(valid_until=NOW + SEC)) is None
    assert new_status(rec(valid_until=NOW - DAY, status=Status.ARCHIVED)) is None


def test_resolved_commitments_decay_after_ninety_days_open_ones_never() -> None:
    c = {"category": Category.COMMITMENT, "created_at": NOW - 400 * DAY}
    assert new_status(rec(**c, valid_until=NOW - 90 * DAY)) is Status.DELETED
    assert new_status(rec(**c, valid_until=NOW - 90 * DAY + SEC)) is Status.SUPERSEDED
    assert new_status(rec(**c, resolved_at=NOW - 90 * DAY)) is Status.DELETED
    assert new_status(rec(**c, resolved_at=NOW - 89 * DAY)) is None
    tagged = rec(**c, tags=("Fulfilled",), modified_at=NOW - 91 * DAY)
    assert new_status(tagged) is Status.DELETED
    assert new_status(rec(**c)) is None
    superseded = rec(**c, status=Status.SUPERSEDED, valid_until=NOW - 100 * DAY)
    assert new_status(superseded) is Status.DELETED
    merged = rec(**c, status=Status.MERGED, valid_until=NOW - 100 * DAY)
    assert new_status(merged) is None  # its undo needs it
    assert commitment_resolved_at(rec(valid_until=NOW - DAY), NOW) is None  # not a commitment


def test_fact_archival_follows_seed_000s_rule() -> None:
    ok = {"importance": 0.29, "access_count": 2, "created_at": NOW - 90 * DAY - SEC}
    assert new_status(rec(**ok)) is Status.ARCHIVED
    assert new_status(rec(**{**ok, "created_at": NOW - 90 * DAY})) is None  # "age > 90 days"
    assert new_status(rec(**{**ok, "importance": 0.3})) is None
    assert new_status(rec(**{**ok, "access_count": 3})) is None
    for protected in (Category.COMMITMENT, Category.PREFERENCE, Category.DECISION,
                      Category.PRINCIPLE, Category.CORRECTION):  # fmt: skip
        assert new_status(rec(**ok, category=protected)) is None
    assert new_status(rec(**ok, status=Status.ARCHIVED)) is None
    assert decide_status(rec(**ok), NOW, Policy(fact_archival=False)) is None


# --- idempotence --------------------------------------------------------------------------------


def applied(m: MemoryRecord, change: StatusChange) -> MemoryRecord:
    """``m`` as the write query leaves it."""
    assert change.new is not None
    extra: dict[str, object] = {"status": change.new, "modified_at": NOW}
    if change.new is Status.STALE:
        extra["stale_since"] = NOW
    if change.new is Status.DELETED:
        extra["deleted_at"] = NOW
    return replace(m, **extra)  # type: ignore[arg-type]


ages = st.integers(min_value=0, max_value=4000).map(lambda d: timedelta(days=d))


@settings(max_examples=300, deadline=None)
@given(
    category=st.sampled_from(list(Category)),
    status=st.sampled_from(list(Status)),
    tier=st.sampled_from(list(Tier)),
    created=ages,
    idle=ages,
    stale=ages,
    access=st.integers(0, 20),
    confidence=st.floats(0, 1),
    importance=st.floats(0, 1),
    until=st.none() | st.integers(-400, 400).map(lambda d: NOW + timedelta(days=d)),
    source=st.sampled_from(["human", "agent", "ingest"]),
    pinned=st.booleans(),
    verified=st.sampled_from(["user_confirmed", "unverified"]),
)
def test_deciding_again_after_applying_a_decision_decides_nothing(
    category: Category,
    status: Status,
    tier: Tier,
    created: timedelta,
    idle: timedelta,
    stale: timedelta,
    access: int,
    confidence: float,
    importance: float,
    until: datetime | None,
    source: str,
    pinned: bool,
    verified: str,
) -> None:
    m = rec(
        category=category,
        status=status,
        tier=tier,
        created_at=NOW - created - idle,
        last_accessed=NOW - idle,
        frozen_at=NOW - idle if tier is Tier.DORMANT else None,
        stale_since=NOW - stale,
        deleted_at=NOW - stale,
        access_count=access,
        confidence=confidence,
        importance=importance,
        valid_until=until,
        source=source,
        pinned=pinned,
        verification_state=verified,
    )
    change = decide_status(m, NOW, POLICY)
    if change is None or change.new is None:
        return
    assert change.old is m.status and change.new is not m.status
    assert decide_status(applied(m, change), NOW, POLICY) is None


# --- the public vocabulary: steps and caps ------------------------------------------------------


def test_steps_parse_to_the_canonical_order() -> None:
    assert parse_steps(None) == STEP_ORDER == parse_steps("all")
    assert parse_steps(["topics", "TIERS", "tiers"]) == (StepName.TIERS, StepName.TOPICS)
    assert parse_steps("centrality") == (StepName.CENTRALITY,)
    assert STEP_ORDER[0] is StepName.REHEARSAL and STEP_ORDER[-1] is StepName.CENTRALITY


@pytest.mark.parametrize("bad", [["bogus"], [], [1], 5, ["tiers", None]])
def test_unknown_or_empty_steps_are_refused(bad: object) -> None:
    with pytest.raises(InvalidInput):
        parse_steps(bad)


def test_caps_override_defaults_and_refuse_bad_values() -> None:
    assert parse_caps(None) == Caps()
    assert parse_caps({"rehearsal": 7}, Caps(batch=100)) == Caps(batch=100, rehearsal=7)
    for bad in ({"batch": 0}, {"batch": -3}, {"batch": MAX_CAP + 1}, {"batch": 2.5},
                {"batch": True}, {"unknown": 1}, [("batch", 3)]):  # fmt: skip
        with pytest.raises(InvalidInput):
            parse_caps(bad)
