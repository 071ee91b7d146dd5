"""Extraction in ``kgmem worker`` processes, on the real stack: real worker subprocesses
(``python -m kgmem worker --no-consolidation``) against the session's Neo4j, the real models.

- Two workers and concurrent observes (worker mode) of overlapping turns in three namespaces:
  every turn is exactly one episode, and every episode is extracted exactly once.
- A worker killed with SIGKILL while it holds a namespace's lease mid-way through its turns:
  after the lease expires the other worker takes it over and finishes; nothing lost or doubled.
- Over GraphQL (the API's default worker mode): observe without a wait answers at once with the
  turns pending; with ``waitSeconds`` it answers with what the worker committed; ``/metrics``
  shows the backlog, the lag, the lease claims and expiries.
"""

from __future__ import annotations

import asyncio
import functools
import os
import signal
import subprocess
import sys
import time
import uuid
from collections import Counter
from collections.abc import Callable, Iterator
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import pytest
from api.helpers import ADMIN_KEY, running

from kgmem.api import create_app
from kgmem.graph import extraction_repository, repository, transfer_repository
from kgmem.records import Turn
from kgmem.service import Kgmem
from kgmem.settings import Settings

ROOT = Path(__file__).resolve().parents[2]
LEASE_S = 4.0
POLL_MAX_S = 0.5
FACTS = (
    "I started working as a nurse at the children's hospital in {city}.",
    "My sister is visiting me in {city} next weekend with her two kids.",
    "I adopted a grey cat in {city} and named her Pixel.",
    "I'm training for the {city} half marathon in October.",
    "We booked a cabin near the lake outside {city} for the holidays.",
    "My landlord in {city} raised the rent to 1,450 dollars a month.",
)
PEOPLE = ("Maya", "Omar", "Lena", "Tomas", "Priya", "Ravi", "Chen")
CITIES = ("Denver", "Lisbon", "Osaka", "Toronto", "Nairobi", "Quito", "Oslo", "Hanoi")
T0 = datetime(2025, 3, 1, 9, 0, tzinfo=UTC)
LOGS: dict[int, Path] = {}  # worker pid → its log file


