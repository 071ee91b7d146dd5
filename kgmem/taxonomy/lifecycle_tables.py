"""How memories live and change: the base stability per category, the decay multiplier
per tier and minimum retention per category (placed on one scale for the categories a seed does not
name; each entry says why), and the legal changes of a memory's storage
:class:`~kgmem.taxonomy.Status` (docs/lifecycle.md) with :func:`can_transition` to ask and
:func:`check_transition` to refuse an illegal one with :class:`~kgmem.errors.InvalidInput`. Pure
data and two pure functions, read by :mod:`kgmem.lifecycle`.
"""

from __future__ import annotations

import math

from kgmem.errors import InvalidInput
from kgmem.taxonomy import Category, Status, Tier

# Days of base stability S in the retention(t) = exp(-t / S_eff),
# S_eff = S * (1 + ln(1 + access_count) * 0.5).
BASE_STABILITY_DAYS: dict[Category, float] = {
    # , verbatim
    Category.IDENTITY: 365.0,
    Category.PREFERENCE: 270.0,
    Category.RELATIONSHIP: 270.0,
    Category.EVENT: 120.0,
    Category.ACTIVITY: 90.0,
    Category.GOAL: 60.0,
    Category.CONTEXT: 21.0,
    Category.EPHEMERAL: 3.0,
    # seed-000-only categories, placed on the scale:
    # a correction must outlive whatever it corrects, identity facts included (no decay).
    Category.CORRECTION: 365.0,
    # kgmem puts entities in the no-decay class with preferences, so they get preference's value.
    Category.ENTITY: 270.0,
    # kgmem decays facts by 0.005/day; an e-folding time of 1/0.005 days.
    Category.FACT: 200.0,
    #  (protected), 001 (procedural layer, no half-life) and 002 (decision rationale goes
    # to Core) keep decisions lets them fade faster than facts. Decisions change by being
    # superseded rather than by fading, so: durable, a little below facts.
    Category.DECISION: 180.0,
    # rules and lessons: kgmem protects them sends them to Core and decays procedural
    # knowledge slowest of all kinds, so they sit at the top of the scale with identity.
    Category.PRINCIPLE: 365.0,
    # a capability fades only slowly when unused; as durable as a preference.
    Category.SKILL: 270.0,
    # kgmem keeps a resolved commitment for commitmentDecayDays (90) before removing it.
    Category.COMMITMENT: 90.0,
    # a notable moment is a dated occurrence, like the EVENT.
    Category.MOMENT: 120.0,
}


# The category-based minimum retention in days (math.inf = permanent): strategic forgetting
# may not retire a memory younger than this. Categories kgmem does not name take its "Other" row,
# except identity, which is the same who-the-user-is knowledge kgmem keeps forever.
MIN_RETENTION_DAYS: dict[Category, float] = dict.fromkeys(Category, 7.0) | {
    Category.CORRECTION: math.inf,
    Category.PREFERENCE: math.inf,
    Category.ENTITY: math.inf,
    Category.IDENTITY: math.inf,
    Category.DECISION: 45.0,
    Category.FACT: 14.0,
}


# The PAHF multipliers on the base decay rate (higher = forgets faster; dormant is frozen).
# Core is not never deletes Core, so it decays no faster than semantic.
TIER_DECAY_MULTIPLIER: dict[Tier, float] = {
    Tier.WORKING: 10.0,
    Tier.EPISODIC: 3.0,
    Tier.SEMANTIC: 1.0,
    Tier.CORE: 1.0,
    Tier.DORMANT: 0.0,
}


# The decay chain (active -> stale -> archived -> deleted) only moves forward by itself;
# the way back to ACTIVE exists for acts that carry new evidence: an access or rehearsal revives a
# stale memory (docs/lifecycle.md), a probe that clears a challenge, a user correction or an `ask`
# resolution that reverses a supersede/invalidation, an explicit restore from the archive (
# keeps archived memories recallable reactivates cold ones). MERGED is final apart from
# archive/delete because its content now lives in the survivor. DELETED is terminal (purge follows).
_REPLACED = frozenset({Status.SUPERSEDED, Status.MERGED, Status.INVALIDATED})
ALLOWED_TRANSITIONS: dict[Status, frozenset[Status]] = {
    Status.ACTIVE: frozenset(
        {Status.CHALLENGED, Status.STALE, *_REPLACED, Status.ARCHIVED, Status.DELETED}
    ),
    Status.CHALLENGED: frozenset({Status.ACTIVE, *_REPLACED, Status.ARCHIVED, Status.DELETED}),
    Status.STALE: frozenset(
        {Status.ACTIVE, Status.CHALLENGED, *_REPLACED, Status.ARCHIVED, Status.DELETED}
    ),
    Status.SUPERSEDED: frozenset({Status.ACTIVE, Status.ARCHIVED, Status.DELETED}),
    Status.MERGED: frozenset({Status.ARCHIVED, Status.DELETED}),
    Status.INVALIDATED: frozenset({Status.ACTIVE, Status.ARCHIVED, Status.DELETED}),
    Status.ARCHIVED: frozenset({Status.ACTIVE, Status.DELETED}),
    Status.DELETED: frozenset(),
}


def can_transition(old: Status, new: Status) -> bool:
    """Whether ``old -> new`` is a legal status change (staying put is not a change)."""
    return new in ALLOWED_TRANSITIONS[old]


def check_transition(old: Status, new: Status) -> None:
    """Raise InvalidInput unless ``old -> new`` is in ALLOWED_TRANSITIONS."""
    if old == new:
        raise InvalidInput(f"memory is already {old.value}; nothing to change")
    if not can_transition(old, new):
        allowed = ", ".join(sorted(s.value for s in ALLOWED_TRANSITIONS[old])) or "none"
        raise InvalidInput(
            f"a memory cannot go from {old.value} to {new.value}; from {old.value} it can go to: "
            f"{allowed}"
        )
