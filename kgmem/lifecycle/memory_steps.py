"""Runners for the steps that walk the namespace's memories: rehearsal, state transitions, tiers
and housekeeping.

Contract: each runner scans memories in bounded pages, decides with the pure rules
(:mod:`~kgmem.lifecycle.upkeep`, :mod:`~kgmem.lifecycle.transitions`,
:mod:`~kgmem.lifecycle.tiers`), stops adding changes at the step's cap (and says so), and writes
all it decided in one transaction through :meth:`StepContext.commit`. Every write is guarded by
the value it was decided from, so a memory changed meanwhile (a recall touching it) is left for
the next run rather than overwritten; the report counts what the graph actually changed.
"""

from __future__ import annotations

from collections import Counter
from typing import Any

from kgmem.errors import KgmemError, LLMError
from kgmem.graph import lifecycle_repository as lrepo
from kgmem.lifecycle.context import ALL_STATUSES, StepContext, first_count, log
from kgmem.lifecycle.gate import (
    GATE_SCHEMA,
    GATE_SYSTEM,
    GateVerdict,
    gate_prompt,
    heuristic_is_certain,
    parse_llm_verdict,
)
from kgmem.lifecycle.records import MemoryRecord, StatusChange, TierChange
from kgmem.lifecycle.tiers import (
    SHARED_ENTITY_MIN,
    TIERED_STATUSES,
    TierDecision,
    count_episodic_entities,
    decide_tier,
    hot_candidate,
    hot_tier,
    tier_after,
    trim_plan,
)
from kgmem.lifecycle.transitions import decide_status, retention_now
from kgmem.lifecycle.upkeep import (
    CoActivation,
    Drift,
    Endangered,
    drift,
    endangered,
    rehearsal_plan,
    replay_plan,
)
from kgmem.taxonomy import Tier

LIVE = [s.value for s in TIERED_STATUSES]
LLM_GATE_CALLS = 20  # seed 002 reviews at most 20 memories per cycle with the LLM


# --- rehearsal --------------------------------------------------------------------------------


async def run_rehearsal(ctx: StepContext) -> None:
    """Seed 004: rehearse endangered memories (×1.5, ≤ 50), drift utilities toward 0.5, replay
    co-activated pairs (×1.02 each side)."""
    endangered_: list[Endangered] = []
    stability: dict[str, float] = {}
    drifts: list[Drift] = []
    async for m in ctx.scan(LIVE):
        ctx.stat("scanned")
        try:
            r = retention_now(m, ctx.now, ctx.policy)
        except KgmemError:
            ctx.stat("skipped")
            continue
        if endangered(m, r, ctx.now, ctx.policy):
            endangered_.append(Endangered(m.id, m.importance, r, m.stability))
            stability[m.id] = m.stability
        d = drift(m, ctx.now)
        if d is not None:
            if len(drifts) < ctx.caps.batch:
                drifts.append(d)
            else:
                ctx.report.capped = True
    picked, due = rehearsal_plan(endangered_, ctx.caps.rehearsal)
    ctx.report.capped |= due > len(picked)
    ctx.stat("endangered", due)
    pairs_rows = await lrepo.find_co_activations(
        ctx.graph,
        namespace=ctx.namespace,
        min_count=ctx.policy.replay_min_count,
        limit=ctx.caps.batch,
    )
    pairs = [CoActivation(r["a"], r["b"], int(r["count"]), int(r["replayed"])) for r in pairs_rows]
    base = {r["a"]: float(r["a_stability"]) for r in pairs_rows}
    base.update({r["b"]: float(r["b_stability"]) for r in pairs_rows})
    base.update(stability)  # a memory read in the scan: the scan's value is the guard
    boosted = {p.id: p.stability for p in picked}
    replayed, after_replay = replay_plan(pairs, base | boosted, ctx.policy.replay_min_count)
    final = boosted | after_replay
    updates = [
        {"id": mid, "old": base[mid], "stability": value, "rehearsed": mid in boosted}
        for mid, value in sorted(final.items())
    ]
    pairs_out = [{"a": p.a, "b": p.b, "count": p.count} for p in replayed]
    drift_rows = [
        {"id": d.id, "old": d.old, "utility": d.utility, "drifted_at": d.drifted_at} for d in drifts
    ]
    steps = []
    if updates or pairs_out:
        steps.append(
            lrepo.rehearse_memories(
                namespace=ctx.namespace, updates=updates, pairs=pairs_out, now=ctx.now
            )
        )
    if drift_rows:
        steps.append(lrepo.drift_memory_utilities(namespace=ctx.namespace, drifts=drift_rows))
    out = await ctx.commit(steps)
    rehearsed = len(picked)
    if not ctx.dry_run and (updates or pairs_out):
        row = out[0][0]
        # the guard may skip a memory touched meanwhile; count what landed
        rehearsed = min(rehearsed, int(row["updated"]))
        ctx.report.count("replayed_pairs", int(row["replayed"]))
    else:
        ctx.report.count("replayed_pairs", len(pairs_out))
    ctx.report.count("rehearsed", rehearsed)
    if drift_rows:
        ctx.report.count(
            "utility_drifted", first_count(out[-1], "drifted", len(drift_rows), ctx.dry_run)
        )
    if picked:
        ctx.report.ids["rehearsed"] = [p.id for p in picked]


# --- state transitions ------------------------------------------------------------------------


