"""The time and tier curves the recall composite is built from (docs/recall.md), as pure functions.

Contract: no I/O, no clock, never raises on stored values. ``retention`` is FSRS-6's power law
(the lifecycle's curve, made total for missing or broken stabilities), ``act_r_activation`` the
ACT-R base level squashed into (0, 1), ``recency`` an exponential with a profile's half-life, and
``sub_tier`` the sub-tier of a candidate (episodic/working by who wrote it, semantic/core by
what it says). ``recall.scoring`` weighs them; nothing here knows about profiles or weights.
"""

from __future__ import annotations

import math
import re
from typing import TYPE_CHECKING

from kgmem.core.retention import fsrs_retention

if TYPE_CHECKING:
    from kgmem.recall.candidates import Candidate

PERSONAL_SOURCES = frozenset({"human", "user", "manual", "user_message"})
VICARIOUS_SOURCES = frozenset({"federation", "federated", "vicarious", "cross_agent"})
_SCHEMATIC_RE = re.compile(r"\b(?:always|never|rules?)\b", re.IGNORECASE)
_HOWTO_RE = re.compile(r"\bhow to\b", re.IGNORECASE)


def retention(t_days: float, stability_days: float) -> float:
    """FSRS-6 power-law retention, R = (1 + t / (9 S))^-2 (lifecycle's curve).

    Unlike the lifecycle function this never raises: a stored stability that is missing, zero or
    NaN means nothing survives any elapsed time, and a NaN age counts as no time.
    """
    t = 0.0 if math.isnan(t_days) else max(0.0, t_days)
    if not stability_days > 0.0:
        return 1.0 if t == 0.0 else 0.0
    return fsrs_retention(t, stability_days)


def act_r_activation(access_count: int, age_seconds: float) -> float:
    """The ACT-R base level: B = ln(max(n, 1)) - 0.5 ln(age_s); returns 1 / (1 + e^-B)."""
    b = math.log(max(access_count, 1)) - 0.5 * math.log(max(age_seconds, 1.0))
    return 1.0 / (1.0 + math.exp(-b))


def recency(age_days: float, half_life_days: float) -> float:
    """Exponential recency with the profile's half-life: 0.5 ** (age / half-life)."""
    age = max(0.0, age_days)
    if not half_life_days > 0.0:
        return 1.0 if age == 0.0 else 0.0
    return float(0.5 ** (age / half_life_days))


def sub_tier(candidate: Candidate) -> str | None:
    """The sub-tier: episodic/working by source, semantic/core by content; else None."""
    if candidate.tier in ("episodic", "working"):
        source = candidate.source.strip().lower()
        if source in PERSONAL_SOURCES:
            return "personal"
        return "vicarious" if source in VICARIOUS_SOURCES else "observed"
    if candidate.tier in ("semantic", "core"):
        if candidate.category == "principle" or _SCHEMATIC_RE.search(candidate.content):
            return "schematic"
        if (
            candidate.category == "skill"
            or candidate.memory_type == "procedure"
            or _HOWTO_RE.search(candidate.content)
        ):
            return "procedural"
        return "factual"
    return None
