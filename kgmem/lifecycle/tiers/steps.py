"""Runner for the tiers step: promotion, demotion, reactivation, the core gate and the hot tier.

Contract: like every runner, it reads, decides with the pure rules
(:mod:`~kgmem.lifecycle.tiers.rules`, :mod:`~kgmem.lifecycle.tiers.core_gate`) and writes all it
decided in one transaction. The reads are set-based so a large namespace ships only what may change:
the co-occurrence count runs in Cypher (``find_shared_entities``, thresholds passed from
:mod:`~kgmem.lifecycle.tiers.rules`), the scan reads only the candidates whose necessary conditions
hold (``find_tier_candidates``, a superset of what the rules move or gate) in id order and stops
once both caps are spent — a memory after that point could change nothing this run — and the
hot-tier refresh reads the hot memories and those passing the hot filter (``find_hot_candidates``).
Tests prove the Cypher filters agree with the pure rules on the threshold edges.
"""

from __future__ import annotations

from collections import Counter
from typing import Any

from kgmem.core.tunables import HOT_MAX_AGE, HOT_MIN_ACCESS, HOT_MIN_UTILITY
from kgmem.errors import KgmemError, LLMError
from kgmem.graph import tier_repository
from kgmem.lifecycle.consolidation.context import StepContext, first_count, log
from kgmem.lifecycle.records import MemoryRecord, TierChange
from kgmem.lifecycle.tiers.core_gate import (
    GATE_SCHEMA,
    GATE_SYSTEM,
    PROMOTE_MIN_IMPORTANCE,
    GateVerdict,
    gate_prompt,
    heuristic_is_certain,
    parse_llm_verdict,
)
from kgmem.lifecycle.tiers.rules import (
    DORMANT_MAX_UTILITY,
    SEMANTIC_MIN_ACCESS,
    SEMANTIC_MIN_UTILITY,
    SHARED_ENTITY_MIN,
    TIERED_STATUSES,
    WORKING_MAX_ACCESSES,
    WORKING_MAX_AGE,
    TierDecision,
    decide_tier,
    hot_tier,
    tier_after,
)
from kgmem.taxonomy import Tier

LIVE = [s.value for s in TIERED_STATUSES]
LLM_GATE_CALLS = 20  # kgmem reviews at most 20 memories per cycle with the LLM


async def shared_entities_of(ctx: StepContext) -> frozenset[str]:
    """The shared entities, counted on the server with the pure rule's thresholds."""
    ids = await tier_repository.find_shared_entities(
        ctx.graph,
        namespace=ctx.namespace,
        statuses=LIVE,
        working_before=ctx.now - WORKING_MAX_AGE,
        working_accesses=WORKING_MAX_ACCESSES,
        min_memories=SHARED_ENTITY_MIN,
    )
    return frozenset(ids)


def candidate_filters(shared: frozenset[str]) -> dict[str, Any]:
    """The thresholds ``find_tier_candidates`` filters by, taken from the pure rules."""
    return {
        "shared": sorted(shared),
        "promote_accesses": SEMANTIC_MIN_ACCESS,
        "promote_utility": SEMANTIC_MIN_UTILITY,
        "dormant_utility": DORMANT_MAX_UTILITY,
        "gate_importance": PROMOTE_MIN_IMPORTANCE,
    }


async def hot_pool_of(ctx: StepContext) -> list[MemoryRecord]:
    """The memories in the hot tier now and those passing the hot filter but the tier."""
    rows = await tier_repository.find_hot_candidates(
        ctx.graph,
        namespace=ctx.namespace,
        statuses=LIVE,
        min_utility=HOT_MIN_UTILITY,
        min_access=HOT_MIN_ACCESS,
        created_after=ctx.now - HOT_MAX_AGE,
    )
    out = []
    for row in rows:
        try:
            out.append(MemoryRecord.from_row(row))
        except KgmemError as exc:
            log.warning("consolidation skips memory %s: %s", row.get("id"), exc)
    return out


