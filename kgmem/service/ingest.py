"""The service's write path: observe conversation turns, extract what is buffered, remember.

Contract. ``observe`` stores turns durably as episodes and, when a smart-buffer trigger fires,
extracts them here or leaves them to a worker (the ``extraction_mode`` setting; ``wait`` waits a
bounded time for the worker); ``extraction_worker`` builds the loop ``kgmem worker`` runs;
``extract_pending`` extracts every buffered episode now (also after a crash);
``remember`` stores one explicit memory through the write gate. Each checks its namespace and
parses its conflict strategy, then hands over to :mod:`kgmem.ingest`.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime

from kgmem.ingest import explicit, intake
from kgmem.ingest.extraction import batches as extraction
from kgmem.ingest.extraction import stats as extraction_stats
from kgmem.ingest.extraction.stats import ExtractionStats
from kgmem.ingest.extraction.worker import ExtractionWorker
from kgmem.ingest.reports import ExtractionReport, ObserveReport
from kgmem.records import Turn, WriteReceipt
from kgmem.service.core import ServiceCore
from kgmem.taxonomy import ConflictStrategy
from kgmem.taxonomy.parsing import parse_enum


class IngestOps(ServiceCore):
    """Writing memories: observe, extract_pending, remember."""

    async def observe(
        self,
        turns: Sequence[Turn],
        *,
        namespace: str | None = None,
        strategy: ConflictStrategy | str = ConflictStrategy.TEMPORAL,
        flush: bool = False,
        now: datetime | None = None,
        wait: float = 0.0,
    ) -> ObserveReport:
        """Store turns durably as episodes; extract them when a smart-buffer trigger fires (in
        worker mode: wait up to ``wait`` seconds, capped by ``observe_max_wait_s``, for it)."""
        return await intake.observe(
            self.ingestor,
            turns,
            namespace=self._ns(namespace),
            strategy=parse_enum(ConflictStrategy, strategy, "conflict strategy"),
            flush=flush,
            now=now,
            wait_s=wait,
        )

    @property
    def extracts_inline(self) -> bool:
        """Whether observe extracts in this process (else ``kgmem worker`` processes do)."""
        return intake.extracts_inline(self.settings.extraction_mode)

    async def extraction_stats(self) -> ExtractionStats:
        """Backlog, lag of recent commits and lease counts over every namespace (``/metrics``)."""
        return await extraction_stats.read_stats(self.graph)

    def extraction_worker(self, *, holder: str | None = None) -> ExtractionWorker:
        """A worker that extracts the due turns of every namespace under expiring leases."""
        return ExtractionWorker(self.ingestor, holder=holder)

    async def extract_pending(
        self,
        *,
        namespace: str | None = None,
        strategy: ConflictStrategy | str = ConflictStrategy.TEMPORAL,
    ) -> ExtractionReport:
        """Extract every buffered episode now (also resumes after a crash)."""
        return await extraction.extract_pending(
            self.ingestor,
            namespace=self._ns(namespace),
            strategy=parse_enum(ConflictStrategy, strategy, "conflict strategy"),
        )

    async def remember(
        self,
        text: str,
        *,
        namespace: str | None = None,
        category: str = "fact",
        source: str = "human",
        strategy: ConflictStrategy | str = ConflictStrategy.TEMPORAL,
        now: datetime | None = None,
    ) -> WriteReceipt:
        return await explicit.remember(
            self.ingestor,
            text,
            namespace=self._ns(namespace),
            category=category,
            source=source,
            strategy=parse_enum(ConflictStrategy, strategy, "conflict strategy"),
            now=now,
        )
