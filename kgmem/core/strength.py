"""How use changes a memory: dual strength, stability growth on access, boosts, utility.

Contract: pure functions over plain numbers and :class:`DualStrength`; no clock, no I/O; bad input
(NaN, a value outside its range, a naive datetime) raises ``InvalidInput``. The dual
strength keeps storage in [1, 10] (rises with every successful retrieval, never decays) and
retrieval in [0, 1] (FSRS decay, back to 1 on access). ``after_access`` grows the memory's
stability multiplier FSRS-style (a retrieval at low retention grows it more: the spacing effect);
it and every boost here (the 2% neighbour and Hebbian co-activation boosts, ×1.5
rehearsal) never lower the multiplier and never push it past ``MAX_STABILITY_MULTIPLIER``.
``utility_drift`` and ``utility_update`` are the utility rules; drift moves towards the 0.5
prior and never crosses it.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from datetime import datetime

from kgmem.core.retention import days_between, fsrs_retention
from kgmem.core.validation import check_count, check_number, check_unit
from kgmem.errors import InvalidInput

# --- Dual strength (, "Dual Strength Model (v8)") --------------------------------------

STORAGE_MIN, STORAGE_MAX = 1.0, 10.0
# kgmem says storage "increases with each successful retrieval" but not by how much. kgmem adds
# 0.5 for an easy retrieval up to 1.0 for one at retrieval strength 0 (Bjork's desirable
# difficulty, the same spacing effect FSRS uses): 9 to 18 retrievals take storage from 1 to 10.
STORAGE_GAIN_MIN = 0.5
STORAGE_GAIN_DIFFICULTY = 0.5


@dataclass(frozen=True)
class DualStrength:
    """Storage strength in [1, 10] (how deeply encoded) and retrieval strength in [0, 1] (how
    accessible now); high storage with low retrieval is the tip-of-the-tongue state."""

    storage: float = STORAGE_MIN
    retrieval: float = 1.0

    def __post_init__(self) -> None:
        storage = check_number(self.storage, what="storage")
        if not STORAGE_MIN <= storage <= STORAGE_MAX:
            raise InvalidInput(f"storage must be in [1, 10], got {storage}")
        check_unit(self.retrieval, what="retrieval")


def retrieval_at(
    ds: DualStrength, last_access: datetime, now: datetime, stability_days: float
) -> float:
    """Retrieval strength at ``now``: the stored value decayed by the FSRS-6 curve since the last
    access ("retrieval ... FSRS decay"). Storage never decays."""
    return ds.retrieval * fsrs_retention(days_between(last_access, now), stability_days)


def on_access(
    ds: DualStrength,
    now: datetime,
    *,
    last_access: datetime | None = None,
    stability_days: float | None = None,
) -> DualStrength:
    """The strengths right after a successful retrieval at ``now``: retrieval restored to 1,
    storage up by 0.5–1.0 (more when the memory was harder to retrieve), capped at 10.

    With ``last_access`` and ``stability_days`` the difficulty is the retrieval strength decayed
    to ``now``; without them it is the stored retrieval value.
    """
    if last_access is not None and stability_days is not None:
        before = retrieval_at(ds, last_access, now, stability_days)
    else:
        before = ds.retrieval
    gain = STORAGE_GAIN_MIN + STORAGE_GAIN_DIFFICULTY * (1.0 - before)
    return DualStrength(storage=min(STORAGE_MAX, ds.storage + gain), retrieval=1.0)


# --- Stability multiplier ------------------------------------------------------------------------

# A ceiling on the per-memory multiplier so repeated boosts cannot make a memory immortal by
# arithmetic: 100× an ephemeral memory's 3 days is still under a year.
MAX_STABILITY_MULTIPLIER = 100.0
# FSRS's stability increase on a successful review is 1 + a·S^-b·(e^{c(1-R)} - 1). kgmem takes
# a = 1, b = 0.2, c = 1: a re-access at R = 0.9 gives about ×1.1 (kgmem's reinforcement boost), one
# at R = 0.3 (the "endangered") about ×2, an immediate re-access (R = 1) nothing.
ACCESS_GAIN = 1.0
ACCESS_SATURATION = 0.2
ACCESS_SPACING = 1.0
NEIGHBOUR_BOOST = 1.02  # accessed memory's neighbours get +2% (A-MEM, spreading)
COACTIVATION_BOOST = 1.02  # Hebbian co-activation, memories retrieved together +2%
REHEARSAL_BOOST = 1.5  # endangered memories (R < 0.3) rehearsed at ×1.5
REHEARSE_BELOW = 0.3


def _multiplier(value: float) -> float:
    mult = check_number(value, what="stability_multiplier")
    if not 0.0 < mult < math.inf:
        raise InvalidInput(f"stability_multiplier must be positive and finite, got {mult}")
    return mult


def boost(stability_multiplier: float, factor: float) -> float:
    """``stability_multiplier × factor`` (factor ≥ 1), capped at MAX_STABILITY_MULTIPLIER but
    never below where it started (a multiplier already above the cap stays put)."""
    mult = _multiplier(stability_multiplier)
    if not 1.0 <= check_number(factor, what="factor") < math.inf:
        raise InvalidInput(f"a stability boost factor must be at least 1, got {factor}")
    return max(mult, min(MAX_STABILITY_MULTIPLIER, mult * factor))


def after_access(
    stability_multiplier: float, access_count: int, retention_at_access: float
) -> float:
    """The stability multiplier after a successful access at retention ``retention_at_access``.

    FSRS-style: growth is e^(1−R) − 1, so a retrieval at low retention strengthens more (the
    spacing effect), and it saturates as the memory's whole relative stability F grows (FSRS's
    S^-0.2): F = multiplier × the (1 + 0.5·ln(1 + access_count)), the access count before
    this access. Never lowers the multiplier; bounded by MAX_STABILITY_MULTIPLIER.
    """
    mult = _multiplier(stability_multiplier)
    count = check_count(access_count, what="access_count")
    r = check_unit(retention_at_access, what="retention_at_access")
    relative = mult * (1.0 + 0.5 * math.log1p(count))
    growth = (
        ACCESS_GAIN
        * math.pow(relative, -ACCESS_SATURATION)
        * math.expm1(ACCESS_SPACING * (1.0 - r))
    )
    return boost(mult, 1.0 + growth)


def neighbour_boost(stability_multiplier: float) -> float:
    """The spreading-activation boost for a neighbour of an accessed memory: ×1.02."""
    return boost(stability_multiplier, NEIGHBOUR_BOOST)


def coactivation_boost(stability_multiplier: float) -> float:
    """The Hebbian boost for memories retrieved together in one query: ×1.02."""
    return boost(stability_multiplier, COACTIVATION_BOOST)


def needs_rehearsal(retention: float) -> bool:
    """The testing-effect target: FSRS retention below 0.3."""
    return check_unit(retention, what="retention") < REHEARSE_BELOW


def rehearse(stability_multiplier: float) -> float:
    """The rehearsal of an endangered memory: ×1.5, "simulating successful retrieval"."""
    return boost(stability_multiplier, REHEARSAL_BOOST)


# --- Utility (docs/lifecycle.md) --------------------

UTILITY_PRIOR = 0.5
UTILITY_DRIFT_PER_DAY = 0.01
UTILITY_ALPHA = 0.1


def utility_drift(utility: float, days: float) -> float:
    """The u + 0.01·days·(0.5 − u), with the step capped at the whole gap: after 100+
    unused days the formula would overshoot 0.5, and a prior is where drift stops, not a pivot."""
    u = check_unit(utility, what="utility")
    step = min(1.0, UTILITY_DRIFT_PER_DAY * check_number(days, what="days", low=0.0))
    drifted = u + step * (UTILITY_PRIOR - u)
    # rounding must not carry u across the prior either
    return min(drifted, UTILITY_PRIOR) if u <= UTILITY_PRIOR else max(drifted, UTILITY_PRIOR)


def utility_update(utility: float, success: bool, alpha: float = UTILITY_ALPHA) -> float:
    """The u + α(target − u), target 1 on success and 0 on failure (α = 0.1: one bad
    session does not sink a useful memory)."""
    u = check_unit(utility, what="utility")
    a = check_unit(alpha, what="alpha")
    target = 1.0 if success else 0.0
    return min(1.0, max(0.0, u + a * (target - u)))
