"""Retention and strength (docs/lifecycle.md): the FSRS-6 curve and dual strength, the
stability and state thresholds, the trust-weighted decay and regularisation, tier decay,
and the monotonicity laws: time alone never raises retention, access never lowers it."""

from __future__ import annotations

import math
from datetime import UTC, datetime, timedelta

import pytest
from hypothesis import given
from hypothesis import strategies as st

from kgmem.core.retention import (
    REGULARISATIONS,
    RETENTION_MODELS,
    Regularisation,
    RetentionInput,
    RetentionModel,
    effective_stability,
    elapsed_days,
    exp_retention,
    fsrs_retention,
    is_auto_extracted,
    regularise_retention,
    retention,
)
from kgmem.core.strength import (
    MAX_STABILITY_MULTIPLIER,
    DualStrength,
    after_access,
    coactivation_boost,
    needs_rehearsal,
    neighbour_boost,
    on_access,
    rehearse,
    retrieval_at,
    utility_drift,
    utility_update,
)
from kgmem.errors import InvalidInput
from kgmem.lifecycle.upkeep.decay_state import StateThresholds, state_for
from kgmem.taxonomy import Category, Status, Tier
from kgmem.taxonomy.lifecycle_tables import BASE_STABILITY_DAYS

T0 = datetime(2025, 1, 1, tzinfo=UTC)
unit = st.floats(min_value=0.0, max_value=1.0, allow_nan=False)
days = st.floats(min_value=0.0, max_value=20_000.0, allow_nan=False)
counts = st.integers(min_value=0, max_value=10_000)
mults = st.floats(min_value=0.01, max_value=MAX_STABILITY_MULTIPLIER, allow_nan=False)
live_tiers = st.sampled_from([t for t in Tier if t is not Tier.DORMANT])
sources = st.sampled_from(["human", "agent", "ingest", "user", "extraction", "mystery"])
models = st.sampled_from(RETENTION_MODELS)
regs = st.sampled_from(REGULARISATIONS)


@st.composite
def memories(draw: st.DrawFn, tier: st.SearchStrategy[Tier] = live_tiers) -> RetentionInput:
    accessed = draw(st.one_of(st.none(), days))
    return RetentionInput(
        category=draw(st.sampled_from(Category)),
        created_at=T0,
        last_accessed=None if accessed is None else T0 + timedelta(days=accessed),
        access_count=draw(counts),
        stability=draw(mults),
        tier=draw(tier),
        source=draw(sources),
        pinned=draw(st.booleans()),
    )


# --- curves ----------------------------------------------------------------------------------


def test_fsrs_is_seed_004s_power_law() -> None:
    assert fsrs_retention(0.0, 5.0) == 1.0
    assert fsrs_retention(9.0, 1.0) == pytest.approx(0.25)  # (1 + 1)^-2
    assert fsrs_retention(45.0, 5.0) == pytest.approx(2.0**-2)
    assert exp_retention(0.0, 5.0) == 1.0
    assert exp_retention(5.0, 5.0) == pytest.approx(math.exp(-1))
    # the worked example: identity, 10 accesses, 200 days -> 0.78 and still active
    s = effective_stability(Category.IDENTITY, 10)
    assert s == pytest.approx(365 * (1 + math.log(11) * 0.5))
    assert exp_retention(200, s) == pytest.approx(0.78, abs=0.005)


@given(t1=days, t2=days, s=st.floats(min_value=1e-3, max_value=1e6))
def test_curves_stay_in_unit_interval_and_never_rise(t1: float, t2: float, s: float) -> None:
    lo, hi = sorted((t1, t2))
    for curve in (fsrs_retention, exp_retention):
        assert 0.0 < curve(hi, s) <= curve(lo, s) <= 1.0


def test_negative_elapsed_time_counts_as_none_and_bad_input_raises() -> None:
    assert fsrs_retention(-3.0, 2.0) == 1.0
    assert fsrs_retention(1e300, 1e-300) > 0.0
    for bad in ((math.nan, 1.0), (1.0, 0.0), (1.0, -1.0), (1.0, math.nan)):
        with pytest.raises(InvalidInput):
            fsrs_retention(*bad)


# --- effective stability --------------------------------------------------------------------


@given(cat=st.sampled_from(Category), n1=counts, n2=counts, m=mults, tier=live_tiers, src=sources)
def test_more_accesses_never_lower_effective_stability(
    cat: Category, n1: int, n2: int, m: float, tier: Tier, src: str
) -> None:
    lo, hi = sorted((n1, n2))

    def s(n: int) -> float:
        return effective_stability(cat, n, stability_multiplier=m, tier=tier, source=src)

    assert s(lo) <= s(hi)


