"""Runners for the steps that walk the namespace's memories: rehearsal, state transitions and
housekeeping (the tiers runner is in :mod:`~kgmem.lifecycle.tiers.steps`).

Contract: each runner scans memories in bounded pages, decides with the pure rules
(:mod:`~kgmem.lifecycle.upkeep.rehearsal`, :mod:`~kgmem.lifecycle.upkeep.transitions`,
:mod:`~kgmem.lifecycle.tiers.rules`) — rehearsal and transitions read only the candidates a superset
filter on the server lets through, with the pure rules' thresholds passed in — stops adding
changes at the step's cap (and says so), and writes
all it decided in one transaction through :meth:`StepContext.commit`. Every write is guarded by
the value it was decided from, so a memory changed meanwhile (a recall touching it) is left for
the next run rather than overwritten; the report counts what the graph actually changed.
"""

from __future__ import annotations

from collections import Counter
from datetime import datetime, timedelta
from typing import Any

from kgmem.core.retention import ACCESS_STABILITY_WEIGHT, AUTO_EXTRACTED_DECAY
from kgmem.core.strength import UTILITY_PRIOR
from kgmem.core.trust import human_sources
from kgmem.errors import KgmemError
from kgmem.graph import retention_repository, tier_repository
from kgmem.graph.retention_repository import StabilityFilter
from kgmem.lifecycle.consolidation.context import ALL_STATUSES, StepContext, first_count, log
from kgmem.lifecycle.consolidation.policy import Policy
from kgmem.lifecycle.records import StatusChange
from kgmem.lifecycle.tiers.rules import TIERED_STATUSES, trim_plan
from kgmem.lifecycle.upkeep.decay_state import DEFAULT_STATE_THRESHOLDS
from kgmem.lifecycle.upkeep.rehearsal import (
    CoActivation,
    Drift,
    Endangered,
    drift,
    endangered,
    endangered_ratio,
    rehearsal_plan,
    replay_plan,
    retention_ratio,
)
from kgmem.lifecycle.upkeep.transitions import decide_status, retention_now
from kgmem.taxonomy import Tier
from kgmem.taxonomy.lifecycle_tables import BASE_STABILITY_DAYS, TIER_DECAY_MULTIPLIER

LIVE = [s.value for s in TIERED_STATUSES]


# --- rehearsal --------------------------------------------------------------------------------


def _stability_filter(now: datetime, min_ratio: float) -> StabilityFilter:
    """The effective-stability tables and the t/S bound a candidate query tests."""
    return StabilityFilter(
        now_ms=int(now.timestamp() * 1000),
        min_ratio=min_ratio,
        base_stability={c.value: v for c, v in BASE_STABILITY_DAYS.items()},
        tier_decay={t.value: v for t, v in TIER_DECAY_MULTIPLIER.items()},
        pinned_decay=TIER_DECAY_MULTIPLIER[Tier.SEMANTIC],
        human_sources=sorted(human_sources()),
        auto_decay=AUTO_EXTRACTED_DECAY,
        access_weight=ACCESS_STABILITY_WEIGHT,
    )


def rehearsal_filters(policy: Policy, now: datetime) -> dict[str, Any]:
    """What ``find_rehearsal_candidates`` filters by: the stability tables and the
    thresholds of the pure rules (a superset of the memories rehearsal or drift may touch)."""
    return {
        "utility_prior": UTILITY_PRIOR,
        "drift_before": now - timedelta(days=1) + timedelta(seconds=1),
        "stability": _stability_filter(now, endangered_ratio(policy)),
    }


def transition_filters(policy: Policy, now: datetime) -> dict[str, Any]:
    """What ``find_transition_candidates`` filters by: the thresholds of the pure transition
    rules (a superset of the ACTIVE memories they may change; every other status is read). The
    decay chain moves an ACTIVE memory only below the stale threshold, hence its t/S
    bound; a second's slack on the archival age keeps the day count's rounding inside."""
    return {
        "speculative_below": policy.speculative_below,
        "archival_before": now
        - timedelta(days=policy.fact_archival_age_days)
        + timedelta(seconds=1),
        "archival_max_importance": policy.fact_archival_max_importance,
        "archival_max_access": policy.fact_archival_max_access,
        "stability": _stability_filter(
            now, retention_ratio(policy, DEFAULT_STATE_THRESHOLDS.stale_below)
        ),
    }


async def run_rehearsal(ctx: StepContext) -> None:
    """Rehearse endangered memories (×1.5, ≤ 50), drift utilities toward 0.5, replay
    co-activated pairs (×1.02 each side)."""
    endangered_: list[Endangered] = []
    stability: dict[str, float] = {}
    drifts: list[Drift] = []
    page = retention_repository.find_rehearsal_candidates
    async for m in ctx.scan(LIVE, page=page, **rehearsal_filters(ctx.policy, ctx.now)):
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
    pairs_rows = await retention_repository.find_co_activations(
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
            retention_repository.rehearse_memories(
                namespace=ctx.namespace, updates=updates, pairs=pairs_out, now=ctx.now
            )
        )
    if drift_rows:
        steps.append(
            retention_repository.drift_memory_utilities(namespace=ctx.namespace, drifts=drift_rows)
        )
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
    """The decay chain, speculative/commitment/foresight expiry, fact archival
    and the purge of soft-deleted memories past their retention period."""
    changes: list[StatusChange] = []
    purges: list[StatusChange] = []
    page = retention_repository.find_transition_candidates
    async for m in ctx.scan(ALL_STATUSES, page=page, **transition_filters(ctx.policy, ctx.now)):
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
        steps.append(
            retention_repository.set_memory_statuses(namespace=ctx.namespace, changes=rows)
        )
    if purges:
        rows = [ctx.status_row(c) for c in purges]
        steps.append(retention_repository.purge_memories(namespace=ctx.namespace, changes=rows))
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


# --- housekeeping -----------------------------------------------------------------------------


async def run_housekeeping(ctx: StepContext) -> None:
    """The capacity trim: above the cap, the lowest-utility live memories go dormant until
    the target (90 % of the cap) is reached, at most ``caps.batch`` per run."""
    cap, target = ctx.policy.capacity_cap, ctx.policy.capacity_target
    if cap <= 0:
        ctx.stat("capacity_off")
        return
    live = await retention_repository.get_capacity_count(ctx.graph, namespace=ctx.namespace)
    ctx.stat("live", live)
    if live <= cap:
        return
    rows = await retention_repository.find_trim_candidates(
        ctx.graph, namespace=ctx.namespace, limit=min(live - target, ctx.caps.batch)
    )
    changes, due = trim_plan(rows, live=live, cap=cap, target=target, batch=ctx.caps.batch)
    ctx.report.capped = due > len(changes)
    if not changes:
        return
    tier_rows = [ctx.tier_row(c) for c in changes]
    out = await ctx.commit(
        [tier_repository.set_memory_tiers(namespace=ctx.namespace, changes=tier_rows)]
    )
    ctx.report.count("trimmed", first_count(out[0], "changed", len(changes), ctx.dry_run))
