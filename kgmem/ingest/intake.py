"""Durable intake of conversation turns (the smart buffer): ``observe`` validates every turn before
any I/O, stores the turns as ``:Episode`` nodes, and extracts when a trigger fires: a HIGH
signal, ``DEFAULT_MAX_TURNS`` pending turns, the oldest pending turn older than
``DEFAULT_MAX_AGE``, or ``flush``; otherwise the turns wait, buffered, in the graph.

The ``ObserveReport`` names the stored episodes, how many were new (a repeated turn is stored
once), the trigger, and the extraction report when one ran.
"""

from __future__ import annotations

import time
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import UTC, datetime

from kgmem.errors import KgmemError
from kgmem.graph import repository
from kgmem.ingest.buffer import DEFAULT_MAX_AGE, DEFAULT_MAX_TURNS
from kgmem.ingest.episodes import as_utc, check_turns, episode_properties
from kgmem.ingest.extraction import extract_pending
from kgmem.ingest.ingestor import ExtractionReport, Ingestor
from kgmem.ingest.scanner import scan
from kgmem.ingest.signals import SignalLevel
from kgmem.records import Turn
from kgmem.taxonomy import ConflictStrategy
from kgmem.validation import check_namespace


@dataclass(frozen=True)
class ObserveReport:
    episode_ids: tuple[str, ...]
    new_episodes: int
    trigger: str  # high_signal | max_turns | max_age | flush | buffered
    extraction: ExtractionReport | None


async def observe(
    ing: Ingestor,
    turns: Sequence[object],
    *,
    namespace: object,
    strategy: ConflictStrategy = ConflictStrategy.TEMPORAL,
    flush: bool = False,
    now: datetime | None = None,
) -> ObserveReport:
    ns = check_namespace(namespace)
    when = now or datetime.now(UTC)
    if isinstance(turns, str | bytes) or not isinstance(turns, Sequence) or not turns:
        raise KgmemError("observe needs a non-empty list of turns")
    clean = check_turns(turns, limit=ing.settings.max_content_chars)
    base = time.time_ns()
    episodes = [episode_properties(ns, t, base + i, now=when) for i, t in enumerate(clean)]
    rows = await repository.create_episodes(ing.graph, namespace=ns, episodes=episodes, now=when)
    new = sum(1 for r in rows if r["created"])
    trigger = "flush" if flush else _trigger(clean)
    if trigger == "buffered":
        summary = await repository.get_pending_summary(ing.graph, namespace=ns)
        oldest = summary.get("oldest")
        if summary["pending"] >= DEFAULT_MAX_TURNS:
            trigger = "max_turns"
        elif oldest is not None and when - as_utc(oldest) > DEFAULT_MAX_AGE:
            trigger = "max_age"
    report = None
    if trigger != "buffered":
        report = await extract_pending(ing, namespace=ns, strategy=strategy, now=when)
    return ObserveReport(tuple(e["id"] for e in episodes), new, trigger, report)


def _trigger(turns: Sequence[Turn]) -> str:
    for t in turns:  # seed 000: a HIGH signal extracts now
        if scan(t.text, t.role).level >= SignalLevel.HIGH:
            return "high_signal"
    return "buffered"
