"""The consolidation job ("dream cycle", ): every step, in order, under a graph lease.

Contract: ``consolidate(graph, settings, namespace, steps=None, dry_run=False, now=None,
caps=None)`` validates everything before any I/O (unknown steps, bad caps, a naive ``now`` →
``InvalidInput``), refuses a namespace that holds nothing (``InvalidInput``: "namespace ...
does not exist"), takes the namespace's lease (``LeaseHeld`` while another worker's lease is
live; an expired one is taken over), then runs the chosen steps in ``STEP_ORDER``. Each step
writes in one transaction, so a step that fails — or a worker killed mid-step — leaves nothing
of that step behind; a failing step is recorded in the report and the others still run
(fail-open) — unless Neo4j itself is gone (``GraphUnavailable``), which stops the run with that
error. The lease is renewed between steps and released at the end; a run that dies keeps
it only until it expires. Every rule is idempotent at a fixed ``now`` and every step is bounded
by its cap, so a second run right after a run that hit no cap changes nothing. A dry run takes
no lease and writes nothing: its report says what a real run would change.
"""

from __future__ import annotations

import time
from collections.abc import Awaitable, Callable
from datetime import UTC, datetime, timedelta

from kgmem import tracing
from kgmem.core.holders import new_holder
from kgmem.core.validation import check_namespace
from kgmem.errors import GraphAuthError, GraphUnavailable, InvalidInput, KgmemError, primary
from kgmem.graph import lease_repository
from kgmem.graph.client import GraphClient
from kgmem.lifecycle.consolidation import lease as leases
from kgmem.lifecycle.consolidation.context import StepContext, log
from kgmem.lifecycle.consolidation.policy import Caps, Policy, StepName, parse_caps, parse_steps
from kgmem.lifecycle.consolidation.report import ConsolidationReport, StepReport
from kgmem.lifecycle.contradictions.steps import run_contradictions
from kgmem.lifecycle.distillation.steps import run_distillation
from kgmem.lifecycle.hygiene.steps import run_centrality, run_entities
from kgmem.lifecycle.redundancy.steps import run_redundancy
from kgmem.lifecycle.summaries.steps import run_summaries
from kgmem.lifecycle.tiers.steps import run_tiers
from kgmem.lifecycle.topics.steps import run_topics
from kgmem.lifecycle.upkeep.steps import (
    run_housekeeping,
    run_rehearsal,
    run_state_transitions,
)
from kgmem.ml.llm import LLMClient
from kgmem.settings import Settings

Runner = Callable[[StepContext], Awaitable[None]]

RUNNERS: dict[StepName, Runner] = {
    StepName.REHEARSAL: run_rehearsal,
    StepName.STATE_TRANSITIONS: run_state_transitions,
    StepName.TIERS: run_tiers,
    StepName.CONTRADICTIONS: run_contradictions,
    StepName.REDUNDANCY: run_redundancy,
    StepName.ENTITIES: run_entities,
    StepName.DISTILLATION: run_distillation,
    StepName.TOPICS: run_topics,
    StepName.SUMMARIES: run_summaries,
    StepName.CENTRALITY: run_centrality,
    StepName.HOUSEKEEPING: run_housekeeping,
}

Progress = Callable[[StepReport], None]


def check_now(now: object) -> datetime:
    if now is None:
        return datetime.now(UTC)
    if not isinstance(now, datetime) or now.utcoffset() is None:
        raise InvalidInput(f"now must be a timezone-aware datetime, got {now!r}")
    return now.astimezone(UTC)


async def check_namespace_exists(graph: GraphClient, namespace: str) -> None:
    row = await lease_repository.get_namespace_presence(graph, namespace=namespace)
    if not (row["memories"] or row["entities"] or row["episodes"]):
        raise InvalidInput(
            f"namespace {namespace!r} does not exist: it holds no memories, entities or episodes"
        )


