"""Recall latency at scale: p50/p95 with the query embedding included and the LLM off.

Builds stores of the given sizes from real LoCoMo text (``benchmarks.synth``), warms up, then
times ``Kgmem.recall`` (dry, so the store does not change between queries) for LoCoMo questions,
per variant (default channels, vector + fulltext, optionally the GDS PageRank activation, and
with ``--touch`` a last, non-dry run that pays for the touch write). Beside
p50/p95 it reports the median of each X-ray stage, the Neo4j server time (the driver's
``result_available_after + result_consumed_after``, summed over a recall's statements, so
concurrent statements add up) and the load average before and after each variant.

Stores are slow to build (10k: 2-4 min, 100k: ~17 min), so they can be kept: ``--home DIR``
starts the private server on DIR's data (snapshot it with ``cp -a DIR DIR.snap`` while no server
runs), and ``--uri`` points the benchmark at a server that is already running (auth off, e.g.
``KGMEM_HOME=/tmp/x KGMEM_NEO4J_AUTH=false kgmem db start``). Either way a namespace that already
holds (nearly) ``size`` memories is reused, not rebuilt.

    python -m benchmarks.recall_perf --sizes 1000 10000 100000 --queries 200
    python -m benchmarks.recall_perf --home /tmp/stores --sizes 100000 --queries 200
    python -m benchmarks.recall_perf --uri bolt://127.0.0.1:7700 --sizes 100000 --queries 200
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import os
import statistics
import time
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

from benchmarks.harness import LOCOMO, local_stack, write_result
from benchmarks.synth import build_store
from kgmem.formats import read_locomo
from kgmem.graph import repository
from kgmem.service import Kgmem
from kgmem.settings import Settings

VARIANTS: dict[str, dict[str, Any]] = {
    "all channels (default)": {},
    "vector+fulltext": {"channels": ("vector", "fulltext")},
    "all (GDS PageRank)": {"activation": "pagerank"},
    # last: it writes (access counts, co-activation), so it runs after the read-only variants
    "all channels, touching (not dry)": {"dry": False},
}


def pct(values: list[float], q: float) -> float:
    values = sorted(values)
    return values[min(len(values) - 1, round(q * (len(values) - 1)))]


def load() -> list[float]:
    return [round(x, 2) for x in os.getloadavg()]


async def measure(
    km: Kgmem, ns: str, questions: list[str], warm: list[str], opts: dict[str, Any]
) -> dict[str, Any]:
    opts = {"dry": True, **opts}
    for q in warm:  # warm-up: JIT, page cache, plan cache, projection (not the timed questions)
        await km.recall(q, namespace=ns, **opts)
    load_before = load()
    times, server, stages = [], [], []
    cpu0 = time.process_time()
    for q in questions:
        # The issue times recall with its query embedding: every timed question is embedded by
        # the model, never served from the query LRU (the same questions recur across variants
        # and sizes, so a warm LRU would hide the embedder entirely).
        km.embedder.forget_queries()
        ms0 = km.graph.server_ms
        t0 = time.perf_counter()
        result = await km.recall(q, namespace=ns, **opts)
        times.append((time.perf_counter() - t0) * 1000)
        server.append(km.graph.server_ms - ms0)
        stages.append(result.xray.timings)
    cpu_ms = (time.process_time() - cpu0) * 1000 / len(questions)
    names = list(dict.fromkeys(s for t in stages for s in t))
    return {
        "p50_ms": round(pct(times, 0.5), 1),
        "p95_ms": round(pct(times, 0.95), 1),
        "mean_ms": round(statistics.fmean(times), 1),
        "server_p50_ms": round(pct(server, 0.5), 1),
        "client_cpu_ms_per_recall": round(cpu_ms, 1),
        "stage_p50_ms": {s: round(pct([t.get(s, 0.0) for t in stages], 0.5), 1) for s in names},
        "queries": len(times),
        "load_before": load_before,
        "load_after": load(),
    }


async def memory_count(km: Kgmem, ns: str) -> int:
    stats = await repository.get_namespace_stats(km.graph, namespace=ns)
    return int(stats["labels"].get("Memory") or 0)


@contextlib.asynccontextmanager
async def stack(uri: str | None, home: str | None) -> AsyncIterator[Kgmem]:
    if uri is None:
        async with local_stack(heap="3g", pagecache="1g", home=Path(home) if home else None) as km:
            yield km
        return
    async with Kgmem(Settings(neo4j_uri=uri, neo4j_auth=False, neo4j_timeout_s=120)) as km:
        await km.init_schema()
        yield km


async def main(args: argparse.Namespace) -> None:
    data = json.loads(Path(args.data).read_text())
    asked = [q["question"] for s in data for q in s["qa"]]
    questions, warm = asked[: args.queries], asked[-10:]
    texts = [t.text for c in read_locomo(Path(args.data)) for t in c.turns]
    variants = {
        k: v
        for k, v in VARIANTS.items()
        if (args.pagerank or "PageRank" not in k) and (args.touch or "touching" not in k)
    }
    rows = []
    async with stack(args.uri, args.home) as km:
        for size in args.sizes:
            ns = f"scale-{size}"
            build_s = None
            # synth writes a repeated LoCoMo text once, so a full store holds a little under size
            if await memory_count(km, ns) < 0.99 * size:
                await km.wipe_namespace(ns)
                build_s = round(await build_store(km, ns, size, texts), 1)
                print(f"built {size} memories in {build_s:.0f}s", flush=True)
            for name, opts in variants.items():
                res = await measure(km, ns, questions, warm, opts)
                rows.append({"memories": size, "variant": name, **res, "build_s": build_s})
                print(f"  {size} {name}: {res}", flush=True)
    md = [
        "| memories | variant | p50 ms | p95 ms | server p50 ms | client CPU ms | load before"
        " → after | stage p50 ms |",
        "|---:|---|---:|---:|---:|---:|---|---|",
    ]
    md += [
        f"| {r['memories']} | {r['variant']} | {r['p50_ms']} | {r['p95_ms']} | "
        f"{r['server_p50_ms']} | {r['client_cpu_ms_per_recall']} | "
        f"{r['load_before']} → {r['load_after']} | "
        + ", ".join(f"{k} {v}" for k, v in r["stage_p50_ms"].items())
        + " |"
        for r in rows
    ]
    path = write_result(args.name, "\n".join(md) + "\n", {"rows": rows})
    print("\n".join(md))
    print(f"written to {path}")


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--data", default=str(LOCOMO))
    parser.add_argument("--sizes", nargs="+", type=int, default=[1000, 10000])
    parser.add_argument("--queries", type=int, default=200)
    parser.add_argument("--uri", help="a running auth-off server to reuse (stores persist)")
    parser.add_argument("--home", help="keep the private server's data here; reuse stores in it")
    parser.add_argument("--pagerank", action="store_true", help="also time GDS PageRank")
    parser.add_argument("--touch", action="store_true", help="also time non-dry recalls (writes)")
    parser.add_argument("--name", default="recall-latency", help="result file name")
    asyncio.run(main(parser.parse_args()))
