"""The API load benchmark's extraction workers: ``extraction_workers`` runs N ``kgmem worker
--no-consolidation`` processes beside the API (which then only stores the turns an observe sends:
worker-mode intake), ``kill_after`` SIGKILLs one of them mid-run (its batch never commits, its
lease expires after ``extraction_lease_s``, 15 s here, and another worker finishes the namespace),
``wait_drained`` waits until the workers have extracted every pending turn of the namespace, and
``extraction_lags`` reads each observed episode's lag (turn stored → its memories committed, both
on the server's clock) from the episodes' own properties, so the figure covers exactly the
benchmark's turns.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import signal
import subprocess
import sys
import time
from collections.abc import Iterable, Iterator
from datetime import datetime
from pathlib import Path
from typing import Any

from benchmarks.perf.api_load.server import ROOT, stack_env, tree_cpu_s
from kgmem.graph import repository
from kgmem.service import Kgmem
from kgmem.settings import Settings


def worker_env(settings: Settings) -> dict[str, str]:
    env = stack_env(settings)
    # a killed worker's namespace passes to another after this long
    env["KGMEM_EXTRACTION_LEASE_S"] = os.environ.get("KGMEM_EXTRACTION_LEASE_S", "15")
    return env


@contextlib.contextmanager
def extraction_workers(
    settings: Settings, count: int, log_dir: Path
) -> Iterator[list[subprocess.Popen[bytes]]]:
    """``count`` extraction-only workers (``kgmem worker --no-consolidation``), each logging to
    ``log_dir/worker-I.log``; SIGTERM (graceful: the batch in hand finishes) at the end."""
    procs: list[subprocess.Popen[bytes]] = []
    env = worker_env(settings)
    try:
        for i in range(count):
            with open(log_dir / f"worker-{i}.log", "wb") as log:
                procs.append(
                    subprocess.Popen(
                        [sys.executable, "-m", "kgmem", "worker", "--no-consolidation"],
                        cwd=ROOT,
                        env=env,
                        stdout=log,
                        stderr=subprocess.STDOUT,
                    )
                )
        yield procs
    finally:
        for p in procs:
            if p.poll() is None:
                p.send_signal(signal.SIGTERM)
        for p in procs:
            try:
                p.wait(timeout=120)
            except subprocess.TimeoutExpired:
                p.kill()
                p.wait()


async def kill_after(proc: subprocess.Popen[bytes], seconds: float) -> float | None:
    """SIGKILL ``proc`` after ``seconds`` (a worker dies mid-batch); the CPU seconds it had used
    by then, or None if it had already exited."""
    await asyncio.sleep(seconds)
    if proc.poll() is not None:
        return None
    used = tree_cpu_s(proc.pid)
    proc.send_signal(signal.SIGKILL)
    proc.wait()
    return used


async def wait_drained(km: Kgmem, namespace: str, timeout_s: float) -> tuple[float, int]:
    """Wait until no turn of ``namespace`` waits for extraction; (seconds waited, pending left
    when the timeout ran out, 0 if drained)."""
    t0 = time.perf_counter()
    pending = -1
    while time.perf_counter() - t0 < timeout_s:
        summary = await repository.get_pending_summary(km.graph, namespace=namespace)
        pending = int(summary["pending"])
        if pending == 0:
            break
        await asyncio.sleep(0.5)
    return time.perf_counter() - t0, max(pending, 0)


def rss_mb(pid: int) -> float | None:
    """Resident set size of a process in MB (None if it is gone)."""
    with contextlib.suppress(OSError, ValueError, IndexError):
        for line in Path(f"/proc/{pid}/status").read_text().splitlines():
            if line.startswith("VmRSS:"):
                return round(int(line.split()[1]) / 1024, 1)
    return None


def _instant(value: Any) -> datetime | None:
    if value is None:
        return None
    native = value.to_native() if hasattr(value, "to_native") else value
    return native if isinstance(native, datetime) else None


def extraction_lags(episodes: Iterable[dict[str, Any]], turn_ids: set[str]) -> list[float]:
    """Seconds from stored to committed of each episode of ``turn_ids`` that was extracted."""
    lags: list[float] = []
    for props in episodes:
        if str(props.get("turn_id")) not in turn_ids:
            continue
        stored, committed = _instant(props.get("stored_at")), _instant(props.get("committed_at"))
        if stored is not None and committed is not None:
            lags.append((committed - stored).total_seconds())
    return lags