@tracing.traced("kgmem.consolidate")
async def consolidate(
    graph: GraphClient,
    settings: Settings,
    namespace: object,
    *,
    steps: object = None,
    dry_run: object = False,
    now: object = None,
    caps: object = None,
    llm: LLMClient | None = None,
    holder: str | None = None,
    progress: Progress | None = None,
) -> ConsolidationReport:
    ns = check_namespace(namespace)
    tracing.annotate(namespace=ns)
    chosen = parse_steps(steps)
    limits = parse_caps(caps, Caps(batch=settings.consolidation_batch))
    if not isinstance(dry_run, bool):
        raise InvalidInput(f"dry_run must be true or false, got {dry_run!r}")
    when = check_now(now)
    await check_namespace_exists(graph, ns)
    policy = Policy.from_settings(settings)
    ttl = timedelta(seconds=settings.consolidation_lease_s)
    who = holder or new_holder()
    report = ConsolidationReport(ns, dry_run, when, who)
    if dry_run:  # the epoch the next real run will have
        report.epoch = (
            int((await lease_repository.get_consolidation_lease(graph, namespace=ns))["epoch"]) + 1
        )
    else:
        taken = await leases.acquire(graph, ns, who, when, ttl)
        report.epoch = taken.epoch
        if taken.taken_over_from:
            log.warning("consolidation of %s took over an expired lease", ns)
    t0 = time.perf_counter()
    lost: str | None = None
    try:
        for name in chosen:
            step = StepReport(name.value)
            if lost is not None:
                step.error = lost
            else:
                await _run_step(
                    name,
                    StepContext(
                        graph=graph,
                        namespace=ns,
                        now=when,
                        caps=limits,
                        policy=policy,
                        dry_run=dry_run,
                        epoch=report.epoch,
                        report=step,
                        llm=_usable(llm, settings),
                        llm_level=settings.llm_level,
                    ),
                )
            report.steps.append(step)
            if progress is not None:
                progress(step)
            if not dry_run and lost is None:
                try:
                    await leases.renew(graph, ns, who, _clock(when, t0), ttl)
                except leases.LeaseLost as exc:
                    lost = exc.message
    except (GraphUnavailable, GraphAuthError):
        dry_run = True  # no lease to release on a database that is not there
        raise
    finally:
        if not dry_run:
            try:
                await leases.release(graph, ns, who, _clock(when, t0))
            except KgmemError as exc:  # it expires by itself; the run's work is already done
                log.warning("could not release the consolidation lease of %s: %s", ns, exc)
    report.duration_s = time.perf_counter() - t0
    return report


def _usable(llm: LLMClient | None, settings: Settings) -> LLMClient | None:
    # the core gate asks an LLM only when one is switched on and configured (optional)
    if llm is None or settings.llm_level == "off" or not llm.configured:
        return None
    return llm


def _clock(start: datetime, t0: float) -> datetime:
    # the run's clock: the caller's `now` (tests control it) advanced by the time spent since
    return start + timedelta(seconds=time.perf_counter() - t0)


async def _run_step(name: StepName, ctx: StepContext) -> None:
    t0 = time.perf_counter()
    try:
        await RUNNERS[name](ctx)
    except Exception as exc:  # fail-open: the step's transaction rolled back; record, go on
        if isinstance(primary(exc), GraphUnavailable | GraphAuthError):
            # the database is gone: every later step would fail the same way, so the run stops
            # here and says so once (the lease expires by itself)
            cause = primary(exc)
            if cause is exc:
                raise
            raise cause from exc
        ctx.report.error = f"{type(exc).__name__}: {exc}"
        ctx.report.changes.clear()
        ctx.report.ids.clear()
        log.exception("consolidation step %s failed in namespace %s", name, ctx.namespace)
    finally:
        end = time.perf_counter()
        ctx.report.duration_s = end - t0
        tracing.stage(f"consolidate.{name.value}", t0, end, ctx.report.error)
