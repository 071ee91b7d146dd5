"""MCP ``recall`` overhead: the same recall in process, and through the MCP server, on one store.

Starts a private Neo4j + GDS (``benchmarks.common.harness``), builds a store of N memories from real
LoCoMo text (``benchmarks.common.synth``), loads the models, and then asks every LoCoMo question of
the run three ways, in turn (in each of the six orders in turn, so no path always runs on caches or
a JVM another just warmed): ``Kgmem.recall`` in this process; the MCP ``recall`` tool through
the SDK's in-memory client on the same ``Kgmem`` (the tool layer alone: argument validation,
the namespace check, shaping the answer, structured output); and the ``recall`` tool of a
``kgmem mcp`` subprocess over stdio (what a local host calls: JSON-RPC framing and the pipe too;
that process has its own driver and models, on the same Neo4j and store). Each is a real recall
with the same options (limit 10, not dry: the MCP tool touches its hits like the SDK does).
Reported: p50 and p95 of each, the overhead of each MCP path over the in-process p50, and the
median of the per-question differences (paired, so the JVM's state and the machine's load
cancel out). The query-embedding cache of this process is emptied before every call, as the
stdio server never has the question in its own.

    python -m benchmarks.perf.recall.mcp --memories 1000 --recalls 240
"""

from __future__ import annotations

import argparse
import asyncio
import itertools
import json
import os
import statistics
import sys
import time
from collections.abc import Awaitable, Callable
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from mcp import Client, StdioServerParameters

from benchmarks.common.harness import local_stack, write_result
from benchmarks.common.paths import LOCOMO, add_out_argument
from benchmarks.common.synth import build_store
from benchmarks.perf.api_load.run import load_inputs
from kgmem.mcp.server import StdioBackend, build_server
from kgmem.service import Kgmem

PATHS = ("in_process", "mcp_memory", "mcp_stdio")
# Every order in turn: the second of two paths in this process may find what the first left in
# its caches (keyed by the question), so each path follows each other one equally often.
ORDERS = list(itertools.permutations(PATHS))


def pct(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def stdio_env(km: Kgmem, namespace: str) -> dict[str, str]:
    s = km.settings
    return {
        **os.environ,
        "KGMEM_HOME": str(s.home),
        "KGMEM_BOLT_PORT": str(s.bolt_port),
        "KGMEM_NEO4J_URI": s.neo4j_uri,
        "KGMEM_NEO4J_AUTH": "true" if s.neo4j_auth else "false",
        "KGMEM_NAMESPACE": namespace,
    }


async def main(args: argparse.Namespace) -> dict[str, Any]:
    questions, _, texts = load_inputs(Path(args.data))
    ns = f"bench-mcp-{args.memories}"
    res: dict[str, Any] = {"args": vars(args), "loadavg_start": list(os.getloadavg())}
    async with local_stack(heap=args.heap, pagecache=args.pagecache) as km:
        res["build_s"] = round(await build_store(km, ns, args.memories, texts), 1)
        await asyncio.to_thread(km.load_models)
        asked = [questions[i % len(questions)] for i in range(args.warmup + args.recalls)]
        stdio = StdioServerParameters(
            command=sys.executable, args=["-m", "kgmem", "mcp"], env=stdio_env(km, ns)
        )
        async with (
            Client(build_server(StdioBackend(km.settings, km))) as memory,
            Client(stdio, read_timeout_seconds=600) as piped,
        ):

            async def in_process(q: str) -> int:
                return len((await km.recall(q, namespace=ns, limit=10)).hits)

            def through(client: Client) -> Callable[[str], Awaitable[int]]:
                async def call(q: str) -> int:
                    result = await client.call_tool("recall", {"query": q, "limit": 10})
                    assert not result.is_error, result.content
                    return len(result.structured_content["hits"])

                return call

            runs = {
                "in_process": in_process,
                "mcp_memory": through(memory),
                "mcp_stdio": through(piped),
            }
            times: dict[str, list[float]] = {p: [] for p in PATHS}
            # path -> the path that ran just before it for the same question ("" when first)
            after: dict[str, dict[str, list[float]]] = {p: {} for p in PATHS}
            paired: dict[str, list[float]] = {p: [] for p in PATHS[1:]}
            for i, q in enumerate(asked):
                order = ORDERS[i % len(ORDERS)]
                took: dict[str, float] = {}
                for path in order:
                    # Every path embeds the question itself: the stdio server's query cache never
                    # holds it, so this process's must not either (it would hold it for the second
                    # of the two paths that share this process).
                    km.embedder.forget_queries()
                    t0 = time.perf_counter()
                    await runs[path](q)
                    took[path] = (time.perf_counter() - t0) * 1000
                if i < args.warmup:  # models, JIT and the subprocess's first calls: not timed
                    continue
                for path in PATHS:
                    times[path].append(took[path])
                for before, path in zip(("", *order), order, strict=False):
                    after[path].setdefault(before or "first", []).append(took[path])
                for path in PATHS[1:]:
                    paired[path].append(took[path] - took["in_process"])
    base = statistics.median(times["in_process"])
    res["ms"] = {
        p: {"p50": round(statistics.median(v), 2), "p95": round(pct(v, 0.95), 2)}
        for p, v in times.items()
    }
    res["overhead_ms"] = {
        p: {
            "p50_minus_in_process_p50": round(statistics.median(times[p]) - base, 2),
            "median_paired_difference": round(statistics.median(paired[p]), 2),
        }
        for p in PATHS[1:]
    }
    res["p50_by_predecessor_ms"] = {
        p: {b: round(statistics.median(v), 2) for b, v in sorted(runs_after.items())}
        for p, runs_after in after.items()
    }
    res["loadavg_end"] = list(os.getloadavg())
    res["finished"] = datetime.now(UTC).isoformat(timespec="seconds")
    return res


def report_md(res: dict[str, Any]) -> str:
    a = res["args"]
    rows = [
        f"{a['memories']} memories, {a['recalls']} recalls per path (limit 10, not dry) after "
        f"{a['warmup']} untimed, load average {res['loadavg_start'][0]:.1f} at start, "
        f"{res['loadavg_end'][0]:.1f} at end\n",
        "| path | p50 ms | p95 ms | p50 − in-process p50 ms | median paired difference ms |",
        "|---|---:|---:|---:|---:|",
    ]
    for path in PATHS:
        m = res["ms"][path]
        o = res["overhead_ms"].get(path)
        extra = (
            f"{o['p50_minus_in_process_p50']} | {o['median_paired_difference']}" if o else "— | —"
        )
        rows.append(f"| {path} | {m['p50']} | {m['p95']} | {extra} |")
    rows += [
        "\np50 ms by the path that ran just before, on the same question:\n",
        "| path | " + " | ".join(("first", *PATHS)) + " |",
        "|---|" + "---:|" * (len(PATHS) + 1),
    ]
    for path, by in res["p50_by_predecessor_ms"].items():
        cells = [str(by.get(b, "—")) for b in ("first", *PATHS)]
        rows.append(f"| {path} | " + " | ".join(cells) + " |")
    return "\n".join(rows) + "\n"


def parse_args(argv: list[str] | None = None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(
        prog="python -m benchmarks.perf.recall.mcp",
        description="MCP recall overhead over the in-process recall",
    )
    parser.add_argument("--data", default=str(LOCOMO))
    parser.add_argument("--memories", type=int, default=1000)
    parser.add_argument("--recalls", type=int, default=200)
    parser.add_argument("--warmup", type=int, default=30)
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
    write_result(f"mcp-recall-{arguments.memories}", md, result, arguments.out)
