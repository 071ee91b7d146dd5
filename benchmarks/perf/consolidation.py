"""Consolidation benchmark: the dream cycle's time and peak memory at 10k and 100k memories.

Builds a store of each size from real LoCoMo text (``benchmarks.common.synth``: perturbed real
embeddings, real entity names) on a private local Neo4j + GDS, then runs ``Kgmem.consolidate``
with every step and the LLM off, and reports the total and per-step seconds, what each step
changed, the Python process's peak RSS and the Neo4j JVM's peak RSS (``VmHWM``). A second run
right after shows what an idempotent rerun costs. Growth is compared with n log n. Each step's
Python CPU seconds, the server JVM's CPU seconds and statement count are recorded beside its wall
time, so what the server did and what Python did can be told apart, and compared across runs
under different load from other processes.

    python -m benchmarks.perf.consolidation --sizes 10000 100000

A 100k store takes tens of minutes to build. ``--home DIR`` keeps the server's data in DIR and
reuses a store already built there (the namespace is left in place); ``--build-only`` stops after
building. Snapshot a built home with ``cp -a DIR DIR.snap`` (the server is stopped between runs)
and restore it before each measured first run.
"""

from __future__ import annotations

import argparse
import asyncio
import math
import os
import resource
import time
from pathlib import Path
from typing import Any

from benchmarks.common.harness import local_stack, write_result
from benchmarks.common.paths import LOCOMO, add_out_argument
from benchmarks.common.synth import build_store
from kgmem.graph import lease_repository
from kgmem.input_files import read_locomo
from kgmem.lifecycle.consolidation.report import StepReport
from kgmem.local_server.launcher import LocalServer
from kgmem.service import Kgmem


def load() -> str:
    """The 1/5/15-minute load averages (the machine is shared: every timing carries them)."""
    return " ".join(f"{x:.2f}" for x in os.getloadavg())


def jvm_cpu_s(km: Kgmem) -> float:
    """The local server's CPU seconds so far (user + system, from /proc; 0 when not ours): what a
    step cost the server, which other processes' load does not inflate the way it does wall."""
    info = LocalServer(km.settings).status()
    if info is None:
        return 0.0
    try:
        with open(f"/proc/{info.pid}/stat", encoding="ascii") as fh:
            fields = fh.read().rsplit(")", 1)[1].split()
    except OSError:
        return 0.0
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def jvm_peak_mib(km: Kgmem) -> float | None:
    """The local server's peak resident memory, from /proc (None when it is not ours)."""
    info = LocalServer(km.settings).status()
    if info is None:
        return None
    try:
        with open(f"/proc/{info.pid}/status", encoding="ascii") as fh:
            for line in fh:
                if line.startswith("VmHWM:"):
                    return int(line.split()[1]) / 1024
    except OSError:
        return None
    return None


async def run_size(
    km: Kgmem, size: int, texts: list[str], *, keep: bool, build_only: bool
) -> dict[str, Any]:
    ns = f"bench-consolidate-{size}"
    present = await lease_repository.get_namespace_presence(km.graph, namespace=ns)
    build_s = 0.0
    if int(present["memories"] or 0) == 0:
        build_s = await build_store(km, ns, size, texts)
        print(f"{size}: store built in {build_s:.1f} s", flush=True)
    else:
        print(f"{size}: reusing the store in {km.settings.home}", flush=True)
    runs = []
    for attempt in () if build_only else ("first", "second"):
        cpu: dict[str, tuple[float, int, float]] = {}
        mark = [time.process_time(), float(km.graph.statements_run), jvm_cpu_s(km)]

        def progress(
            step: StepReport,
            cpu: dict[str, tuple[float, int, float]] = cpu,
            mark: list[float] = mark,
        ) -> None:
            now = [time.process_time(), float(km.graph.statements_run), jvm_cpu_s(km)]
            cpu[step.name] = (now[0] - mark[0], int(now[1] - mark[1]), now[2] - mark[2])
            mark[:] = now
            print(
                f"  {step.name}: {step.duration_s:.2f} s, JVM CPU {cpu[step.name][2]:.2f} s",
                flush=True,
            )

        t0 = time.perf_counter()
        report = await km.consolidate(ns, progress=progress)
        seconds = time.perf_counter() - t0
        steps = {
            s.name: {
                "s": round(s.duration_s, 2),
                "cpu_s": round(cpu[s.name][0], 2),
                "jvm_cpu_s": round(cpu[s.name][2], 2),
                "statements": cpu[s.name][1],
                "changed": s.changes,
                "error": s.error,
            }
            for s in report.steps
        }
        jvm = round(sum(v[2] for v in cpu.values()), 2)
        runs.append(
            {"run": attempt, "seconds": round(seconds, 2), "jvm_cpu_s": jvm, "steps": steps}
        )
        print(
            f"{size}: {attempt} run {seconds:.1f} s, JVM CPU {jvm:.1f} s (load {load()})",
            flush=True,
        )
    if not keep:
        await km.wipe_namespace(ns)
    return {
        "memories": size,
        "load": load(),
        "build_s": round(build_s, 1),
        "runs": runs,
        "python_peak_mib": round(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024, 1),
        "jvm_peak_mib": jvm_peak_mib(km),
    }