async def run_state_transitions(ctx: StepContext) -> None:
    """Seeds 000/003/004: the decay chain, speculative/commitment/foresight expiry, fact archival
    and the purge of soft-deleted memories past their retention period."""
    changes: list[StatusChange] = []
    purges: list[StatusChange] = []
    async for m in ctx.scan(ALL_STATUSES):
        ctx.stat("scanned")
        try:
            decision = decide_status(m, ctx.now, ctx.policy)
        except KgmemError as exc:
            ctx.stat("skipped")
            log.warning("consolidation skips memory %s: %s", m.id, exc)
            continue
        if decision is None:
            continue
        if len(changes) + len(purges) >= ctx.caps.batch:
            ctx.report.capped = True
            break
        (purges if decision.new is None else changes).append(decision)
    steps = []
    if changes:
        rows = [ctx.status_row(c) for c in changes]
        steps.append(lrepo.set_memory_statuses(namespace=ctx.namespace, changes=rows))
    if purges:
        rows = [ctx.status_row(c) for c in purges]
        steps.append(lrepo.purge_memories(namespace=ctx.namespace, changes=rows))
    out = await ctx.commit(steps)
    landed = 0
    if changes:
        landed = first_count(out[0], "changed", len(changes), ctx.dry_run)
    if landed == len(changes):  # by target status (exact unless a guard skipped one)
        for target, n in Counter(c.new.value for c in changes if c.new is not None).items():
            ctx.report.count(target, n)
    else:
        ctx.report.count("changed", landed)
    for rule, n in Counter(c.rule for c in changes + purges).items():
        ctx.stat(f"rule:{rule}", n)
    if purges:
        ctx.report.count("purged", first_count(out[-1], "purged", len(purges), ctx.dry_run))


# --- tiers --------------------------------------------------------------------------------------


async def _llm_verdict(ctx: StepContext, m: MemoryRecord) -> GateVerdict | None:
    if ctx.llm is None:
        return None
    try:
        result = await ctx.llm.complete_json(GATE_SYSTEM, gate_prompt(m), GATE_SCHEMA, "core_gate")
    except LLMError as exc:  # the heuristic decides instead (seed 002: LLM optional)
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
    """Seeds 001/002/004: working → episodic → semantic → dormant, reactivation, the core gate
    with its cooldowns, and the hot-tier refresh."""
    counts: Counter[str] = Counter()
    # pass 1: which entities ≥ 3 episodic memories share
    async for m in ctx.scan(LIVE, episodic_mentions=True):
        counts.update(count_episodic_entities(m, ctx.now))
    shared = frozenset(e for e, n in counts.items() if n >= SHARED_ENTITY_MIN)
    changes: list[TierChange] = []
    rejections: list[dict[str, Any]] = []
    hot_pool: list[tuple[MemoryRecord, Tier]] = []
    was_hot: set[str] = set()
    async for m in ctx.scan(LIVE):  # pass 2: decide
        ctx.stat("scanned")
        if m.hot:
            was_hot.add(m.id)
        try:
            d = decide_tier(m, ctx.now, shared, ctx.epoch)
            if _wants_llm(ctx, m, d):
                verdict = await _llm_verdict(ctx, m)
                if verdict is not None:
                    d = decide_tier(m, ctx.now, shared, ctx.epoch, gate=verdict)
        except KgmemError as exc:
            ctx.stat("skipped")
            log.warning("consolidation skips memory %s: %s", m.id, exc)
            continue
        if d.change is not None and len(changes) >= ctx.caps.batch:
            ctx.report.capped = True
            d = TierDecision(rejected=d.rejected)
        if d.change is not None:
            changes.append(d.change)
        if d.rejected is not None and len(rejections) < ctx.caps.batch:
            rejections.append(
                {"id": m.id, "old": m.gate_rejections, "reason": d.rejected.reason[:500]}
            )
        tier = tier_after(m, d)
        if hot_candidate(m, tier, ctx.now):
            hot_pool.append((m, tier))
    hot = hot_tier(hot_pool, ctx.now)
    heat = sorted(set(hot) - was_hot)
    cool = sorted(was_hot - set(hot))
    steps = []
    if changes:
        rows = [ctx.tier_row(c) for c in changes]
        steps.append(lrepo.set_memory_tiers(namespace=ctx.namespace, changes=rows))
    if rejections:
        steps.append(
            lrepo.set_gate_rejections(
                namespace=ctx.namespace, rejections=rejections, epoch=ctx.epoch, now=ctx.now
            )
        )
    if heat or cool:
        steps.append(lrepo.set_memory_hot(namespace=ctx.namespace, hot=heat, cold=cool))
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


# --- housekeeping -----------------------------------------------------------------------------


async def run_housekeeping(ctx: StepContext) -> None:
    """Seed 004's capacity trim: above the cap, the lowest-utility live memories go dormant until
    the target (90 % of the cap) is reached, at most ``caps.batch`` per run."""
    cap, target = ctx.policy.capacity_cap, ctx.policy.capacity_target
    if cap <= 0:
        ctx.stat("capacity_off")
        return
    live = await lrepo.get_capacity_count(ctx.graph, namespace=ctx.namespace)
    ctx.stat("live", live)
    if live <= cap:
        return
    rows = await lrepo.find_trim_candidates(
        ctx.graph, namespace=ctx.namespace, limit=min(live - target, ctx.caps.batch)
    )
    changes, due = trim_plan(rows, live=live, cap=cap, target=target, batch=ctx.caps.batch)
    ctx.report.capped = due > len(changes)
    if not changes:
        return
    tier_rows = [ctx.tier_row(c) for c in changes]
    out = await ctx.commit([lrepo.set_memory_tiers(namespace=ctx.namespace, changes=tier_rows)])
    ctx.report.count("trimmed", first_count(out[0], "changed", len(changes), ctx.dry_run))
