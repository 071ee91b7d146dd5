"""An extraction worker: the loop ``kgmem worker`` runs to extract observed turns outside the API.

Contract. ``run`` looks for namespaces whose pending turns are due (``find_due_extractions``: a
HIGH signal or flush marked them, or the smart buffer's count or age trigger fired), takes each
one's extraction lease (``kgmem.ingest.extraction.lease``), extracts its pending episodes batch by
batch (``extract_pending``) while a keeper task renews the lease every third of its lifetime, and
gives the lease back. A look that finds work is followed at once by the next; an idle worker
waits ``Backoff.delay`` (50 ms doubling to ``worker_poll_max_s``), so a turn that becomes due
waits at most ``worker_poll_max_s`` (plus the batch a busy worker is finishing) and an idle
worker costs Neo4j one small query per ``worker_poll_max_s``.

``stop`` (the CLI calls it on SIGTERM/SIGINT) is asked before every batch: the worker finishes
the batch in hand, releases its lease and returns, so what it had not started stays pending for
another worker at once. A worker killed outright (SIGKILL) loses nothing either: its batch never
committed, its turns stay pending, and its lease expires after ``extraction_lease_s``. An
extraction that fails (Neo4j away, a bug) is logged and the namespace tried again after the next
pause; nothing is claimed until a batch commits.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta

from kgmem.core.holders import new_holder
from kgmem.errors import KgmemError
from kgmem.graph import extraction_repository
from kgmem.ingest.extraction import lease as extraction_lease
from kgmem.ingest.extraction.batches import extract_pending
from kgmem.ingest.ingestor import Ingestor
from kgmem.ingest.turns.buffer import DEFAULT_MAX_AGE, DEFAULT_MAX_TURNS
from kgmem.ingest.turns.polling import Backoff
from kgmem.taxonomy import ConflictStrategy

log = logging.getLogger("kgmem.worker")
DUE_LIMIT = 16  # namespaces read per look; the rest are seen on the next look
FIRST_IDLE_S = 0.05


@dataclass
class WorkerStats:
    """What one worker did since it started (logged at exit, read by tests)."""

    claims: int = 0  # leases granted to it on a namespace
    takeovers: int = 0  # of those, leases a dead or hung worker had not released
    lost: int = 0  # leases that passed to another worker while it extracted
    episodes: int = 0
    memories: int = 0  # receipts written
    failures: int = 0


class ExtractionWorker:
    def __init__(
        self,
        ing: Ingestor,
        *,
        holder: str | None = None,
        strategy: ConflictStrategy = ConflictStrategy.TEMPORAL,
    ) -> None:
        self.ing = ing
        self.holder = holder or new_holder()
        self.strategy = strategy
        self.stats = WorkerStats()
        settings = ing.settings
        self.ttl = timedelta(seconds=settings.extraction_lease_s)
        poll_max = settings.worker_poll_max_s
        self.backoff = Backoff(min(FIRST_IDLE_S, poll_max), poll_max)
        self._stop = asyncio.Event()

    def stop(self) -> None:
        """Finish the batch in hand, give the lease back, and return from ``run``."""
        self._stop.set()

    @property
    def stopping(self) -> bool:
        return self._stop.is_set()

    async def run(self, *, until_idle: bool = False) -> WorkerStats:
        """Extract due turns until stopped (or, with ``until_idle``, until a look finds none)."""
        log.info("extraction worker %s started", self.holder)
        idle = 0
        while not self._stop.is_set():
            try:
                worked = await self.run_once()
            except KgmemError as exc:  # Neo4j away: logged, tried again after a pause
                self.stats.failures += 1
                log.error("looking for due turns failed: %s", exc.message)
                worked = 0
            if worked:
                idle = 0
                continue
            if until_idle:
                break
            await self._sleep(self.backoff.delay(idle))
            idle += 1
        log.info("extraction worker %s stopped: %s", self.holder, self.stats)
        return self.stats

    async def run_once(self) -> int:
        """One look for due namespaces, extracting each whose lease it gets; how many gave work."""
        rows = await extraction_repository.find_due_extractions(
            self.ing.graph,
            now=datetime.now(UTC),
            max_turns=DEFAULT_MAX_TURNS,
            max_age_s=DEFAULT_MAX_AGE.total_seconds(),
            limit=DUE_LIMIT,
        )
        worked = 0
        for row in rows:
            if self._stop.is_set():
                break
            if await self.extract(str(row["namespace"])):
                worked += 1
        return worked

    async def extract(self, namespace: str) -> bool:
        """Extract a namespace's pending turns under its lease; False if another holds it or
        nothing was extracted."""
        graph = self.ing.graph
        lease = await extraction_lease.take(
            graph, namespace, self.holder, datetime.now(UTC), self.ttl
        )
        if not lease.granted:
            return False
        self.stats.claims += 1
        if lease.taken_over_from is not None:
            self.stats.takeovers += 1
            log.warning(
                "namespace %s: took over the expired lease of %s", namespace, lease.taken_over_from
            )
        lost = asyncio.Event()
        keeper = asyncio.create_task(self._keep(namespace, lost))
        t0 = time.perf_counter()
        try:
            report = await extract_pending(
                self.ing,
                namespace=namespace,
                strategy=self.strategy,
                proceed=lambda: not (self._stop.is_set() or lost.is_set()),
            )
        except KgmemError as exc:  # nothing of the failed batch committed: it stays pending
            self.stats.failures += 1
            log.error("namespace %s: extraction failed: %s", namespace, exc.message)
            return False
        finally:
            keeper.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await keeper
            if not lost.is_set():
                with contextlib.suppress(KgmemError):  # unreleased, it simply expires
                    await extraction_lease.release(graph, namespace, self.holder, datetime.now(UTC))
        self.stats.episodes += report.episodes
        self.stats.memories += len(report.receipts)
        log.info(
            "namespace %s: %d turns extracted, %d memory writes, %.1fs%s",
            namespace,
            report.episodes,
            len(report.receipts),
            time.perf_counter() - t0,
            " (stopped early; the rest stays pending)" if report.deferred else "",
        )
        return report.episodes > 0

    async def _keep(self, namespace: str, lost: asyncio.Event) -> None:
        """Renew the lease every third of its lifetime until cancelled or it is lost."""
        while True:
            await asyncio.sleep(self.ttl.total_seconds() / 3)
            try:
                lease = await extraction_lease.take(
                    self.ing.graph, namespace, self.holder, datetime.now(UTC), self.ttl
                )
            except KgmemError as exc:  # try again on the next beat; the claim check still guards
                log.warning("namespace %s: lease renewal failed: %s", namespace, exc.message)
                continue
            if not lease.granted:
                self.stats.lost += 1
                log.warning("namespace %s: lease passed to %s; stopping", namespace, lease.holder)
                lost.set()
                return

    async def _sleep(self, seconds: float) -> None:
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(self._stop.wait(), seconds)
