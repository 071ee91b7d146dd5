"""Recall latency at scale: p50/p95 with the query embedding included and the LLM off.

Builds stores of the given sizes from real LoCoMo text (``benchmarks.synth``), warms up, then
times ``Kgmem.recall`` (dry, so the store does not change between queries) for LoCoMo questions,
for the default channels and for the GDS PageRank activation variant.

    python -m benchmarks.recall_perf --sizes 1000 10000 100000 --queries 200
"""

from __future__ import annotations

import argparse
import asyncio
import json
import time
from pathlib import Path
from typing import Any

from benchmarks.harness import LOCOMO, local_stack, write_result
from benchmarks.synth import build_store
from kgmem.formats import read_locomo
from kgmem.service import Kgmem

VARIANTS: dict[str, dict[str, Any]] = {
    "vector+fulltext": {"channels": ("vector", "fulltext")},
    "all (spreading activation)": {},
    "all (GDS PageRank)": {"activation": "pagerank"},
}


def pct(values: list[float], q: float) -> float:
    values = sorted(values)
    return values[min(len(values) - 1, round(q * (len(values) - 1)))]


async def measure(km: Kgmem, ns: str, questions: list[str], opts: dict[str, Any]) -> dict[str, Any]:
    for q in questions[:10]:  # warm-up: JIT, page cache, projection
        await km.recall(q, namespace=ns, dry=True, **opts)
    times = []
    for q in questions:
        t0 = time.perf_counter()
        await km.recall(q, namespace=ns, dry=True, **opts)
        times.append((time.perf_counter() - t0) * 1000)
    return {
        "p50_ms": round(pct(times, 0.5), 1),
        "p95_ms": round(pct(times, 0.95), 1),
        "queries": len(times),
    }


async def main(args: argparse.Namespace) -> None:
    data = json.loads(Path(args.data).read_text())
    questions = [q["question"] for s in data for q in s["qa"]][: args.queries]
    texts = [t.text for c in read_locomo(Path(args.data)) for t in c.turns]
    rows = []
    async with local_stack(heap="3g", pagecache="1g") as km:
        for size in args.sizes:
            ns = f"scale-{size}"
            build_s = await build_store(km, ns, size, texts)
            print(f"built {size} memories in {build_s:.0f}s", flush=True)
            for name, opts in VARIANTS.items():
                res = await measure(km, ns, questions, opts)
                rows.append(
                    {"memories": size, "variant": name, **res, "build_s": round(build_s, 1)}
                )
                print(f"  {size} {name}: {res}", flush=True)
    md = ["| memories | variant | p50 ms | p95 ms | queries |", "|---|---|---|---|---|"]
    md += [
        f"| {r['memories']} | {r['variant']} | {r['p50_ms']} | {r['p95_ms']} | {r['queries']} |"
        for r in rows
    ]
    path = write_result("recall-latency", "\n".join(md) + "\n", {"rows": rows})
    print("\n".join(md))
    print(f"written to {path}")


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--data", default=str(LOCOMO))
    parser.add_argument("--sizes", nargs="+", type=int, default=[1000, 10000])
    parser.add_argument("--queries", type=int, default=200)
    asyncio.run(main(parser.parse_args()))