def turns(session: str, n: int) -> list[Turn]:
    """``n`` (up to 336) turns that each say something different: a fact, a city, a speaker.
    This test is about workers and leases, so no turn repeats another's fact: a fact repeated
    across batches of one namespace can make a batch's write race with itself and stay pending,
    with or without workers (a write-path defect of its own)."""
    per_speaker = len(FACTS) * len(CITIES)
    assert n <= per_speaker * len(PEOPLE)
    return [
        Turn(
            text=FACTS[i % len(FACTS)].format(city=CITIES[(i // len(FACTS)) % len(CITIES)])
            + f" (note {i})",
            speaker=PEOPLE[i // per_speaker],
            session_id=session,
            turn_id=f"{session}:{i}",
            at=T0 + timedelta(minutes=i),
        )
        for i in range(n)
    ]


def start_worker(env: dict[str, str], log: Path) -> subprocess.Popen[bytes]:
    full = {
        **os.environ,
        **env,
        "PYTHONPATH": str(ROOT),
        "KGMEM_EXTRACTION_LEASE_S": str(LEASE_S),
        "KGMEM_WORKER_POLL_MAX_S": str(POLL_MAX_S),
    }
    with log.open("wb") as sink:
        proc = subprocess.Popen(
            [sys.executable, "-m", "kgmem", "worker", "--no-consolidation"],
            env=full,
            stdout=sink,
            stderr=subprocess.STDOUT,
        )
    LOGS[proc.pid] = log
    return proc


def stop_all(procs: list[subprocess.Popen[bytes]]) -> None:
    for p in procs:
        if p.poll() is None:
            p.send_signal(signal.SIGTERM)
    for p in procs:
        try:
            p.wait(timeout=60)
        except subprocess.TimeoutExpired:
            p.kill()
            p.wait()


@pytest.fixture
def workers(env: dict[str, str], tmp_path: Path) -> Iterator[list[subprocess.Popen[bytes]]]:
    procs = [start_worker(env, tmp_path / f"worker-{i}.log") for i in range(2)]
    try:
        yield procs
    finally:
        stop_all(procs)


@pytest.fixture
def worker_km(tuned: Callable[..., Kgmem]) -> Kgmem:
    return tuned(extraction_mode="worker")


def logs(procs: list[subprocess.Popen[bytes]]) -> str:
    """The end of each worker's log, for a failure message."""
    tails = []
    for p in procs:
        path = LOGS.get(p.pid)
        if path is not None and path.exists():
            tails.append(f"--- worker {p.pid} (rc {p.poll()}):\n" + path.read_text()[-3000:])
    return "\n".join(tails)


def wait_until(
    cond: Callable[[], bool],
    what: str,
    procs: list[subprocess.Popen[bytes]],
    timeout: float = 300,
    progress: Callable[[], int] | None = None,
) -> None:
    """Poll until ``cond`` holds; fail at once if every worker has exited, or after ``timeout``
    seconds without a change of ``progress`` (a slow machine is waited for, a stall is not)."""
    deadline = time.monotonic() + timeout
    seen = progress() if progress else None
    while time.monotonic() < deadline:
        if cond():
            return
        if all(p.poll() is not None for p in procs):
            raise AssertionError(f"every worker exited while waiting for {what}\n{logs(procs)}")
        time.sleep(0.1)
        if progress is not None and (now := progress()) != seen:
            seen, deadline = now, time.monotonic() + timeout
    raise AssertionError(f"timed out waiting for {what}\n{logs(procs)}")


def pending(km: Kgmem, arun: Any, ns: str) -> int:
    return int(arun(repository.get_pending_summary(km.graph, namespace=ns))["pending"])


def drained(km: Kgmem, arun: Any, ns: str) -> bool:
    return pending(km, arun, ns) == 0


def episodes(km: Kgmem, arun: Any, ns: str) -> list[dict[str, Any]]:
    rows = arun(transfer_repository.find_export_nodes(km.graph, namespace=ns, after="", limit=5000))
    return [r["props"] for r in rows if "Episode" in r["labels"]]


def assert_each_turn_once_extracted_once(km: Kgmem, arun: Any, ns: str, n: int) -> None:
    eps = episodes(km, arun, ns)
    per_turn = Counter(e["turn_id"] for e in eps)
    assert len(per_turn) == n and set(per_turn.values()) == {1}, per_turn.most_common(3)
    assert all(e["extracted"] for e in eps)
    assert Counter(e["attempts"] for e in eps) == {1: n}  # claimed once each, never twice


def test_two_workers_extract_overlapping_concurrent_observes_exactly_once(
    workers: list[subprocess.Popen[bytes]], worker_km: Kgmem, km: Kgmem, arun: Any
) -> None:
    names = [f"wk-{uuid.uuid4().hex[:10]}" for _ in range(3)]
    n = 18
    convo = {ns: turns(f"s-{ns}", n) for ns in names}
    # Overlapping slices, sent concurrently, twice over: each turn arrives 2-6 times.
    slices = [(0, 8), (4, 12), (8, 18), (0, 18)]

    async def send() -> None:
        calls = [
            worker_km.observe(convo[ns][a:b], namespace=ns, flush=True)
            for _ in range(2)
            for ns in names
            for a, b in slices
        ]
        reports = await asyncio.gather(*calls)
        assert {r.status for r in reports} == {"pending"}
        assert all(r.extraction is None for r in reports)

    try:
        arun(send())
        for ns in names:
            wait_until(functools.partial(drained, km, arun, ns), f"{ns} extracted", workers)
        for ns in names:
            assert_each_turn_once_extracted_once(km, arun, ns, n)
            lease = arun(extraction_repository.get_extraction_lease(km.graph, namespace=ns))
            assert lease is not None and lease["claims"] >= 1 and lease["holder"] is None
        assert all(p.poll() is None for p in workers)  # still serving
        stop_all(workers)  # SIGTERM: each finishes its batch, lets go of its lease, exits 0
        assert [p.returncode for p in workers] == [0, 0]
        held = arun(extraction_repository.get_extraction_leases(km.graph, now=datetime.now(UTC)))
        assert held["held"] == 0
    finally:
        for ns in names:
            arun(km.wipe_namespace(ns))


def test_a_worker_killed_mid_batch_loses_nothing(
    workers: list[subprocess.Popen[bytes]], worker_km: Kgmem, km: Kgmem, arun: Any
) -> None:
    ns = f"wk-kill-{uuid.uuid4().hex[:8]}"
    n = 320  # five batches: the kill lands with work left
    try:
        report = arun(worker_km.observe(turns(f"s-{ns}", n), namespace=ns))
        assert report.trigger == "max_turns" and report.status == "pending"
        by_pid = {p.pid: p for p in workers}
        holder: list[str] = []

        def some_done_under_a_lease() -> bool:
            lease = arun(extraction_repository.get_extraction_lease(km.graph, namespace=ns))
            left = pending(km, arun, ns)
            if lease and lease["holder"] and 0 < left < n:
                holder.append(str(lease["holder"]))
                return True
            return False

        wait_until(some_done_under_a_lease, "a worker to commit a first batch", workers)
        victim = by_pid[int(holder[-1].split(":")[1])]
        victim.send_signal(signal.SIGKILL)
        victim.wait()
        left_at_kill = pending(km, arun, ns)
        assert left_at_kill > 0
        wait_until(
            functools.partial(drained, km, arun, ns),
            "the other worker to finish",
            workers,
            progress=lambda: pending(km, arun, ns),
        )
        assert_each_turn_once_extracted_once(km, arun, ns, n)
        lease = arun(extraction_repository.get_extraction_lease(km.graph, namespace=ns))
        assert lease is not None and lease["expiries"] >= 1
        assert lease["taken_over_from"] == holder[-1]
        survivor = next(p for p in workers if p is not victim)
        assert survivor.poll() is None
    finally:
        arun(km.wipe_namespace(ns))


OBSERVE = """
mutation($turns: [TurnInput!]!, $ns: String, $wait: Float!) {
  observe(turns: $turns, namespace: $ns, flush: true, waitSeconds: $wait) {
    __typename
    ... on ObserveOk {
      status trigger extractedEpisodes pendingEpisodes memoryIds waited receipts { action }
    }
    ... on Rejected { code reason }
  }
}"""


def test_observe_over_the_api_returns_at_once_or_waits_for_the_worker(
    workers: list[subprocess.Popen[bytes]], server_settings: Settings, km: Kgmem, arun: Any
) -> None:
    ns = f"wk-api-{uuid.uuid4().hex[:8]}"
    # A fresh worker loads its models on its first batch (tens of seconds on a busy machine):
    # the cap on the wait is raised so that the wait, not the cap, is what is tested.
    settings = {"api_keys": {ADMIN_KEY: ["*"]}, "observe_max_wait_s": 300.0}
    app = create_app(server_settings.model_copy(update=settings))
    payload = [
        {"text": t.text, "speaker": t.speaker, "turnId": t.turn_id, "sessionId": t.session_id}
        for t in turns(f"s-{ns}", 6)
    ]
    headers = {"Authorization": f"Bearer {ADMIN_KEY}"}

    async def session() -> tuple[dict[str, Any], float, dict[str, Any], str]:
        async with running(app) as client:

            async def observe(batch: list[dict[str, Any]], wait: float) -> dict[str, Any]:
                body = {"query": OBSERVE, "variables": {"turns": batch, "ns": ns, "wait": wait}}
                r = await client.post("/graphql", json=body, headers=headers)
                out: dict[str, Any] = r.json()["data"]["observe"]
                return out

            t0 = time.perf_counter()
            fast = await observe(payload[:3], 0.0)
            elapsed = time.perf_counter() - t0
            waited = await observe(payload[3:], 240.0)
            metrics = (await client.get("/metrics")).text
            return fast, elapsed, waited, metrics

    try:
        fast, elapsed, waited, metrics = arun(session())
        assert fast["__typename"] == "ObserveOk", fast
        assert (fast["status"], fast["waited"], fast["receipts"]) == ("pending", False, [])
        assert fast["pendingEpisodes"] == 3 and fast["extractedEpisodes"] == 0
        assert elapsed < 5.0, elapsed  # stored and answered; no models ran in this process
        assert waited["status"] == "extracted" and waited["waited"], waited
        assert (waited["extractedEpisodes"], waited["pendingEpisodes"]) == (3, 0)
        assert waited["memoryIds"], waited  # facts about a city: memories were derived
        assert pending(km, arun, ns) == 0  # the first call's turns went with the same batch
        values = dict(
            line.rsplit(" ", 1) for line in metrics.splitlines() if line.startswith("kgmem_extr")
        )
        assert float(values["kgmem_extraction_stats_up"]) == 1
        assert float(values["kgmem_extraction_lag_seconds_count"]) >= 6
        assert float(values['kgmem_extraction_lag_seconds{quantile="0.5"}']) >= 0
        assert float(values["kgmem_extraction_lease_claims_total"]) >= 1
        assert "kgmem_extraction_lease_expiries_total" in values
        assert "kgmem_extraction_pending_episodes" in values
    finally:
        arun(km.wipe_namespace(ns))
