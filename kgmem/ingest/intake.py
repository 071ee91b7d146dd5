"""Durable intake of conversation turns (the smart buffer): ``observe`` validates every turn before
any I/O, stores the turns as ``:Episode`` nodes, and extraction follows when a trigger fires: a
HIGH signal, ``DEFAULT_MAX_TURNS`` pending turns, the oldest pending turn older than
``DEFAULT_MAX_AGE``, or ``flush``; otherwise the turns wait, buffered, in the graph.

Where the extraction runs is the ``extraction_mode`` setting. ``inline``: here, before observe
returns (the library and CLI). ``worker``: observe marks the namespace due and returns at once;
a ``kgmem worker`` extracts it (``kgmem.ingest.extraction.worker``). A caller may ``wait`` up to
``observe_max_wait_s`` for the worker: the report then says what the graph has committed for
these turns, or that they are still pending when the wait ends.

The ``ObserveReport`` names the stored episodes, how many were new (a repeated turn is stored
once), the trigger, the ``status`` (extracted | pending | buffered), the extraction report when
the extraction ran here, and the outcome read back when it waited for a worker.
"""

from __future__ import annotations

import time
from collections.abc import Sequence
from datetime import UTC, datetime, timedelta

from kgmem import tracing
from kgmem.core.time import as_utc
from kgmem.core.validation import check_namespace
from kgmem.errors import InvalidInput, KgmemError
from kgmem.graph import extraction_repository, repository
from kgmem.ingest.extraction.batches import extract_pending
from kgmem.ingest.extractors.scanner import scan
from kgmem.ingest.ingestor import Ingestor
from kgmem.ingest.reports import ObserveReport
from kgmem.ingest.signals.records import SignalLevel
from kgmem.ingest.turns.buffer import DEFAULT_MAX_AGE, DEFAULT_MAX_TURNS
from kgmem.ingest.turns.episodes import check_turns, episode_properties
from kgmem.ingest.turns.outcome import wait_for_extraction
from kgmem.records import Turn
from kgmem.taxonomy import ConflictStrategy


def extracts_inline(mode: str) -> bool:
    """Whether observe extracts in the caller's process (``auto`` is inline outside the API)."""
    return mode != "worker"


@tracing.traced("kgmem.observe")
async def observe(
    ing: Ingestor,
    turns: Sequence[object],
    *,
    namespace: object,
    strategy: ConflictStrategy = ConflictStrategy.TEMPORAL,
    flush: bool = False,
    now: datetime | None = None,
    wait_s: float = 0.0,
) -> ObserveReport:
    ns = check_namespace(namespace)
    when = now or datetime.now(UTC)
    if isinstance(turns, str | bytes) or not isinstance(turns, Sequence) or not turns:
        raise KgmemError("observe needs a non-empty list of turns")
    if isinstance(wait_s, bool) or not isinstance(wait_s, int | float) or not wait_s >= 0:
        raise InvalidInput(f"wait must be a number of seconds >= 0, got {wait_s!r}")
    clean = check_turns(turns, limit=ing.settings.max_content_chars)
    tracing.annotate(namespace=ns, turns=len(clean))
    base = time.time_ns()
    # A turn sent without `at` is dated now, a microsecond after the one before it: the order
    # the turns were said in is the order the gate reconciles them in.
    episodes = [
        episode_properties(ns, t, base + i, now=when + timedelta(microseconds=i))
        for i, t in enumerate(clean)
    ]
    ids = [str(e["id"]) for e in episodes]
    trigger = "flush" if flush else _trigger(clean)
    # `due` in the same write as the turns: a worker sees a HIGH signal or a flush as soon as the
    # turns are visible (and picks them up after a crash of an inline extraction too).
    rows = await repository.create_episodes(
        ing.graph, namespace=ns, episodes=episodes, now=when, due=trigger != "buffered"
    )
    new = sum(1 for r in rows if r["created"])
    inline = extracts_inline(ing.settings.extraction_mode)
    if trigger == "buffered":
        summary = await repository.get_pending_summary(ing.graph, namespace=ns)
        oldest = summary.get("oldest")
        if summary["pending"] >= DEFAULT_MAX_TURNS:
            trigger = "max_turns"
        elif oldest is not None and when - as_utc(oldest) > DEFAULT_MAX_AGE:
            trigger = "max_age"
        if trigger != "buffered" and not inline:
            # The caller's clock (`now`) said so; the worker's own check runs on the server's.
            await extraction_repository.mark_episodes_due(ing.graph, namespace=ns, ids=ids)
    if trigger == "buffered":
        return ObserveReport(tuple(ids), new, trigger, None, status="buffered")
    if inline:
        report = await extract_pending(ing, namespace=ns, strategy=strategy, now=when)
        status = "pending" if report.deferred else "extracted"
        return ObserveReport(tuple(ids), new, trigger, report, status=status)
    wait = min(float(wait_s), ing.settings.observe_max_wait_s)
    if wait <= 0:
        return ObserveReport(tuple(ids), new, trigger, None, status="pending")
    outcome = await wait_for_extraction(ing.graph, namespace=ns, ids=ids, wait_s=wait)
    status = "extracted" if outcome.done else "pending"
    return ObserveReport(tuple(ids), new, trigger, None, status=status, outcome=outcome)


def _trigger(turns: Sequence[Turn]) -> str:
    for t in turns:  # a HIGH signal extracts now
        if scan(t.text, t.role).level >= SignalLevel.HIGH:
            return "high_signal"
    return "buffered"