@given(cat=st.sampled_from(Category), n=counts, m=mults, t=st.floats(0.001, 5_000))
def test_working_decays_fastest_then_episodic_then_semantic(
    cat: Category, n: int, m: float, t: float
) -> None:
    s = {tier: effective_stability(cat, n, stability_multiplier=m, tier=tier) for tier in Tier}
    assert s[Tier.WORKING] < s[Tier.EPISODIC] < s[Tier.SEMANTIC] == s[Tier.CORE]
    assert s[Tier.WORKING] * 10 == pytest.approx(s[Tier.SEMANTIC])
    assert s[Tier.EPISODIC] * 3 == pytest.approx(s[Tier.SEMANTIC])
    r = {tier: fsrs_retention(t, s[tier]) for tier in (Tier.WORKING, Tier.EPISODIC, Tier.SEMANTIC)}
    assert r[Tier.WORKING] <= r[Tier.EPISODIC] <= r[Tier.SEMANTIC]


def test_trust_weighted_decay_and_pinning() -> None:
    human = effective_stability(Category.FACT, 0, source="human")
    assert human == BASE_STABILITY_DAYS[Category.FACT]
    assert effective_stability(Category.FACT, 0, source="agent") == pytest.approx(human / 3)
    assert effective_stability(Category.FACT, 0, source="ingest") == pytest.approx(human / 3)
    assert [is_auto_extracted(s) for s in ("human", "user", "agent", "llm", "import", "??")] == [
        False, False, True, True, True, True,
    ]  # fmt: skip
    # pinned: no faster than human-authored semantic, but still decays and keeps its multiplier
    pinned = effective_stability(
        Category.FACT, 0, tier=Tier.WORKING, source="agent", pinned=True, stability_multiplier=1.5
    )
    assert pinned == pytest.approx(human * 1.5)
    assert math.isinf(effective_stability(Category.FACT, 3, tier=Tier.DORMANT))
    for bad in (0.0, -1.0, math.nan):
        with pytest.raises(InvalidInput):
            effective_stability(Category.FACT, 0, stability_multiplier=bad)
    with pytest.raises(InvalidInput):
        effective_stability(Category.FACT, -1)
    with pytest.raises(InvalidInput):
        effective_stability("no-such-category", 0)


# --- retention of a record -------------------------------------------------------------------


@given(mem=memories(), a=days, b=days, mode=models, reg=regs)
def test_retention_never_rises_with_time_alone(
    mem: RetentionInput, a: float, b: float, mode: RetentionModel, reg: Regularisation
) -> None:
    lo, hi = sorted((a, b))
    early = retention(mem, T0 + timedelta(days=lo), mode, regularisation=reg)
    late = retention(mem, T0 + timedelta(days=hi), mode, regularisation=reg)
    assert 0.0 <= late <= early <= 1.0


@given(mem=memories(), wait=days, later=days, mode=models, reg=regs)
def test_an_access_never_lowers_retention_or_stability(
    mem: RetentionInput, wait: float, later: float, mode: RetentionModel, reg: Regularisation
) -> None:
    access_at = (mem.last_accessed or mem.created_at) + timedelta(days=wait)
    r_now = retention(mem, access_at, mode)
    new_mult = after_access(mem.stability, mem.access_count, r_now)
    assert new_mult >= mem.stability
    accessed = RetentionInput(
        category=mem.category,
        created_at=mem.created_at,
        last_accessed=access_at,
        access_count=mem.access_count + 1,
        stability=new_mult,
        tier=mem.tier,
        source=mem.source,
        pinned=mem.pinned,
    )
    for at in (access_at, access_at + timedelta(days=later)):
        before = retention(mem, at, mode, regularisation=reg)
        after = retention(accessed, at, mode, regularisation=reg)
        assert after >= before
    assert retention(accessed, access_at, mode) == 1.0


@given(mem=memories(tier=st.just(Tier.DORMANT)), frozen=days, a=days, b=days)
def test_dormant_memories_are_frozen(
    mem: RetentionInput, frozen: float, a: float, b: float
) -> None:
    anchor = mem.last_accessed or mem.created_at
    frozen_at = anchor + timedelta(days=frozen)
    mem = RetentionInput(**{**mem.__dict__, "frozen_at": frozen_at})
    at_freeze = retention(mem, frozen_at)
    assert retention(mem, frozen_at + timedelta(days=a)) == at_freeze
    assert retention(mem, frozen_at + timedelta(days=b)) == at_freeze
    # and until it froze it decayed like the semantic memory it was
    semantic = RetentionInput(**{**mem.__dict__, "tier": Tier.SEMANTIC, "frozen_at": None})
    assert at_freeze == retention(semantic, frozen_at)


