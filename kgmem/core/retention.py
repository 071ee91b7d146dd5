"""Retention computed from timestamps at read time (docs/lifecycle.md).

Contract: pure functions over plain values and :class:`RetentionInput` records; no clock, no I/O.
``effective_stability`` is the memory's stability in days: the per-category base stability ×
(1 + ln(1 + access_count) × 0.5) × the memory's own stability multiplier, divided by the tier
decay multiplier (dormant is frozen: infinite stability) and by 3 for auto-extracted memories (the
trust-weighted decay). ``fsrs_retention`` is the FSRS-6 power law R = (1 +
t/(9S))^(-1/0.5) and ``exp_retention`` the e^(-t/S); both are 1 at t = 0, stay in (0, 1] and
never rise with t. ``retention`` applies one of them to a record, measuring t from its last access
(or creation) and stopping the clock when the memory went dormant, then applies the retention
regularisation (``l2`` | ``huber`` | ``elastic``, see ``regularise_retention``). The state it
implies (the decay chain) is :mod:`kgmem.lifecycle.upkeep.decay_state`. Bad input (NaN, negative
counts, naive datetimes, unknown categories) raises ``InvalidInput``. The kind-specific decay
is an epoch-based *importance* decay run by consolidation, not a retention curve, so it is not here.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from datetime import datetime
from typing import Literal, get_args

from kgmem.core.trust import source_trust
from kgmem.core.validation import check_aware, check_count, check_number, check_unit
from kgmem.errors import InvalidInput
from kgmem.taxonomy import DEFAULT_TIER, Category, Tier
from kgmem.taxonomy.lifecycle_tables import (
    BASE_STABILITY_DAYS,
    TIER_DECAY_MULTIPLIER,
)
from kgmem.taxonomy.parsing import parse_enum

RetentionModel = Literal["fsrs", "exp"]
Regularisation = Literal["l2", "huber", "elastic"]
RETENTION_MODELS: tuple[RetentionModel, ...] = get_args(RetentionModel)
REGULARISATIONS: tuple[Regularisation, ...] = get_args(Regularisation)
DEFAULT_RETENTION_MODEL: RetentionModel = "fsrs"  # docs/lifecycle.md: FSRS-6 power law
# kgmem defaults to huber because its base curve is exponential and huber fattens that curve's
# tail. kgmem's base curve is FSRS-6's power law, whose tail is already heavier than any
# exponential; huber on top would fatten it twice and move the state thresholds. So the
# default is l2, the identity (the base curve as is); huber and elastic are opt-in settings.
DEFAULT_REGULARISATION: Regularisation = "l2"

# effective_stability = base × (1 + ln(1 + access_count) × 0.5).
ACCESS_STABILITY_WEIGHT = 0.5
# The FSRS-6 curve: R = (1 + t / (FSRS_FACTOR × S)) ^ (-1 / FSRS_DECAY).
FSRS_FACTOR = 9.0
FSRS_DECAY = 0.5
# "auto-extracted: 3x faster decay" than human-authored memories.
AUTO_EXTRACTED_DECAY = 3.0
HUMAN_TRUST = 1.0
# kgmem demotes semantic -> dormant; a dormant memory's pre-freeze stretch decays at that rate.
DORMANT_FROM_TIER = Tier.SEMANTIC
HUBER_DELTA = 1.0  # root-loss where huber turns linear: at R = e^-1, the e-folding point
ELASTIC_THRESHOLD = 0.05  # L1 soft threshold: retention below 5% becomes exactly 0
_DAY_S = 86_400.0


def days_between(start: datetime, end: datetime) -> float:
    """Days from ``start`` to ``end``, never negative: a timestamp ahead of ``end`` (clock skew
    between writers) counts as no time, so it can never raise retention above 1."""
    seconds = (check_aware(end, what="end") - check_aware(start, what="start")).total_seconds()
    return max(0.0, seconds / _DAY_S)


def known_since(event_at: datetime | None, recorded_at: datetime | None) -> datetime:
    """When kgmem came to know a memory: its transaction time (``recorded_at``, when it was
    stored), not the event time it describes (``created_at``, when the turn was said).

    Decay and archival count the time kgmem has known and used a memory, so a conversation from
    years ago that is imported today starts fresh instead of looking abandoned on day one. A
    memory stored before ``recorded_at`` was written falls back to its event time.
    """
    if recorded_at is not None:
        return check_aware(recorded_at, what="recorded_at")
    if event_at is None:
        raise InvalidInput("a memory needs recorded_at or created_at to have an age")
    return check_aware(event_at, what="created_at")


def is_auto_extracted(source: str) -> bool:
    """Whether the 3× trust-weighted decay applies to a memory from ``source``.

    kgmem splits memories into human-authored (full half-life) and auto-extracted (3× faster).
    kgmem records who authored the content in ``source`` with the trust scale (human 1.0,
    agent 0.7, ingest 0.5; aliases and unknown sources resolve through ``source_trust``). Only
    full trust is human-authored: ``agent`` memories were written by a model (LLM extraction,
    consolidation, dream synthesis) and ``ingest`` ones by bulk import, observers or replay, so
    both are auto-extracted. An observed user turn is stored with source ``human`` (the words are
    the user's), so it keeps the full half-life.
    """
    return source_trust(source) < HUMAN_TRUST


def effective_stability(
    category: Category | str,
    access_count: int,
    *,
    stability_multiplier: float = 1.0,
    tier: Tier | str = Tier.SEMANTIC,
    source: str = "human",
    pinned: bool = False,
) -> float:
    """Stability in days; ``math.inf`` for a dormant (frozen) memory.

    The defaults (semantic tier, human source) make this exactly the formula. A pinned
    memory still decays (kgmem pins flashbulb memories *and* boosts their stability, so pinning
    does not stop decay) but never faster than human-authored semantic knowledge: the working and
    episodic accelerations and the auto-extracted penalty do not apply to it.
    """
    cat = parse_enum(Category, category, "category")
    tier_ = parse_enum(Tier, tier, "tier")
    count = check_count(access_count, what="access_count")
    mult = check_number(stability_multiplier, what="stability_multiplier")
    if not mult > 0.0:
        raise InvalidInput(f"stability_multiplier must be positive, got {mult}")
    decay = TIER_DECAY_MULTIPLIER[tier_]
    if decay == 0.0:  # dormant = "no decay, frozen in cold storage"
        return math.inf
    if pinned:
        decay = min(decay, TIER_DECAY_MULTIPLIER[Tier.SEMANTIC])
    elif is_auto_extracted(source):
        decay *= AUTO_EXTRACTED_DECAY
    access_factor = 1.0 + math.log1p(count) * ACCESS_STABILITY_WEIGHT
    return BASE_STABILITY_DAYS[cat] * access_factor * mult / decay


def _curve_args(t_days: float, stability_days: float) -> tuple[float, float]:
    # negative elapsed time = clock skew = no time
    t = max(0.0, check_number(t_days, what="t_days"))
    s = check_number(stability_days, what="stability_days")
    if not s > 0.0:
        raise InvalidInput(f"stability_days must be positive, got {s}")
    return t, s


def fsrs_retention(t_days: float, stability_days: float) -> float:
    """The FSRS-6 power law (1 + t/(9S))^-2: 1 at t = 0, in (0, 1], never rising in t."""
    t, s = _curve_args(t_days, stability_days)
    if math.isinf(s):  # frozen: no decay at all
        return 1.0
    base = 1.0 + t / (FSRS_FACTOR * s)
    # the exponent -1/0.5 is -2; 1/(b·b) rounds monotonically in b, pow() need not.
    # The ulp floor keeps R > 0 where the float would underflow (t/S beyond ~1e154).
    return max(math.ulp(0.0), 1.0 / (base * base))


def exp_retention(t_days: float, stability_days: float) -> float:
    """The Ebbinghaus curve e^(-t/S) (S is an e-folding time: R(S) ≈ 0.37), in (0, 1]."""
    t, s = _curve_args(t_days, stability_days)
    if math.isinf(s):
        return 1.0
    return max(math.ulp(0.0), math.exp(-t / s))


def regularise_retention(
    retention: float,
    mode: Regularisation = DEFAULT_REGULARISATION,
    *,
    huber_delta: float = HUBER_DELTA,
    elastic_threshold: float = ELASTIC_THRESHOLD,
) -> float:
    """The retention regularisation, applied to a retention estimate in [0, 1].

    Reading: each mode is a penalty on forgetting. Let ℓ = −ln R be the forgetting loss
    a curve has accumulated; the classic Ebbinghaus exponent ℓ = t/S is the *square* of the root
    residual u = √ℓ, so plain L2 is the base curve itself (``l2`` = identity). ``huber`` keeps
    u² while u ≤ δ ("matches L2 near-term") and switches to Huber's linear 2δu − δ² beyond
    ("linear for old memories"): a long quiet spell after a burst of use costs √-growth instead of
    linear growth in ℓ, so such memories fade more slowly. ``elastic`` adds an L1 term to L2's
    smooth decay; its proximal step is a soft threshold τ, renormalised so a just-accessed memory
    stays at 1: R' = max(0, R − τ)/(1 − τ). Weak memories (R < τ) drop to exactly 0 ("sparse")
    while strong ones barely move. Every mode maps 1 to 1 and is non-decreasing in R, so none can
    make retention rise with time. The access reinforcement (log-scaled, capped) is
    already kgmem's ln(1 + access_count) stability factor, so it is not added a second time.
    """
    r = check_unit(retention, what="retention")
    if mode == "l2":
        return r
    if mode == "huber":
        delta = check_number(huber_delta, what="huber_delta")
        if not delta > 0.0:
            raise InvalidInput(f"huber_delta must be positive, got {delta}")
        if r == 0.0:
            return 0.0
        loss = -math.log(r)
        d2 = delta * delta
        robust = loss if loss <= d2 else 2.0 * delta * math.sqrt(loss) - d2
        return min(1.0, math.exp(-robust))
    if mode == "elastic":
        tau = check_number(elastic_threshold, what="elastic_threshold")
        if not 0.0 <= tau < 1.0:
            raise InvalidInput(f"elastic_threshold must be in [0, 1), got {tau}")
        return max(0.0, r - tau) / (1.0 - tau)
    raise InvalidInput(f"unknown retention regularisation {mode!r}; expected: l2, huber, elastic")


@dataclass(frozen=True)
class RetentionInput:
    """What retention needs from a stored memory (the :Memory properties of the same names).

    ``stability`` is kgmem's per-memory stability multiplier (1.0 at write, boosted by flashbulb,
    capture, reinforcement, access and rehearsal). ``frozen_at`` is when the memory entered the
    dormant tier; a dormant memory without it is taken to have frozen at its last access.
    """

    category: Category | str
    created_at: datetime
    last_accessed: datetime | None = None
    access_count: int = 0
    stability: float = 1.0
    tier: Tier | str = DEFAULT_TIER
    source: str = "human"
    pinned: bool = False
    frozen_at: datetime | None = None


def elapsed_days(memory: RetentionInput, now: datetime) -> float:
    """Days of decay since the last access (or creation); a dormant memory's clock stopped when it
    froze, so later time does not count (dormant = frozen)."""
    anchor = check_aware(memory.created_at, what="created_at")
    if memory.last_accessed is not None:  # the later one: bad data must not add decay
        anchor = max(anchor, check_aware(memory.last_accessed, what="last_accessed"))
    end = check_aware(now, what="now")
    if parse_enum(Tier, memory.tier, "tier") is Tier.DORMANT:
        frozen = memory.frozen_at
        end = min(end, anchor if frozen is None else check_aware(frozen, what="frozen_at"))
    return days_between(anchor, end)


def retention(
    memory: RetentionInput,
    now: datetime,
    mode: RetentionModel = DEFAULT_RETENTION_MODEL,
    *,
    regularisation: Regularisation = DEFAULT_REGULARISATION,
) -> float:
    """The memory's retention at ``now`` under ``mode`` (fsrs | exp), then ``regularisation``."""
    tier = parse_enum(Tier, memory.tier, "tier")
    stability = effective_stability(
        memory.category,
        memory.access_count,
        stability_multiplier=memory.stability,
        tier=DORMANT_FROM_TIER if tier is Tier.DORMANT else tier,
        source=memory.source,
        pinned=memory.pinned,
    )
    t = elapsed_days(memory, now)
    if mode == "fsrs":
        r = fsrs_retention(t, stability)
    elif mode == "exp":
        r = exp_retention(t, stability)
    else:
        raise InvalidInput(f"unknown retention model {mode!r}; expected one of: fsrs, exp")
    return regularise_retention(r, regularisation)
