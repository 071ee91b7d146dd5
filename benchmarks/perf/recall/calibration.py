"""How fast and how busy the machine was around a timed benchmark row.

Latency walls on this shared VM move about 2x between runs of the same code, so a row's walls
are read beside figures that say why. ``calibrate()`` times a fixed, deterministic CPU workload
(a pure-Python integer loop and a small numpy kernel of elementwise ufuncs, which never enter a
multi-threaded BLAS; ~50 ms of CPU a pass on this machine) ``repeats`` times in this process and
reports the median and the fastest pass in wall ms and the median in CPU ms of this thread: the
same work on a slower or busier machine takes longer, so the ratio of two runs' calibrations
says how much slower one run's machine was, and wall over CPU tells waiting for a core (other
processes) from a core that itself ran slower (CPU ms up: clock, cache, a busy host).
``read_cpu_ticks`` reads the aggregate line of /proc/stat and ``cpu_shares(before, after)`` turns
two readings into the shares of all cores' time in between that were busy, idle or stolen by the
hypervisor (steal). Linux only; the workload's checksum is returned and checked across passes,
so the work cannot silently change.
"""

from __future__ import annotations

import statistics
import time
from collections.abc import Callable
from pathlib import Path
from typing import NamedTuple

import numpy as np

PY_LOOP_N = 400_000  # pure-Python iterations: ~30 ms of CPU on this machine
NP_ROWS, NP_DIM, NP_ROUNDS = 2000, 384, 20  # a recall-sized cosine-like kernel, ~20 ms of CPU


class CpuTicks(NamedTuple):
    """The aggregate ``cpu`` line of /proc/stat, in clock ticks since boot."""

    user: int
    nice: int
    system: int
    idle: int
    iowait: int
    irq: int
    softirq: int
    steal: int

    @property
    def busy(self) -> int:
        return self.user + self.nice + self.system + self.irq + self.softirq

    @property
    def total(self) -> int:
        return self.busy + self.idle + self.iowait + self.steal


def parse_cpu_line(line: str) -> CpuTicks:
    """``"cpu  3346167 3855729 591576 5011245 79479 0 25483 38508 0 0"`` → ``CpuTicks``; a
    kernel that lists fewer than eight fields (no steal) reads the missing ones as 0."""
    fields = line.split()
    if not fields or fields[0] != "cpu":
        raise ValueError(f"not the aggregate cpu line of /proc/stat: {line!r}")
    values = [int(v) for v in fields[1:9]]
    return CpuTicks(*(values + [0] * (8 - len(values))))


def read_cpu_ticks(path: Path = Path("/proc/stat")) -> CpuTicks:
    with path.open(encoding="ascii") as fh:
        return parse_cpu_line(fh.readline())


def cpu_shares(before: CpuTicks, after: CpuTicks) -> dict[str, float]:
    """Shares (0–1) of all cores' time between two readings: busy, idle (with iowait), steal.
    Time stolen by the hypervisor is time this VM's runnable threads did not get."""
    d = [a - b for a, b in zip(after, before, strict=True)]
    delta = CpuTicks(*d)
    total = delta.total
    if total <= 0:
        return {"busy": 0.0, "idle": 0.0, "steal": 0.0}
    return {
        "busy": round(delta.busy / total, 4),
        "idle": round((delta.idle + delta.iowait) / total, 4),
        "steal": round(delta.steal / total, 4),
    }


def _py_loop(n: int) -> int:
    acc = 0
    for i in range(n):
        acc = (acc + i * i) % 1_000_003
    return acc


def _np_kernel(rows: int, dim: int, rounds: int) -> int:
    rng = np.random.default_rng(12345)
    m = rng.standard_normal((rows, dim)).astype(np.float32)
    v = rng.standard_normal(dim).astype(np.float32)
    norms = np.sqrt((m * m).sum(axis=1))
    best = 0
    for r in range(rounds):
        sims = (m * v).sum(axis=1) / norms  # elementwise + reduce: no BLAS, one thread
        best = (best + int(np.argmax(sims)) + r) % 1_000_003
        v = np.roll(v, 1)
    return best


def workload() -> tuple[int, float, float]:
    """One pass of the fixed workload: (checksum, pure-Python ms, numpy ms)."""
    t0 = time.perf_counter()
    a = _py_loop(PY_LOOP_N)
    t1 = time.perf_counter()
    b = _np_kernel(NP_ROWS, NP_DIM, NP_ROUNDS)
    t2 = time.perf_counter()
    return (a * 31 + b) % 1_000_003, (t1 - t0) * 1000, (t2 - t1) * 1000


def calibrate(
    repeats: int = 3, run: Callable[[], tuple[int, float, float]] = workload
) -> dict[str, float | int]:
    """The fixed workload ``repeats`` times: the median and fastest wall ms, the median CPU ms of
    this thread (wall above CPU = the thread waited for a core), the median ms of each part."""
    passes, cpus = [], []
    for _ in range(repeats):
        c0 = time.thread_time()
        passes.append(run())
        cpus.append((time.thread_time() - c0) * 1000)
    sums = {p[0] for p in passes}
    if len(sums) != 1:
        raise RuntimeError(f"calibration workload is not deterministic: checksums {sums}")
    totals = [p[1] + p[2] for p in passes]
    return {
        "ms": round(statistics.median(totals), 1),
        "min_ms": round(min(totals), 1),
        "cpu_ms": round(statistics.median(cpus), 1),
        "python_ms": round(statistics.median(p[1] for p in passes), 1),
        "numpy_ms": round(statistics.median(p[2] for p in passes), 1),
        "checksum": passes[0][0],
    }
