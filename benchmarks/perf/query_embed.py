"""Query-embedding micro-benchmark: where one recall question's embedding goes, with no server.

Three parts, on the first ``--queries`` LoCoMo dev questions, embedded one at a time as recall
does (the query LRU is bypassed): (1) the steps of ``OnnxEncoder`` — tokeniser (``prepare``),
ONNX Runtime run (``infer``), pooling + L2 norm (``assemble``) — as wall p50 ms; (2) ONNX Runtime
session options for a one-row batch (intra-op threads, spinning, memory arena and pattern,
optimisation level), interleaved so each sees the same load, as wall p50 / p90 and process CPU
ms per run, each checked for bit-identical output against kgmem's own session; (3) the hand-off
to the worker thread inside a running event loop (``Embedder.submit_query`` followed by ~1 ms of
the loop's own Python, as when it sends the text searches): ms from the call until the model run
is entered, with ``START_WAIT_S`` as shipped and at 0 (no wait: the worker takes the GIL only when
the loop next releases it). Record the load average beside the figures: walls move with it.

    python -m benchmarks.perf.query_embed [--queries 100] [--repeats 3] [--name query-embed]
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import time
from collections.abc import Callable
from functools import partial
from typing import Any

import numpy as np
import onnxruntime as ort

from benchmarks.common.harness import write_result
from benchmarks.common.paths import LOCOMO, add_out_argument
from kgmem.ml import embedder as embedder_module
from kgmem.ml import onnx_model
from kgmem.ml.embedder import Embedder
from kgmem.settings import Settings

OPTIONS: dict[str, dict[str, Any]] = {
    "kgmem (2 threads, no spinning)": {},
    "1 thread": {"threads": 1},
    "2 threads, spinning": {"spin": "1"},
    "no memory arena": {"arena": False},
    "no memory pattern": {"pattern": False},
    "1 thread, no arena, no pattern": {"threads": 1, "arena": False, "pattern": False},
    "extended optimisation only": {"level": ort.GraphOptimizationLevel.ORT_ENABLE_EXTENDED},
}


def session(model: bytes, threads: int = 0, spin: str = "0", **opts: Any) -> Any:
    o = ort.SessionOptions()
    o.graph_optimization_level = opts.get("level", ort.GraphOptimizationLevel.ORT_ENABLE_ALL)
    o.intra_op_num_threads = threads
    o.add_session_config_entry("session.intra_op.allow_spinning", spin)
    if "arena" in opts:
        o.enable_cpu_mem_arena = opts["arena"]
    if "pattern" in opts:
        o.enable_mem_pattern = opts["pattern"]
    return ort.InferenceSession(model, o, providers=["CPUExecutionProvider"])


def timed(fn: Callable[[], Any]) -> tuple[Any, float]:
    t = time.perf_counter()
    out = fn()
    return out, (time.perf_counter() - t) * 1000


def steps(model: Any, questions: list[str], repeats: int) -> dict[str, float]:
    walls: dict[str, list[float]] = {"prepare": [], "infer": [], "assemble": []}
    for _ in range(repeats):
        for q in questions:
            batches, w = timed(partial(model.prepare, [q]))
            walls["prepare"].append(w)
            hidden, w = timed(partial(model.infer, batches))
            walls["infer"].append(w)
            _, w = timed(partial(model.assemble, 1, batches, hidden))
            walls["assemble"].append(w)
    return {k: round(float(np.median(v)), 3) for k, v in walls.items()}


def options(model: Any, body: bytes, questions: list[str], repeats: int) -> dict[str, Any]:
    feeds = [model.prepare([q])[0][1] for q in questions]
    reference = [model.infer([([0], f)])[0] for f in feeds]
    sessions = {name: session(body, **opts) for name, opts in OPTIONS.items()}
    walls: dict[str, list[float]] = {n: [] for n in sessions}
    cpu: dict[str, list[float]] = {n: [] for n in sessions}
    same = dict.fromkeys(sessions, True)
    for s in sessions.values():  # warm-up: arenas, memory patterns, page faults
        for f in feeds[:10]:
            s.run(None, f)
    for _ in range(repeats):
        for name, s in sessions.items():
            c0 = time.process_time()
            for f, ref in zip(feeds, reference, strict=True):
                outs, w = timed(partial(s.run, None, f))
                out = outs[0]
                walls[name].append(w)
                same[name] = same[name] and bool(np.array_equal(out, ref))
            cpu[name].append((time.process_time() - c0) * 1000 / len(feeds))
    return {
        n: {
            "wall_p50": round(float(np.median(walls[n])), 3),
            "wall_p90": round(float(np.percentile(walls[n], 90)), 3),
            "cpu_per_run": round(float(np.median(cpu[n])), 3),
            "identical": same[n],
        }
        for n in sessions
    }


async def handoff(emb: Embedder, questions: list[str], repeats: int) -> dict[str, float]:
    model = emb._model
    infer = model.infer
    entered: list[float] = []

    def spy(batches: Any) -> Any:
        entered.append(time.perf_counter())
        return infer(batches)

    model.infer = spy
    shipped = embedder_module.START_WAIT_S
    delays: dict[float, list[float]] = {shipped: [], 0.0: []}
    try:
        for rep in range(repeats):
            for wait in delays:
                embedder_module.START_WAIT_S = wait
                for q in questions:
                    emb.forget_queries()
                    t0 = time.perf_counter()
                    pending = emb.submit_query([f"{q} ({rep})"])
                    sum(range(60_000))  # ~1 ms of the loop's own Python, holding the GIL
                    await pending
                    delays[wait].append((entered.pop() - t0) * 1000)
    finally:
        embedder_module.START_WAIT_S = shipped
        del model.infer
    return {f"start wait {w * 1000:g} ms": round(float(np.median(v)), 3) for w, v in delays.items()}


def main(args: argparse.Namespace) -> None:
    data = json.loads(LOCOMO.read_text(encoding="utf-8"))  # recall_perf's questions, in order
    questions = [q["question"] for s in data for q in s["qa"]][: args.queries]
    emb = Embedder(Settings())
    emb.embed(["load the model"])
    model = emb._model
    path = sorted(Settings().model_cache_dir.expanduser().glob("*.onnx"))[0]
    body = onnx_model._read(path)
    assert body is not None
    load0 = os.getloadavg()
    result: dict[str, Any] = {
        "steps_wall_p50_ms": steps(model, questions, args.repeats),
        "options": options(model, body, questions, args.repeats),
        "handoff_start_delay_p50_ms": asyncio.run(handoff(emb, questions, args.repeats)),
        "load": [list(load0), list(os.getloadavg())],
    }
    md = [
        f"{len(questions)} dev questions, one per run, {args.repeats} passes; load average "
        f"{load0[0]:.2f} before, {result['load'][1][0]:.2f} after.\n",
        "Steps (wall p50 ms): "
        + ", ".join(f"{k} {v}" for k, v in result["steps_wall_p50_ms"].items()),
        "\n| session options | wall p50 ms | p90 | CPU ms per run | bit-identical |",
        "|---|---:|---:|---:|---|",
    ]
    for name, r in result["options"].items():
        cells = (r["wall_p50"], r["wall_p90"], r["cpu_per_run"], r["identical"])
        md.append(f"| {name} | " + " | ".join(str(c) for c in cells) + " |")
    md.append(
        "\nHand-off, ms from `submit_query` until the run is entered (p50), the loop then running "
        "~1 ms of Python: "
        + ", ".join(f"{k}: {v}" for k, v in result["handoff_start_delay_p50_ms"].items())
    )
    text = "\n".join(md) + "\n"
    print(text)
    write_result(args.name, text, result, args.out)


if __name__ == "__main__":
    parser = argparse.ArgumentParser(
        prog="python -m benchmarks.perf.query_embed", description=__doc__.splitlines()[0]
    )
    parser.add_argument("--queries", type=int, default=100)
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--name", default="query-embed", help="result file name (before the date)")
    add_out_argument(parser)
    main(parser.parse_args())
