"""The local Neo4j server's CPU time, for the benchmarks that charge the server's work.

``server_cpu(km)`` is the CPU seconds (user + system) used so far by the process group of the
Neo4j that ``km``'s local stack launched (its pid is in the home's ``server.json``), read from
/proc in 10 ms ticks; it scans every process, so call it around a run, not per statement.
``server_cpu_reader(km)`` finds the group's processes once and returns a cheap reader for
per-statement use (``trace.Tracer``). ``thread_cpu_reader(km, names)`` reads only the group's
threads of the given names (``JIT_THREADS``: the JVM's JIT compilers, which keep compiling hot
paths for the first thousand or so recalls). Linux only.
"""

from __future__ import annotations

import contextlib
import json
import os
from collections.abc import Callable
from pathlib import Path

from kgmem.service import Kgmem

# HotSpot's compiler threads, as /proc names them (the kernel keeps 15 characters of a name)
JIT_THREADS = ("C1 CompilerThre", "C2 CompilerThre")


def server_cpu(km: Kgmem) -> float:
    """CPU seconds (user + system) used so far by the local Neo4j's process group."""
    return server_cpu_reader(km)()


def _group_stats(km: Kgmem) -> list[Path]:
    """The /proc stat files of the processes in the local Neo4j's process group (its pid is in
    the home's ``server.json``)."""
    info = json.loads((km.settings.home / "server.json").read_text(encoding="utf-8"))
    stats = []
    for stat in Path("/proc").glob("[0-9]*/stat"):
        with contextlib.suppress(OSError):
            if int(stat.read_text(encoding="ascii").rsplit(")", 1)[1].split()[2]) == info["pid"]:
                stats.append(stat)
    return stats


def _cpu_ticks(text: str) -> int:
    fields = text.rsplit(")", 1)[1].split()
    return int(fields[11]) + int(fields[12])  # fields 14, 15 of stat: utime, stime


def server_cpu_reader(km: Kgmem) -> Callable[[], float]:
    """``server_cpu`` for per-statement use: the process group's pids are found once, so each
    reading is a few small reads of /proc rather than a scan of every process."""
    stats, tick = _group_stats(km), os.sysconf("SC_CLK_TCK")

    def read() -> float:
        total = 0
        for stat in stats:
            with contextlib.suppress(OSError):
                total += _cpu_ticks(stat.read_text(encoding="ascii"))
        return total / tick

    return read


def thread_cpu_reader(km: Kgmem, names: tuple[str, ...]) -> Callable[[], float]:
    """CPU seconds (user + system) used so far by the threads named ``names`` of the local
    Neo4j's process group. The threads are listed again at each reading, since the JVM may start
    and stop compiler threads; a thread that ended meanwhile takes its seconds with it, so a
    difference of two readings can only undercount."""
    tasks, tick = [stat.parent / "task" for stat in _group_stats(km)], os.sysconf("SC_CLK_TCK")

    def read() -> float:
        total = 0
        for task in tasks:
            for stat in task.glob("*/stat"):
                with contextlib.suppress(OSError):
                    text = stat.read_text(encoding="ascii")
                    if text[text.index("(") + 1 : text.rindex(")")] in names:
                        total += _cpu_ticks(text)
        return total / tick

    return read
