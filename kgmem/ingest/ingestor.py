"""What the write path needs and what it reports: the ``Ingestor`` (settings, graph gateway, models,
and one extraction lock per namespace in this process) and the ``ExtractionReport`` each batch
adds to (receipts, episode counts, the turns that gave no memory with their reasons, the engine
used, per-stage timings, conflicts).

Plain data, no I/O: every write-path module takes an ``Ingestor`` and fills a report; the service
builds one ``Ingestor`` and passes it in.
"""

from __future__ import annotations

import asyncio
import time
from dataclasses import dataclass, field

from kgmem import tracing
from kgmem.graph.client import GraphClient
from kgmem.ml.embedder import Embedder
from kgmem.ml.llm import LLMClient
from kgmem.ml.nlp import Nlp
from kgmem.records import TurnSkip, WriteReceipt
from kgmem.settings import Settings


@dataclass
class Ingestor:
    """What the write path needs: settings, the graph gateway and the models."""

    settings: Settings
    graph: GraphClient
    embedder: Embedder
    nlp: Nlp
    llm: LLMClient | None = None
    # One extractor per namespace in this process: concurrent observes would otherwise all read
    # the same pending batch, extract it, and all but one roll back (measured: 1,828 wasted
    # batches in 600 observes from 16 clients). Other processes still race; the claim check in
    # the commit transaction settles that.
    _extracting: dict[str, asyncio.Lock] = field(default_factory=dict, repr=False)

    def extraction_lock(self, namespace: str) -> asyncio.Lock:
        return self._extracting.setdefault(namespace, asyncio.Lock())


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