def test_elapsed_time_uses_the_later_anchor_and_rejects_naive_datetimes() -> None:
    mem = RetentionInput(Category.FACT, created_at=T0, last_accessed=T0 + timedelta(days=2))
    assert elapsed_days(mem, T0 + timedelta(days=5)) == pytest.approx(3.0)
    stale_access = RetentionInput(Category.FACT, created_at=T0, last_accessed=T0 - timedelta(1))
    assert elapsed_days(stale_access, T0 + timedelta(days=1)) == pytest.approx(1.0)
    assert retention(mem, T0) == 1.0  # a clock behind the last access is no time
    with pytest.raises(InvalidInput):
        retention(mem, datetime(2025, 2, 1))
    with pytest.raises(InvalidInput):
        retention(mem, T0, "linear")  # type: ignore[arg-type]


# --- regularisation ---------------------------------------------------------------


@given(r1=unit, r2=unit, reg=regs)
def test_regularisation_fixes_1_and_is_monotone(r1: float, r2: float, reg: Regularisation) -> None:
    lo, hi = sorted((r1, r2))
    assert regularise_retention(1.0, reg) == 1.0
    assert 0.0 <= regularise_retention(lo, reg) <= regularise_retention(hi, reg) <= 1.0


@given(r=unit)
def test_huber_keeps_more_and_elastic_keeps_less_than_l2(r: float) -> None:
    assert regularise_retention(r, "l2") == r
    assert regularise_retention(r, "huber") >= r * (1 - 1e-12)
    assert regularise_retention(r, "elastic") <= r


def test_regularisation_shapes() -> None:
    near = math.exp(-0.5)  # inside the huber zone: same as l2
    assert regularise_retention(near, "huber") == pytest.approx(near)
    old = math.exp(-9.0)  # root loss 3 -> 2·3 − 1 = 5
    assert regularise_retention(old, "huber") == pytest.approx(math.exp(-5.0))
    assert regularise_retention(0.04, "elastic") == 0.0  # sparse
    assert regularise_retention(0.9, "elastic") == pytest.approx(0.85 / 0.95)
    with pytest.raises(InvalidInput):
        regularise_retention(0.5, "l1")  # type: ignore[arg-type]
    with pytest.raises(InvalidInput):
        regularise_retention(1.5, "l2")


# --- state thresholds -------------------------------------------------------------


@pytest.mark.parametrize(
    ("r", "stale_days", "status", "expected"),
    [
        (0.3, 0, Status.ACTIVE, Status.ACTIVE),
        (0.2999, 0, Status.ACTIVE, Status.STALE),
        (0.1, 0, Status.ACTIVE, Status.STALE),
        (0.0999, 0, Status.ACTIVE, Status.ARCHIVED),
        (0.01, 0, Status.ACTIVE, Status.ARCHIVED),
        (0.0099, 0, Status.ACTIVE, Status.DELETED),
        (0.2, 29.999, Status.STALE, Status.STALE),
        (0.2, 30, Status.STALE, Status.ARCHIVED),
        (0.5, 30, Status.ACTIVE, Status.ACTIVE),  # days_stale only counts for stale memories
        (0.3, 45, Status.STALE, Status.ACTIVE),  # an access revived it
        (0.9, 0, Status.ARCHIVED, Status.ARCHIVED),  # only an explicit restore brings it back
        (0.0099, 0, Status.ARCHIVED, Status.DELETED),
        (0.9, 0, Status.DELETED, Status.DELETED),
        (0.0, 0, Status.SUPERSEDED, Status.SUPERSEDED),
        (0.0, 0, Status.CHALLENGED, Status.CHALLENGED),
    ],
)
def test_state_thresholds_at_their_boundaries(
    r: float, stale_days: float, status: Status, expected: Status
) -> None:
    assert state_for(r, stale_days, status) is expected


@given(r=unit, stale=days, status=st.sampled_from(Status), cat=st.sampled_from(Category))
def test_exempt_memories_never_move(r: float, stale: float, status: Status, cat: Category) -> None:
    assert state_for(r, stale, status, pinned=True) is status
    assert state_for(r, stale, status, immutable=True) is status
    assert state_for(r, stale, status, category=cat, protected={cat}) is status


