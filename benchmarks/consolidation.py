"""Consolidation benchmark: the dream cycle's time and peak memory at 10k and 100k memories.

Builds a store of each size from real LoCoMo text (``benchmarks.synth``: perturbed real
embeddings, real entity names) on a private local Neo4j + GDS, then runs ``Kgmem.consolidate``
with every step and the LLM off, and reports the total and per-step seconds, what each step
changed, the Python process's peak RSS and the Neo4j JVM's peak RSS (``VmHWM``). A second run
right after shows what an idempotent rerun costs. Growth is compared with n log n.

    python -m benchmarks.consolidation --sizes 10000 100000
"""

from __future__ import annotations

import argparse
import asyncio
import math
import resource
import time
from pathlib import Path
from typing import Any

from benchmarks.harness import LOCOMO, local_stack, write_result
from benchmarks.synth import build_store
from kgmem.formats import read_locomo
from kgmem.graph.launcher import LocalServer
from kgmem.service import Kgmem


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


async def run_size(km: Kgmem, size: int, texts: list[str]) -> dict[str, Any]:
    ns = f"bench-consolidate-{size}"
    build_s = await build_store(km, ns, size, texts)
    print(f"{size}: store built in {build_s:.1f} s", flush=True)
    runs = []
    for attempt in ("first", "second"):
        t0 = time.perf_counter()
        report = await km.consolidate(ns)
        seconds = time.perf_counter() - t0
        steps = {
            s.name: {"s": round(s.duration_s, 2), "changed": s.changes, "error": s.error}
            for s in report.steps
        }
        runs.append({"run": attempt, "seconds": round(seconds, 2), "steps": steps})
        print(f"{size}: {attempt} run {seconds:.1f} s", flush=True)
    await km.wipe_namespace(ns)
    return {
        "memories": size,
        "build_s": round(build_s, 1),
        "runs": runs,
        "python_peak_mib": round(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024, 1),
        "jvm_peak_mib": jvm_peak_mib(km),
    }


def render(results: list[dict[str, Any]]) -> str:
    lines = ["| memories | first run s | second run s | python peak MiB | JVM peak MiB |"]
    lines.append("|---:|---:|---:|---:|---:|")
    for r in results:
        first, second = r["runs"]
        jvm = f"{r['jvm_peak_mib']:.0f}" if r["jvm_peak_mib"] else "n/a"
        lines.append(
            f"| {r['memories']} | {first['seconds']:.1f} | {second['seconds']:.1f} | "
            f"{r['python_peak_mib']:.0f} | {jvm} |"
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
        lines += ["", f"Steps at {r['memories']} (first run):", "", "| step | s | changed |"]
        lines.append("|---|---:|---|")
        for name, s in r["runs"][0]["steps"].items():
            changed = ", ".join(f"{k} {v}" for k, v in s["changed"].items() if v) or "—"
            if s["error"]:
                changed += f" (error: {s['error']})"
            lines.append(f"| {name} | {s['s']:.2f} | {changed} |")
    return "\n".join(lines) + "\n"


async def main(args: argparse.Namespace) -> None:
    texts = [t.text for c in read_locomo(Path(args.data)) for t in c.turns]
    results = []
    async with local_stack(heap=args.heap, pagecache=args.pagecache) as km:
        for size in args.sizes:
            results.append(await run_size(km, size, texts))
    path = write_result("consolidation", render(results), {"results": results})
    print(f"wrote {path}")


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--sizes", type=int, nargs="+", default=[10_000, 100_000])
    parser.add_argument("--data", default=str(LOCOMO))
    parser.add_argument("--heap", default="4g")
    parser.add_argument("--pagecache", default="1g")
    asyncio.run(main(parser.parse_args()))
