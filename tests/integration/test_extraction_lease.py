"""The extraction lease and worker-mode observe on the real Neo4j, without worker processes: the
lease is exclusive until it expires, a takeover is counted, a stale holder cannot release it;
a worker-mode observe answers pending (never extracted) when no worker runs, and its wait is
capped; the due query sees a flushed namespace and not a buffered one; an in-process worker
extracts what is due, once, and gives its lease back."""

from __future__ import annotations

import time
import uuid
from collections.abc import Callable
from datetime import UTC, datetime, timedelta
from typing import Any

from kgmem.graph import extraction_repository, repository
from kgmem.ingest.extraction import lease as extraction_lease
from kgmem.records import Turn
from kgmem.service import Kgmem

T = datetime(2025, 6, 1, 12, 0, tzinfo=UTC)
TTL = timedelta(seconds=30)


def test_the_lease_is_exclusive_until_it_expires(km: Kgmem, namespace: str, arun: Any) -> None:
    g = km.graph
    a = arun(extraction_lease.take(g, namespace, "worker-a", T, TTL))
    assert a.granted and a.holder == "worker-a" and a.taken_over_from is None
    b = arun(extraction_lease.take(g, namespace, "worker-b", T + TTL / 2, TTL))
    assert not b.granted and b.holder == "worker-a"
    renewed = arun(extraction_lease.take(g, namespace, "worker-a", T + TTL / 2, TTL))
    assert renewed.granted and renewed.expires_at == T + TTL / 2 + TTL
    late = T + TTL / 2 + TTL  # the renewed lease has just expired
    b = arun(extraction_lease.take(g, namespace, "worker-b", late, TTL))
    assert b.granted and b.taken_over_from == "worker-a"
    assert not arun(extraction_lease.release(g, namespace, "worker-a", late))  # stale holder
    row = arun(extraction_repository.get_extraction_lease(g, namespace=namespace))
    assert row is not None and (row["holder"], row["claims"], row["expiries"]) == ("worker-b", 2, 1)
    assert arun(extraction_lease.release(g, namespace, "worker-b", late))
    c = arun(extraction_lease.take(g, namespace, "worker-c", late, TTL))
    assert c.granted and c.taken_over_from is None  # released, not expired: no takeover
    row = arun(extraction_repository.get_extraction_lease(g, namespace=namespace))
    assert row is not None and (row["claims"], row["expiries"]) == (3, 1)
    arun(extraction_lease.release(g, namespace, "worker-c", late))


def due(km: Kgmem, arun: Any) -> set[str]:
    rows = arun(
        extraction_repository.find_due_extractions(
            km.graph, now=datetime.now(UTC), max_turns=5, max_age_s=900.0, limit=1000
        )
    )
    return {str(r["namespace"]) for r in rows}


def test_worker_mode_observe_without_a_worker_is_pending_and_its_wait_is_capped(
    tuned: Callable[..., Kgmem], km: Kgmem, namespace: str, arun: Any
) -> None:
    w = tuned(extraction_mode="worker", observe_max_wait_s=0.5)
    said = Turn("I moved to Lisbon last May for a new job.", speaker="Maya", turn_id="t1")
    buffered = arun(w.observe([said], namespace=namespace, wait=60))
    assert (buffered.trigger, buffered.status, buffered.extraction) == (
        "buffered",
        "buffered",
        None,
    )
    assert namespace not in due(km, arun)  # one quiet turn: not due yet
    t0 = time.perf_counter()
    more = Turn("My sister Ana lives in Porto.", speaker="Maya", turn_id="t2")
    report = arun(w.observe([said, more], namespace=namespace, flush=True, wait=60))
    waited = time.perf_counter() - t0
    assert 0.5 <= waited < 10, waited  # the cap (0.5 s), not the 60 s asked for
    assert report.status == "pending" and report.extraction is None
    assert report.outcome is not None and (report.outcome.extracted, report.outcome.pending) == (
        0,
        2,
    )
    assert namespace in due(km, arun)  # the flush marked it due for a worker
    # An in-process worker (what `kgmem worker` runs) extracts it, once, and lets go.
    worker = w.extraction_worker(holder=f"test-{uuid.uuid4().hex[:6]}")
    assert arun(worker.extract(namespace))
    assert worker.stats.claims == 1 and worker.stats.episodes == 2
    assert arun(repository.get_pending_summary(km.graph, namespace=namespace))["pending"] == 0
    assert namespace not in due(km, arun)
    lease = arun(extraction_repository.get_extraction_lease(km.graph, namespace=namespace))
    assert lease is not None and lease["holder"] is None
    # Now a wait finds the outcome committed.
    again = arun(w.observe([said, more], namespace=namespace, flush=True, wait=5))
    assert again.status == "extracted" and again.outcome is not None
    assert (again.outcome.extracted, again.outcome.pending) == (2, 0)
    assert again.outcome.memory_ids and again.new_episodes == 0
