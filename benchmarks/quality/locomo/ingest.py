"""LoCoMo benchmark: filling a namespace with a conversation and measuring its provenance.

``observe_batches`` observes batches of turns through ``Kgmem.observe`` (``flush=True``, ``now=``
the batch's time), drains the extraction buffer and returns an ``IngestResult`` (shared with the
BEAM benchmark); ``ingest``
observes a sample session by session (every turn as a user turn with its speaker, its
session id ``<sample_id>-session_<n>``, its dia id and the session date, ``flush=True`` and
``now=<session date>``), then drains the extraction buffer, and returns an ``IngestResult``
(episodes, memories, stage timings, skipped turns). ``provenance_turns`` lists every turn that
some memory of the namespace (optionally only of some statuses) derives from and ``coverage`` is
the share of a question's evidence among them: the ceiling of any kgmem R@k.
"""

from __future__ import annotations

import time
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime

from benchmarks.common.harness import memory_count
from benchmarks.common.progress import Progress
from benchmarks.quality.locomo.data import Sample
from kgmem.graph import repository
from kgmem.records import Turn
from kgmem.service import Kgmem


@dataclass
class IngestResult:
    sample_id: str
    namespace: str
    sessions: int
    turns: int
    episodes: int
    memories: int
    seconds: float
    timings: dict[str, float]
    skipped_turns: int
    covered_turns: int = 0  # turns at least one memory derives from
    reused: bool = False  # the namespace was ingested by an earlier run (--reuse)


async def observe_batches(
    km: Kgmem,
    name: str,
    namespace: str,
    batches: Sequence[tuple[Sequence[Turn], datetime]],
    progress: Progress,
) -> IngestResult:
    """Observe each batch with ``flush=True`` and ``now=<its time>``, then drain the buffer."""
    t0 = time.perf_counter()
    timings: dict[str, float] = {}
    episodes = skipped = 0
    label = f"ingest {name}"
    progress(label, 0, len(batches))
    for done, (turns, now) in enumerate(batches, start=1):
        report = await km.observe(turns, namespace=namespace, flush=True, now=now)
        episodes += report.new_episodes
        if report.extraction is not None:
            skipped += report.extraction.skipped_turns
            for k, v in report.extraction.timings.items():
                timings[k] = timings.get(k, 0.0) + v
        progress(label, done, len(batches))
    rest = await km.extract_pending(namespace=namespace)
    skipped += rest.skipped_turns
    for k, v in rest.timings.items():
        timings[k] = timings.get(k, 0.0) + v
    return IngestResult(
        sample_id=name,
        namespace=namespace,
        sessions=len(batches),
        turns=sum(len(turns) for turns, _ in batches),
        episodes=episodes,
        memories=await memory_count(km, namespace),
        seconds=round(time.perf_counter() - t0, 2),
        timings={k: round(v, 2) for k, v in timings.items()},
        skipped_turns=skipped,
    )


async def ingest(km: Kgmem, sample: Sample, namespace: str, progress: Progress) -> IngestResult:
    """Observe every turn of a sample session by session, then drain the buffer."""
    batches = [
        (
            [
                Turn(
                    text=t.text,
                    role="user",
                    speaker=t.speaker,
                    session_id=f"{sample.sample_id}-session_{n}",
                    at=t.at,
                    turn_id=t.dia_id,
                )
                for t in turns
            ],
            turns[0].at,
        )
        for n, turns in sample.sessions
    ]
    return await observe_batches(km, sample.sample_id, namespace, batches, progress)


async def provenance_turns(
    km: Kgmem, namespace: str, statuses: Sequence[str] | None = None
) -> set[str]:
    """Every turn id that at least one memory of the namespace derives from (``DERIVED_FROM``),
    counting only memories of the given statuses (any status when None)."""
    memories = await repository.find_memories(
        km.graph,
        namespace=namespace,
        statuses=None if statuses is None else list(statuses),
        limit=1_000_000,
    )
    ids = [str(m["id"]) for m in memories]
    covered: set[str] = set()
    for start in range(0, len(ids), 1000):
        rows = await repository.find_memory_turns(
            km.graph, namespace=namespace, ids=ids[start : start + 1000]
        )
        for row in rows:
            covered.update(row["turn_ids"])
    return covered


def coverage(evidence: Sequence[str], covered: set[str]) -> float:
    """Share of the evidence turns that some memory derives from: the ceiling of kgmem's R@k."""
    return len(set(evidence) & covered) / len(set(evidence))