async def _llm_verdict(ctx: StepContext, m: MemoryRecord) -> GateVerdict | None:
    if ctx.llm is None:
        return None
    try:
        result = await ctx.llm.complete_json(GATE_SYSTEM, gate_prompt(m), GATE_SCHEMA, "core_gate")
    except LLMError as exc:  # the heuristic decides instead (LLM optional)
        log.warning("core gate LLM failed for %s, using the heuristic: %s", m.id, exc)
        ctx.stat("gate_llm_failed")
        return None
    ctx.stat("gate_llm_calls")
    return parse_llm_verdict(result.data)


def _wants_llm(ctx: StepContext, m: MemoryRecord, d: TierDecision) -> bool:
    gated = d.rejected is not None or (d.change is not None and d.change.rule == "core_gate")
    if ctx.llm is None or not gated or ctx.llm_level == "off":
        return False
    if ctx.report.stats.get("gate_llm_failed", 0):
        return False  # down once: the heuristic decides the rest of this run
    if ctx.report.stats.get("gate_llm_calls", 0) >= LLM_GATE_CALLS:
        return False
    if ctx.llm_level == "always":
        return True
    return d.rejected is not None and not heuristic_is_certain(m, d.rejected)


async def run_tiers(ctx: StepContext) -> None:
    """Working → episodic → semantic → dormant, reactivation, the core gate
    with its cooldowns, and the hot-tier refresh."""
    shared = await shared_entities_of(ctx)
    changes: list[TierChange] = []
    rejections: list[dict[str, Any]] = []
    moved: dict[str, Tier] = {}  # the tier after this run of every memory the scan moves
    skipped: set[str] = set()
    async for m in ctx.scan(
        LIVE, page=tier_repository.find_tier_candidates, **candidate_filters(shared)
    ):
        ctx.stat("scanned")
        try:
            d = decide_tier(m, ctx.now, shared, ctx.epoch)
            if _wants_llm(ctx, m, d):
                verdict = await _llm_verdict(ctx, m)
                if verdict is not None:
                    d = decide_tier(m, ctx.now, shared, ctx.epoch, gate=verdict)
        except KgmemError as exc:
            ctx.stat("skipped")
            skipped.add(m.id)
            log.warning("consolidation skips memory %s: %s", m.id, exc)
            continue
        if d.change is not None and len(changes) >= ctx.caps.batch:
            ctx.report.capped = True
            d = TierDecision(rejected=d.rejected)
        if d.change is not None:
            changes.append(d.change)
            moved[m.id] = tier_after(m, d)
        if d.rejected is not None and len(rejections) < ctx.caps.batch:
            rejections.append(
                {"id": m.id, "old": m.gate_rejections, "reason": d.rejected.reason[:500]}
            )
        if ctx.report.capped and len(rejections) >= ctx.caps.batch:
            break  # both caps spent: no later memory can change anything in this run
    pool = [m for m in await hot_pool_of(ctx) if m.id not in skipped]
    was_hot = {m.id for m in pool if m.hot}
    hot = hot_tier([(m, moved.get(m.id, m.tier)) for m in pool], ctx.now)
    heat = sorted(set(hot) - was_hot)
    cool = sorted(was_hot - set(hot))
    steps = []
    if changes:
        rows = [ctx.tier_row(c) for c in changes]
        steps.append(tier_repository.set_memory_tiers(namespace=ctx.namespace, changes=rows))
    if rejections:
        steps.append(
            tier_repository.set_gate_rejections(
                namespace=ctx.namespace, rejections=rejections, epoch=ctx.epoch, now=ctx.now
            )
        )
    if heat or cool:
        steps.append(tier_repository.set_memory_hot(namespace=ctx.namespace, hot=heat, cold=cool))
    out = await ctx.commit(steps)
    i = 0
    if changes:
        landed = first_count(out[i], "changed", len(changes), ctx.dry_run)
        if landed == len(changes):
            for c in changes:
                ctx.report.count(f"to_{c.new.value}")
        else:
            ctx.report.count("tier_changed", landed)
        i += 1
    if rejections:
        ctx.report.count(
            "gate_rejected", first_count(out[i], "rejected", len(rejections), ctx.dry_run)
        )
        i += 1
    if heat or cool:
        ctx.report.count("hot_added", first_count(out[i], "heated", len(heat), ctx.dry_run))
        ctx.report.count("hot_removed", first_count(out[i], "cooled", len(cool), ctx.dry_run))
    for rule, n in Counter(c.rule for c in changes).items():
        ctx.stat(f"rule:{rule}", n)
