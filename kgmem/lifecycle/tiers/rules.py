"""The tiers step's rules: promotion, demotion, the core gate and the hot tier, per memory.

Contract: ``decide_tier(memory, now, shared, epoch)`` returns a :class:`TierDecision`: the tier
change (or None) and, when the memory went through the core gate and was refused, the refusal to
record. Rules, applied in sequence so one run reaches the fixed point (a second run at the same
``now`` decides nothing new):

- working → episodic after 30 minutes or 2 accesses (docs/lifecycle.md);
- episodic → semantic when accessed ≥ 3 times, or utility ≥ 0.7 and age ≥ 7 days, or the memory
  is one of ≥ 3 episodic memories sharing an entity (the three rules; ``shared`` holds the
  entity ids that qualify, from :func:`shared_entities`); pinned and immutable memories are never
  promoted;
- semantic → dormant when idle ≥ 60 days and utility < 0.2; pinned, immutable and
  flashbulb memories never are; dormant memories freeze (``frozen_at``);
- dormant → semantic when the memory was accessed after it froze (reactivatable);
- semantic → core through the gate (:mod:`kgmem.lifecycle.tiers.core_gate`) for the candidates
  names, with its escalating rejection cooldowns counted in consolidation epochs.

Only ACTIVE and STALE memories move. ``hot_tier`` is the always-inject selection and
``trim_plan`` its capacity trim. Pure.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

from kgmem.core.retention import days_between
from kgmem.core.tunables import HOT_MAX_AGE, HOT_MAX_ITEMS, HOT_MIN_ACCESS, HOT_MIN_UTILITY
from kgmem.lifecycle.records import MemoryRecord, TierChange
from kgmem.lifecycle.tiers.core_gate import GateVerdict, gate_candidate, heuristic_gate
from kgmem.taxonomy import Status, Tier
from kgmem.taxonomy.parsing import parse_enum

TIERED_STATUSES = frozenset({Status.ACTIVE, Status.STALE})
WORKING_MAX_AGE = timedelta(minutes=30)  # working auto-promotes after 30 minutes
WORKING_MAX_ACCESSES = 2  # ... or 2 accesses
SEMANTIC_MIN_ACCESS = 3  # accessCount >= 3
SEMANTIC_MIN_UTILITY = 0.7  # utility >= 0.7 AND age >= 7 days
SEMANTIC_MIN_AGE_DAYS = 7.0
SHARED_ENTITY_MIN = 3  # >= 3 episodic memories share an entity
DORMANT_IDLE_DAYS = 60.0  # >= 60 days since last access
DORMANT_MAX_UTILITY = 0.2  # ... AND utility < 0.2


@dataclass(frozen=True)
class TierDecision:
    change: TierChange | None = None
    rejected: GateVerdict | None = None


def leaves_working(m: MemoryRecord, now: datetime) -> bool:
    return now - m.created_at >= WORKING_MAX_AGE or m.access_count >= WORKING_MAX_ACCESSES


def _episodic_after_working(m: MemoryRecord, now: datetime) -> bool:
    if m.status not in TIERED_STATUSES:
        return False
    return m.tier is Tier.EPISODIC or (m.tier is Tier.WORKING and leaves_working(m, now))


def count_episodic_entities(m: MemoryRecord, now: datetime) -> frozenset[str]:
    """The entity ids ``m`` adds to the co-occurrence count: those of an episodic memory
    (or a working one leaving the working tier in this run), each once."""
    return frozenset(m.entities) if _episodic_after_working(m, now) else frozenset()


def shared_entities(memories: Iterable[MemoryRecord], now: datetime) -> frozenset[str]:
    """Entity ids that ≥ 3 episodic memories mention (counting working memories that leave the
    working tier in this run: they are episodic by the time promotion is decided)."""
    counts: Counter[str] = Counter()
    for m in memories:
        counts.update(count_episodic_entities(m, now))
    return frozenset(e for e, n in counts.items() if n >= SHARED_ENTITY_MIN)


def _promotion(m: MemoryRecord, now: datetime, shared: frozenset[str]) -> str | None:
    if m.access_count >= SEMANTIC_MIN_ACCESS:
        return f"accessed {m.access_count} times"
    age = days_between(m.created_at, now)
    if m.utility >= SEMANTIC_MIN_UTILITY and age >= SEMANTIC_MIN_AGE_DAYS:
        return f"utility {m.utility:.2f} at {age:.1f} days"
    common = sorted(set(m.entities) & shared)
    if common:
        return f"one of {SHARED_ENTITY_MIN}+ episodic memories sharing entity {common[0]}"
    return None


def _dormancy(m: MemoryRecord, now: datetime) -> str | None:
    if m.pinned or m.immutable or m.flashbulb:
        return None
    idle = days_between(m.last_used, now)
    if idle >= DORMANT_IDLE_DAYS and m.utility < DORMANT_MAX_UTILITY:
        return f"idle {idle:.1f} days, utility {m.utility:.2f}"
    return None


def _reactivated(m: MemoryRecord) -> bool:
    # dormant memories "can be reactivated"; a recall that used one says it is needed.
    return m.frozen_at is not None and m.last_accessed is not None and m.last_accessed > m.frozen_at


def decide_tier(
    m: MemoryRecord,
    now: datetime,
    shared: frozenset[str],
    epoch: int,
    gate: GateVerdict | None = None,
) -> TierDecision:
    """The tier ``m`` ends this run in (see the module doc). ``gate`` overrides the heuristic
    core gate with a verdict decided elsewhere (the LLM), for a memory that is a candidate."""
    if m.status not in TIERED_STATUSES:
        return TierDecision()
    tier, steps = m.tier, []
    if tier is Tier.DORMANT and _reactivated(m):
        tier = Tier.SEMANTIC
        steps.append(("reactivation", "accessed after it went dormant"))
    if tier is Tier.WORKING and leaves_working(m, now):
        tier = Tier.EPISODIC
        age_min = (now - m.created_at).total_seconds() / 60
        steps.append(("working_expiry", f"left working after {age_min:.0f} min"))
    if tier is Tier.EPISODIC and not (m.pinned or m.immutable):
        why = _promotion(m, now, shared)
        if why is not None:
            tier = Tier.SEMANTIC
            steps.append(("promotion", why))
    rejected = None
    if tier is Tier.SEMANTIC:
        why = _dormancy(m, now)
        if why is not None:
            tier = Tier.DORMANT
            steps.append(("demotion", why))
        elif gate_candidate(m, now, epoch):
            verdict = gate if gate is not None else heuristic_gate(m)
            if verdict.approve:
                tier = Tier.CORE
                steps.append(("core_gate", f"core gate approved: {verdict.reason}"))
            else:
                rejected = verdict
    if tier is m.tier:
        return TierDecision(rejected=rejected)
    rule = steps[-1][0]
    reason = "; ".join(text for _rule, text in steps)
    return TierDecision(TierChange(m.id, m.tier, tier, rule, reason), rejected)


def tier_after(m: MemoryRecord, decision: TierDecision) -> Tier:
    return decision.change.new if decision.change is not None else m.tier


def hot_candidate(m: MemoryRecord, tier: Tier, now: datetime) -> bool:
    """The hot-tier filter: semantic or core, active, utility ≥ 0.8, ≥ 10 accesses,
    younger than 30 days."""
    return (
        tier in (Tier.SEMANTIC, Tier.CORE)
        and m.status is Status.ACTIVE
        and m.utility >= HOT_MIN_UTILITY
        and m.access_count >= HOT_MIN_ACCESS
        and now - m.created_at < HOT_MAX_AGE
    )


def hot_tier(
    memories: Iterable[tuple[MemoryRecord, Tier]], now: datetime, max_items: int = HOT_MAX_ITEMS
) -> list[str]:
    """The hot tier from (memory, its tier after this run): the hot candidates, best
    utility first, at most 15 ids."""
    chosen = [m for m, tier in memories if hot_candidate(m, tier, now)]
    chosen.sort(key=lambda m: (-m.utility, -m.access_count, m.id))
    return [m.id for m in chosen[:max_items]]


TRIM_EXEMPT_TIERS = frozenset({Tier.DORMANT, Tier.CORE})


def trim_plan(
    candidates: Iterable[Mapping[str, Any]], *, live: int, cap: int, target: int, batch: int
) -> tuple[list[TierChange], int]:
    """The capacity trim: with ``live`` memories above ``cap``, the lowest-utility
    candidates go dormant until ``target`` remain, at most ``batch`` now. Pinned, immutable and
    flashbulb memories (pinned survive capacity trim) and core ones (never
    demoted by decay) are never trimmed. Returns (changes, how many are due in all)."""
    if cap <= 0 or live <= cap:
        return [], 0
    due = live - target
    eligible = [
        c
        for c in candidates
        if not (c.get("pinned") or c.get("immutable") or c.get("flashbulb"))
        and parse_enum(Tier, c.get("tier") or "episodic", "tier") not in TRIM_EXEMPT_TIERS
    ]
    eligible.sort(key=lambda c: (float(c["utility"]), float(c["importance"]), str(c["id"])))
    changes = [
        TierChange(
            str(c["id"]),
            parse_enum(Tier, c.get("tier") or "episodic", "tier"),
            Tier.DORMANT,
            "capacity_trim",
            f"{live} live memories above the cap of {cap}; utility {float(c['utility']):.2f}",
        )
        for c in eligible[: min(due, batch)]
    ]
    return changes, due
