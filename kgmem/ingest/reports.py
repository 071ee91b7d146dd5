"""What the write path reports: an ``ExtractionReport`` per extraction (receipts, episode counts,
the turns that gave no memory with their reasons, the engine used, per-stage timings, conflicts),
the ``ExtractionOutcome`` of turns a worker extracts (read back from the graph), and the
``ObserveReport`` of one ``observe`` call.

Contract: plain records, no I/O, and no imports beyond kgmem's own records and tracing hooks, so
the SDK decodes an API answer into them on the thin client install (no numpy, no Neo4j driver).
``ingest.intake``, ``ingest.outcome`` and the extraction stages fill them.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field

from kgmem import tracing
from kgmem.records import TurnSkip, WriteReceipt


@dataclass
class ExtractionReport:
    receipts: list[WriteReceipt] = field(default_factory=list)
    episodes: int = 0
    skipped_turns: int = 0  # turns that gave no memory: len(skips)
    skips: list[TurnSkip] = field(default_factory=list)  # each with the reasons on its Episode
    engine: str = "local"
    timings: dict[str, float] = field(default_factory=dict)
    # batches another writer extracted first (its result stands, ours was rolled back)
    conflicts: int = 0
    deferred: bool = False  # gave up after MAX_CONFLICTS: what is still pending waits its turn

    def skip_counts(self) -> dict[str, int]:
        """How many turns gave no memory, per reason (a turn with two reasons counts in both)."""
        counts: dict[str, int] = {}
        for skip in self.skips:
            for reason in skip.reasons:
                counts[reason] = counts.get(reason, 0) + 1
        return dict(sorted(counts.items(), key=lambda kv: (-kv[1], kv[0])))

    def tick(self, stage: str, t0: float) -> float:
        now = time.perf_counter()
        tracing.stage(f"extract.{stage}", t0, now)  # the report's timing is the span's too
        self.timings[stage] = self.timings.get(stage, 0.0) + (now - t0)
        return now


@dataclass(frozen=True)
class ExtractionOutcome:
    """The turns of one observe as the graph has them: extracted or still pending, the turns that
    gave no memory (with reasons), and the memories derived from the extracted ones."""

    extracted: int
    pending: int
    skips: tuple[TurnSkip, ...] = ()
    memory_ids: tuple[str, ...] = ()
    engine: str | None = None

    @property
    def done(self) -> bool:
        return self.pending == 0


@dataclass(frozen=True)
class ObserveReport:
    episode_ids: tuple[str, ...]
    new_episodes: int
    trigger: str  # high_signal | max_turns | max_age | flush | buffered
    extraction: ExtractionReport | None
    # extracted: every turn is extracted (here, or by a worker within the wait);
    # pending: a trigger fired and a worker has not finished these turns yet;
    # buffered: no trigger fired, the turns wait for more.
    status: str = "buffered"
    outcome: ExtractionOutcome | None = None  # read back after waiting for a worker
