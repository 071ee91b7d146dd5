"""Recall overlap in one process: do concurrent recalls overlap, and how long is the loop held?

Starts a private Neo4j + GDS (``benchmarks.common.harness``), builds a store of N memories from real
LoCoMo text (``benchmarks.common.synth``), loads the models, and runs the same R dry recalls (LoCoMo
questions) on one ``Kgmem`` twice: one after another, then C at a time. Meanwhile a probe task
asks the event loop to wake it every millisecond and records how late it woke: the time the
loop was held by something that did not yield (a stage run on the loop rather than in a worker
thread delays every other request of the process by as much). Reported: wall time of both
runs and their ratio (how much the concurrent recalls overlapped), the probe's p50/p99/max
delay in each, and the CPU seconds of this process and of Neo4j per recall.

    python -m benchmarks.perf.recall.overlap --memories 1000 --recalls 200 --concurrency 8
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import statistics
import time
from collections.abc import Awaitable, Callable
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from benchmarks.common.harness import local_stack, write_result
from benchmarks.common.paths import LOCOMO, add_out_argument
from benchmarks.common.synth import build_store
from benchmarks.perf.api_load.run import load_inputs
from benchmarks.perf.api_load.server import neo4j_pid, tree_cpu_s
from kgmem.service import Kgmem

TICK_S = 0.001


class LoopProbe:
    """Wakes every TICK_S and records how much later than asked it woke, in ms."""

    def __init__(self) -> None:
        self.late_ms: list[float] = []
        self._stop = False

    async def run(self) -> None:
        while not self._stop:
            t0 = time.perf_counter()
            await asyncio.sleep(TICK_S)
            self.late_ms.append((time.perf_counter() - t0 - TICK_S) * 1000)

    def stop(self) -> dict[str, float]:
        self._stop = True
        late = sorted(self.late_ms) or [0.0]
        return {
            "p50_ms": round(statistics.median(late), 2),
            "p99_ms": round(late[int(0.99 * (len(late) - 1))], 2),
            "max_ms": round(late[-1], 2),
        }


async def timed(
    km: Kgmem, run: Callable[[], Awaitable[None]], npid: int | None
) -> dict[str, float]:
    probe = LoopProbe()
    task = asyncio.create_task(probe.run())
    cpu0, neo0, t0 = time.process_time(), tree_cpu_s(npid) if npid else 0.0, time.perf_counter()
    await run()
    wall = time.perf_counter() - t0
    cpu, neo = time.process_time() - cpu0, (tree_cpu_s(npid) if npid else 0.0) - neo0
    late = probe.stop()
    await task
    return {"wall_s": round(wall, 2), "api_cpu_s": round(cpu, 2), "neo4j_cpu_s": round(neo, 2)} | {
        f"loop_late_{k}": v for k, v in late.items()
    }


async def main(args: argparse.Namespace) -> dict[str, Any]:
    questions, _, texts = load_inputs(Path(args.data))
    ns = f"bench-overlap-{args.memories}"
    res: dict[str, Any] = {"args": vars(args), "loadavg_start": list(os.getloadavg())}
    async with local_stack(heap=args.heap, pagecache=args.pagecache) as km:
        res["build_s"] = round(await build_store(km, ns, args.memories, texts), 1)
        await asyncio.to_thread(km.load_models)
        npid = neo4j_pid(km.settings)
        asked = [questions[i % len(questions)] for i in range(args.recalls)]
        for q in asked[: args.warmup]:
            await km.recall(q, namespace=ns, dry=True)

        async def one_by_one() -> None:
            for q in asked:
                await km.recall(q, namespace=ns, dry=True)

        async def together() -> None:
            gate = asyncio.Semaphore(args.concurrency)

            async def one(q: str) -> None:
                async with gate:
                    await km.recall(q, namespace=ns, dry=True)

            await asyncio.gather(*(one(q) for q in asked))

        res["sequential"] = await timed(km, one_by_one, npid)
        res["concurrent"] = await timed(km, together, npid)
    seq, con = res["sequential"], res["concurrent"]
    res["overlap"] = round(seq["wall_s"] / con["wall_s"], 2)
    res["cpu_ms_per_recall"] = {
        run: {
            "api": round(1000 * r["api_cpu_s"] / args.recalls, 1),
            "neo4j": round(1000 * r["neo4j_cpu_s"] / args.recalls, 1),
        }
        for run, r in (("sequential", seq), ("concurrent", con))
    }
    res["loadavg_end"] = list(os.getloadavg())
    res["finished"] = datetime.now(UTC).isoformat(timespec="seconds")
    return res


def report_md(res: dict[str, Any]) -> str:
    a = res["args"]
    rows = [
        f"{a['memories']} memories, {a['recalls']} dry recalls, concurrency {a['concurrency']}, "
        f"load average {res['loadavg_start'][0]:.1f} at start\n",
        "| run | wall s | recalls/s | API CPU ms/recall | Neo4j CPU ms/recall "
        "| loop late p50 / p99 / max ms |",
        "|---|---:|---:|---:|---:|---|",
    ]
    for run in ("sequential", "concurrent"):
        r, c = res[run], res["cpu_ms_per_recall"][run]
        rows.append(
            f"| {run} | {r['wall_s']} | {a['recalls'] / r['wall_s']:.1f} | {c['api']} | "
            f"{c['neo4j']} | {r['loop_late_p50_ms']} / {r['loop_late_p99_ms']} / "
            f"{r['loop_late_max_ms']} |"
        )
    rows.append(f"\nOverlap (sequential wall / concurrent wall): {res['overlap']}x\n")
    return "\n".join(rows)


def parse_args(argv: list[str] | None = None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(
        prog="python -m benchmarks.perf.recall.overlap", description="recall overlap in one process"
    )
    parser.add_argument("--data", default=str(LOCOMO))
    parser.add_argument("--memories", type=int, default=1000)
    parser.add_argument("--recalls", type=int, default=200)
    parser.add_argument("--concurrency", type=int, default=8)
    parser.add_argument("--warmup", type=int, default=20)
    parser.add_argument("--heap", default="2g")
    parser.add_argument("--pagecache", default="512m")
    add_out_argument(parser)
    return parser.parse_args(argv)


if __name__ == "__main__":
    arguments = parse_args()
    result = asyncio.run(main(arguments))
    md = report_md(result)
    print(md)
    print(json.dumps(result, indent=2))
    write_result(f"recall-overlap-{arguments.memories}", md, result, arguments.out)
