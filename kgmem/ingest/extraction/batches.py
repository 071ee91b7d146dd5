"""Extraction of a namespace's pending episodes, batch by batch: read the pending queue, prepare
a batch (models), commit it (graph), and prefetch the next batch's model work while this one
commits; one extractor per namespace in this process (the ``Ingestor``'s lock).

Durable and resumable: episodes are claimed inside each batch's transaction, so a crash leaves
them pending (nothing lost) and a concurrent or repeated run cannot extract them twice (nothing
duplicated). A batch another writer claimed first is re-read; after ``MAX_CONFLICTS`` the rest
is left to the writer that is winning (``deferred``). A worker passes ``proceed``, asked before
each batch: when it must stop (SIGTERM, or its lease passed to another worker) the rest stays
pending for the next holder (``deferred`` too).
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import Callable
from datetime import UTC, datetime
from typing import Any

from kgmem import tracing
from kgmem.errors import ConcurrentWrite
from kgmem.graph import repository
from kgmem.ingest.extraction.commit import commit_batch
from kgmem.ingest.extractors.preparation import Prepared, prepare
from kgmem.ingest.ingestor import Ingestor
from kgmem.ingest.reports import ExtractionReport
from kgmem.taxonomy import ConflictStrategy

BATCH_EPISODES = 64  # episodes per extraction transaction
# Concurrent extractors of one namespace read the same pending batch; the first commit wins and
# the others roll back (the claim check). A loser re-reads what is still pending, so each retry
# follows someone's progress; past this many it leaves the rest to the writer that is winning.
MAX_CONFLICTS = 8


@tracing.traced("kgmem.extract")
async def extract_pending(
    ing: Ingestor,
    *,
    namespace: str,
    strategy: ConflictStrategy = ConflictStrategy.TEMPORAL,
    now: datetime | None = None,
    max_batches: int | None = None,
    proceed: Callable[[], bool] | None = None,
) -> ExtractionReport:
    """Extract every pending episode of a namespace, one transaction per batch; ``proceed`` is
    asked before each batch (a worker told to stop, or that lost its lease, says no)."""
    tracing.annotate(namespace=namespace)
    async with ing.extraction_lock(namespace):
        return await _extract_all(ing, namespace, strategy, now, max_batches, proceed)


async def _extract_all(
    ing: Ingestor,
    namespace: str,
    strategy: ConflictStrategy,
    now: datetime | None,
    max_batches: int | None,
    proceed: Callable[[], bool] | None,
) -> ExtractionReport:
    total = ExtractionReport()
    batches = 0
    # Models and graph overlap: while batch N is gated and committed (graph round trips, server
    # CPU), batch N+1 is parsed, extracted and embedded (client CPU). Only the gate needs N's
    # writes, so the models' half of N+1 can start early. The prefetch is used only if the next
    # read of the pending queue starts with exactly its episodes, so batch boundaries (and so
    # what is extracted) are the ones a sequential loop would have used.
    ahead: asyncio.Task[Prepared] | None = None
    try:
        while max_batches is None or batches < max_batches:
            # Two batches on purpose: the first is this batch, the second is the look-ahead the
            # prefetch prepares while this one commits. The look-ahead is read again as the head
            # of the next read, because only that read (after this commit) says which episodes
            # are still pending, in which order; the whole read is ~2 % of the ingest
            # benchmark's wall time, the models' time the prefetch overlaps far more.
            rows = await repository.find_pending_episodes(
                ing.graph, namespace=namespace, limit=2 * BATCH_EPISODES
            )
            if not rows:
                break
            if proceed is not None and not proceed():
                total.deferred = True  # the rest waits, pending, for the next holder
                break
            batch = [r["episode"] for r in rows[:BATCH_EPISODES]]
            following = [r["episode"] for r in rows[BATCH_EPISODES:]]
            prepared = await _claim_prefetch(ahead, batch)
            ahead = None
            if prepared is None:
                prepared = await prepare(ing, batch)
            if following and (max_batches is None or batches + 1 < max_batches):
                ahead = asyncio.create_task(prepare(ing, following))
            try:
                report = await commit_batch(
                    ing, namespace, prepared, strategy, now or datetime.now(UTC)
                )
            except ConcurrentWrite:
                total.conflicts += 1
                if total.conflicts >= MAX_CONFLICTS:
                    total.deferred = True
                    break
                continue
            total.receipts += report.receipts
            total.episodes += report.episodes
            total.skipped_turns += report.skipped_turns
            total.skips += report.skips
            total.engine = report.engine
            for k, v in report.timings.items():
                total.timings[k] = total.timings.get(k, 0.0) + v
            batches += 1
    finally:
        if ahead is not None:
            ahead.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await ahead
    return total


async def _claim_prefetch(
    ahead: asyncio.Task[Prepared] | None, batch: list[dict[str, Any]]
) -> Prepared | None:
    if ahead is None:
        return None
    try:
        prepared = await ahead
    except Exception:  # prepared again in line below, where the failure surfaces
        return None
    same = [e["id"] for e in prepared.episodes] == [e["id"] for e in batch]
    return prepared if same else None