def render(results: list[dict[str, Any]]) -> str:
    lines = [
        "| memories | first run s | second run s | JVM CPU s (1st / 2nd) | python peak MiB "
        "| JVM peak MiB | load |"
    ]
    lines.append("|---:|---:|---:|---:|---:|---:|---|")
    for r in results:
        first, second = r["runs"]
        jvm = f"{r['jvm_peak_mib']:.0f}" if r["jvm_peak_mib"] else "n/a"
        lines.append(
            f"| {r['memories']} | {first['seconds']:.1f} | {second['seconds']:.1f} | "
            f"{first['jvm_cpu_s']:.1f} / {second['jvm_cpu_s']:.1f} | "
            f"{r['python_peak_mib']:.0f} | {jvm} | {r['load']} |"
        )
    if len(results) >= 2:
        a, b = results[0], results[-1]
        n0, n1 = a["memories"], b["memories"]
        growth = b["runs"][0]["seconds"] / max(a["runs"][0]["seconds"], 1e-9)
        nlogn = (n1 * math.log(n1)) / (n0 * math.log(n0))
        lines.append(
            f"\nFirst-run time grew {growth:.1f}x from {n0} to {n1} memories; n log n predicts "
            f"{nlogn:.1f}x."
        )
    for r in results:
        lines += ["", f"Steps at {r['memories']} (first run; second run s in brackets):", ""]
        lines.append("| step | s | (2nd) | python CPU s | JVM CPU s | statements | changed |")
        lines.append("|---|---:|---:|---:|---:|---:|---|")
        first, second = r["runs"]
        for name, s in first["steps"].items():
            changed = ", ".join(f"{k} {v}" for k, v in s["changed"].items() if v) or "—"
            if s["error"]:
                changed += f" (error: {s['error']})"
            lines.append(
                f"| {name} | {s['s']:.2f} | ({second['steps'][name]['s']:.2f}) | "
                f"{s['cpu_s']:.2f} | {s['jvm_cpu_s']:.2f} | {s['statements']} | {changed} |"
            )
    return "\n".join(lines) + "\n"


async def main(args: argparse.Namespace) -> None:
    texts = [t.text for c in read_locomo(Path(args.data)) for t in c.turns]
    results = []
    home = Path(args.home) if args.home else None
    async with local_stack(heap=args.heap, pagecache=args.pagecache, home=home) as km:
        for size in args.sizes:
            results.append(
                await run_size(km, size, texts, keep=home is not None, build_only=args.build_only)
            )
    if args.build_only:
        return
    write_result(args.name, render(results), {"results": results}, args.out)


if __name__ == "__main__":
    parser = argparse.ArgumentParser(
        prog="python -m benchmarks.perf.consolidation",
        description=__doc__.splitlines()[0] if __doc__ else None,
    )
    parser.add_argument("--sizes", type=int, nargs="+", default=[10_000, 100_000])
    parser.add_argument("--data", default=str(LOCOMO))
    parser.add_argument("--heap", default="4g")
    parser.add_argument("--pagecache", default="1g")
    parser.add_argument("--home", help="keep the server's data here and reuse a store built there")
    parser.add_argument("--build-only", action="store_true", help="build the stores, run nothing")
    parser.add_argument(
        "--name", default="consolidation", help="result file name (before the date)"
    )
    add_out_argument(parser)
    asyncio.run(main(parser.parse_args()))
