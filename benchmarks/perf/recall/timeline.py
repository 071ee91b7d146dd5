"""Recall timeline: when, inside one recall, the query embedding and each statement start and end.

For the first ``--queries`` LoCoMo dev questions (dry recalls, query LRU bypassed, after
``--jvm-warmup`` untimed recalls of the other questions, in batches of 100, cycled: a fresh JVM
compiles for about a thousand, ``benchmarks.perf.recall.jvm_warmup``), it records the ms
after ``run_channels`` starts at which the ONNX model run is entered and left, the pooling
starts, each named statement is handed to the graph client and answered, and each stage clock
tick; it prints the median of each over the recalls, plus three
per-recall durations: ``D start delay`` (tokenised → run entered: the hand-off to the worker),
``D infer`` (the run, stretched by whatever shares the 2 cores with it) and ``D end delay`` (run
left → pooling started: the hand-back to the loop). The store must exist (``benchmarks.perf.recall``
builds and keeps them: ``--home`` of its snapshot, or ``--uri`` of a running server). Walls move
with the machine's load: compare two codes by interleaved runs, not against old figures.

    python -m benchmarks.perf.recall.timeline --uri bolt://127.0.0.1:PORT [--namespace scale-100000]
        [--channels vector fulltext episode] [--queries 100] [--jvm-warmup 1000]
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import statistics
import time
from collections import defaultdict
from typing import Any

from benchmarks.common.paths import LOCOMO
from benchmarks.perf.recall.jvm_warmup import Warmup, warm_up
from benchmarks.perf.recall.run import stack
from kgmem.graph import client
from kgmem.ml.onnx_model import OnnxEncoder
from kgmem.recall import channels, engine

Marks = list[tuple[str, float]]


def instrument(marks: Marks, t0: list[float]) -> None:
    """Wrap the encoder's steps, the statement runner, the stage clock and ``run_channels``
    (module attributes: every recall of this process records into ``marks``)."""

    def mark(name: str) -> None:
        marks.append((name, (time.perf_counter() - t0[0]) * 1000))

    run_channels = engine.run_channels  # type: ignore[attr-defined]

    async def timed_channels(*args: Any, **kwargs: Any) -> Any:
        t0[0] = time.perf_counter()
        return await run_channels(*args, **kwargs)

    engine.run_channels = timed_channels  # type: ignore[attr-defined]
    for step in ("prepare", "infer", "assemble"):
        original = getattr(OnnxEncoder, step)

        def wrapped(self: Any, *args: Any, _f: Any = original, _s: str = step) -> Any:
            mark(f"{_s}.start")
            out = _f(self, *args)
            mark(f"{_s}.end")
            return out

        setattr(OnnxEncoder, step, wrapped)
    run = client.GraphClient.run

    async def timed_run(self: Any, name: str, **params: Any) -> Any:
        mark(f"{name}.sent")
        rows = await run(self, name, **params)
        mark(f"{name}.done")
        return rows

    client.GraphClient.run = timed_run  # type: ignore[method-assign]
    tick = channels.StageClock.tick

    def timed_tick(self: Any, stage: str) -> None:
        mark(f"tick.{stage}")
        tick(self, stage)

    channels.StageClock.tick = timed_tick  # type: ignore[method-assign]


def durations(marks: Marks) -> dict[str, float]:
    first = {n: t for n, t in reversed(marks)}
    if "infer.start" not in first:
        return {}
    return {
        "D start delay": first["infer.start"] - first["prepare.end"],
        "D infer": first["infer.end"] - first["infer.start"],
        "D end delay": first["assemble.start"] - first["infer.end"],
    }


async def main(args: argparse.Namespace) -> None:
    data = json.loads(LOCOMO.read_text(encoding="utf-8"))
    questions = [q["question"] for s in data for q in s["qa"]][: args.queries]
    marks: Marks = []
    instrument(marks, [0.0])
    opts: dict[str, Any] = {"channels": tuple(args.channels)} if args.channels else {}
    others = [q["question"] for s in data for q in s["qa"]][args.queries :]
    budget = Warmup(args.jvm_warmup, args.jvm_warmup, jit_ms_per_recall=0.0)  # a fixed count
    async with stack(args.uri, args.home) as km:
        await warm_up(km, args.namespace, others, [opts], budget, jit_s=None)
        per: dict[str, list[float]] = defaultdict(list)
        cpu0 = time.process_time()
        for q in questions:
            km.embedder.forget_queries()
            marks.clear()
            await km.recall(q, namespace=args.namespace, dry=True, **opts)
            for name, value in durations(marks).items():
                per[name].append(value)
            seen = set()
            for name, t in marks:
                if name not in seen:
                    per[name].append(t)
                    seen.add(name)
        cpu = (time.process_time() - cpu0) * 1000 / len(questions)
    print(f"load {os.getloadavg()[0]:.2f}, client CPU {cpu:.1f} ms per recall")
    for name, values in sorted(per.items(), key=lambda kv: statistics.median(kv[1])):
        print(f"{name:40s} {statistics.median(values):7.2f} ms  (n={len(values)})")


if __name__ == "__main__":
    parser = argparse.ArgumentParser(
        prog="python -m benchmarks.perf.recall.timeline", description=__doc__.splitlines()[0]
    )
    parser.add_argument("--uri", help="a running auth-off server holding the stores")
    parser.add_argument("--home", help="else: start a private server on this home")
    parser.add_argument("--namespace", default="scale-100000")
    parser.add_argument("--channels", nargs="*", default=["vector", "fulltext", "episode"])
    parser.add_argument("--queries", type=int, default=100)
    parser.add_argument(
        "--jvm-warmup",
        type=int,
        default=1000,
        help="untimed recalls first (benchmarks.perf.recall.jvm_warmup)",
    )
    asyncio.run(main(parser.parse_args()))