def test_protected_categories_minimum_age_and_custom_thresholds() -> None:
    assert state_for(0.0, 0, Status.ACTIVE, category=Category.CORRECTION) is Status.ACTIVE
    assert state_for(0.0, 0, Status.ACTIVE, category=Category.FACT) is Status.DELETED
    # a fact younger than 14 days cannot be archived or deleted, only go stale
    young = state_for(0.0, 0, Status.ACTIVE, category=Category.FACT, age_days=13.9)
    assert young is Status.STALE
    assert state_for(0.0, 0, Status.ACTIVE, category=Category.FACT, age_days=14) is Status.DELETED
    loose = StateThresholds(stale_below=0.5)
    assert state_for(0.4, 0, Status.ACTIVE, thresholds=loose) is Status.STALE
    with pytest.raises(InvalidInput):
        state_for(1.2, 0, Status.ACTIVE)
    with pytest.raises(InvalidInput):
        state_for(0.5, -1, Status.ACTIVE)


# --- strength and boosts ----------------------------------------------------------


@given(m=mults, n=counts, r1=unit, r2=unit)
def test_after_access_is_bounded_monotone_and_spaced(
    m: float, n: int, r1: float, r2: float
) -> None:
    lo, hi = sorted((r1, r2))
    grown_low, grown_high = after_access(m, n, lo), after_access(m, n, hi)
    assert m <= grown_high <= grown_low <= max(m, MAX_STABILITY_MULTIPLIER)
    assert after_access(m, n, 1.0) == m  # massed re-access teaches nothing


def test_after_access_calibration_and_boosts() -> None:
    assert after_access(1.0, 0, 0.9) == pytest.approx(1.105, abs=0.01)
    assert after_access(1.0, 0, 0.3) == pytest.approx(2.01, abs=0.01)
    assert neighbour_boost(2.0) == pytest.approx(2.04)
    assert coactivation_boost(2.0) == pytest.approx(2.04)
    assert rehearse(2.0) == pytest.approx(3.0)
    assert rehearse(MAX_STABILITY_MULTIPLIER) == MAX_STABILITY_MULTIPLIER
    assert rehearse(500.0) == 500.0  # above the cap already: never lowered
    assert needs_rehearsal(0.2999) and not needs_rehearsal(0.3)
    with pytest.raises(InvalidInput):
        after_access(0.0, 0, 0.5)


@given(storage=st.floats(1.0, 10.0), retrieval=unit, gap=days, s=st.floats(0.1, 1e4))
def test_dual_strength(storage: float, retrieval: float, gap: float, s: float) -> None:
    ds = DualStrength(storage, retrieval)
    now = T0 + timedelta(days=gap)
    decayed = retrieval_at(ds, T0, now, s)
    assert 0.0 <= decayed <= ds.retrieval
    after = on_access(ds, now, last_access=T0, stability_days=s)
    assert after.retrieval == 1.0
    assert ds.storage < after.storage <= 10.0 or after.storage == ds.storage == 10.0
    assert on_access(ds, now).storage >= ds.storage
    assert on_access(DualStrength(1.0, 0.0), now).storage == 2.0  # hardest retrieval: +1
    assert on_access(DualStrength(1.0, 1.0), now).storage == 1.5  # easiest: +0.5


def test_dual_strength_ranges() -> None:
    for bad in ((0.5, 1.0), (11.0, 1.0), (5.0, 1.5), (math.nan, 0.5)):
        with pytest.raises(InvalidInput):
            DualStrength(*bad)


# --- utility ----------------------------------------------------------------------


@given(u=unit, d=st.floats(0.0, 1e6))
def test_utility_drift_moves_towards_half_and_never_crosses(u: float, d: float) -> None:
    v = utility_drift(u, d)
    assert abs(v - 0.5) <= abs(u - 0.5)
    assert (u - 0.5) * (v - 0.5) >= 0.0  # same side (or on the prior)
    assert utility_drift(u, 0.0) == u


def test_utility_rules() -> None:
    assert utility_drift(0.9, 10) == pytest.approx(0.9 + 0.1 * -0.4)
    assert utility_drift(0.1, 250) == 0.5  # the raw formula would land at 1.1
    assert utility_update(0.5, True) == pytest.approx(0.55)
    assert utility_update(0.5, False) == pytest.approx(0.45)
    assert utility_update(0.9, False, alpha=0.5) == pytest.approx(0.45)
    with pytest.raises(InvalidInput):
        utility_drift(0.5, -1)
