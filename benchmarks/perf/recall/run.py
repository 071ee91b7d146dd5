"""Recall latency at scale: p50/p95 with the query embedding included and the LLM off.

Builds stores of the given sizes from real LoCoMo text (``benchmarks.common.synth``), warms the
server up before each size's first row (``benchmarks.perf.recall.jvm_warmup``: batches of 100
recalls of questions that are never timed, cycling the variants, until the JVM's JIT compilers used
at most ``--jit-settled`` ms of CPU per recall over the last 3 batches; at least ``--jvm-warmup``
recalls before the first row, at most ``--jvm-warmup-max`` per size; a fresh JVM compiles for about
a thousand recalls, and a row timed meanwhile measured that) and reports the compilers' CPU during
each timed row; then, after 10 more recalls before each row, it
times ``Kgmem.recall`` (dry, so the store does not change between queries) for LoCoMo questions,
per variant (the default: each question's intent picks its channels, seed 004's router; every
channel forced on; vector + fulltext; the ``precise`` profile the LoCoMo quality figures use;
optionally the GDS PageRank activation, and with ``--touch`` a last, non-dry run that pays for
the touch write). Beside
p50/p95 it reports the median of each X-ray stage, the Neo4j server time (the driver's
``result_available_after + result_consumed_after``, summed over a recall's statements, so
concurrent statements add up) and the load average before and after each variant.

The walls are real walls and are never rescaled, but this shared VM's speed varies about 2x
between runs, so each row also reports figures that make two runs comparable
(``benchmarks.perf.recall.calibration``): the CPU per recall of the benchmark process (client:
embedding, fusion, scoring, the driver) and, when the benchmark started the server itself, of the
Neo4j JVM (its process group's utime + stime from /proc; "n/a" with ``--uri``), and their sum; a
fixed CPU workload timed right before and after the row (the calibration, ms: a run whose
calibration is 1.6x another's ran on a machine 1.6x slower or busier); and from /proc/stat the share
of all cores' time that was busy and that the hypervisor stole during the row, with the cores that
other processes used (busy time minus the client's and the server's CPU, over the wall).

Stores are slow to build (10k: 2-4 min, 100k: ~17 min), so they can be kept: ``--home DIR``
starts the private server on DIR's data (snapshot it with ``cp -a DIR DIR.snap`` while no server
runs), and ``--uri`` points the benchmark at a server that is already running (auth off, e.g.
``KGMEM_HOME=~/kgmem-bench KGMEM_NEO4J_AUTH=false kgmem db start``). Either way a namespace that
already holds (nearly) ``size`` memories is reused, not rebuilt.

    python -m benchmarks.perf.recall --sizes 1000 10000 100000 --queries 200
    python -m benchmarks.perf.recall --home ~/kgmem-stores --sizes 100000 --queries 200
    python -m benchmarks.perf.recall --uri bolt://127.0.0.1:7700 --sizes 100000 --queries 200
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import os
import statistics
import time
from collections.abc import AsyncIterator, Callable, Sequence
from pathlib import Path
from typing import Any

from benchmarks.common.harness import local_stack, memory_count, write_result
from benchmarks.common.paths import LOCOMO, add_out_argument
from benchmarks.common.synth import build_store
from benchmarks.perf.recall.calibration import calibrate, cpu_shares, read_cpu_ticks
from benchmarks.perf.recall.jvm_warmup import WARM_BATCH, Warmup, warm_up, warmup_md
from benchmarks.perf.server_cpu import JIT_THREADS, server_cpu_reader, thread_cpu_reader
from kgmem.input_files import read_locomo
from kgmem.recall.request import CHANNELS
from kgmem.service import Kgmem
from kgmem.settings import Settings

VARIANTS: dict[str, dict[str, Any]] = {
    "default (channels by intent)": {},
    "all channels": {"channels": CHANNELS},
    "vector+fulltext": {"channels": ("vector", "fulltext")},
    "default, profile precise": {"profile": "precise"},
    "all (GDS PageRank)": {"channels": CHANNELS, "activation": "pagerank"},
    # last: it writes (access counts, co-activation), so it runs after the read-only variants
    "default, touching (not dry)": {"dry": False},
}


def pct(values: list[float], q: float) -> float:
    values = sorted(values)
    return values[min(len(values) - 1, round(q * (len(values) - 1)))]


def load() -> list[float]:
    return [round(x, 2) for x in os.getloadavg()]


def cpu_figures(
    n: int, client_s: float, server_s: float | None, busy_s: float, wall_s: float
) -> dict[str, float | None]:
    """Per-recall CPU ms of the client, the server (None when unknown) and both, and the cores
    other processes kept busy meanwhile (None when the server's share is unknown)."""
    server_ms = None if server_s is None else round(server_s * 1000 / n, 1)
    others = None
    if server_s is not None and wall_s > 0:
        others = round(max(0.0, busy_s - client_s - server_s) / wall_s, 2)
    return {
        "client_cpu_ms_per_recall": round(client_s * 1000 / n, 1),
        "server_cpu_ms_per_recall": server_ms,
        "total_cpu_ms_per_recall": (
            None if server_s is None else round((client_s + server_s) * 1000 / n, 1)
        ),
        "others_cores": others,
    }


async def measure(
    km: Kgmem,
    ns: str,
    questions: list[str],
    warm: list[str],
    opts: dict[str, Any],
    server_cpu_s: Callable[[], float] | None = None,
    jit_s: Callable[[], float] | None = None,
) -> dict[str, Any]:
    opts = {"dry": True, **opts}
    for q in warm:  # warm-up: JIT, page cache, plan cache, projection (not the timed questions)
        await km.recall(q, namespace=ns, **opts)
    calib_before = calibrate()
    load_before = load()
    times, server, stages = [], [], []
    ticks0 = read_cpu_ticks()
    srv0 = server_cpu_s() if server_cpu_s else None
    jit0 = jit_s() if jit_s else None
    cpu0, wall0 = time.process_time(), time.perf_counter()
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
    client_s, wall_s = time.process_time() - cpu0, time.perf_counter() - wall0
    srv_s = server_cpu_s() - srv0 if server_cpu_s and srv0 is not None else None
    jit_ms = (jit_s() - jit0) * 1000 / len(questions) if jit_s and jit0 is not None else None
    ticks1 = read_cpu_ticks()
    load_after = load()
    busy_s = (ticks1.busy - ticks0.busy) / os.sysconf("SC_CLK_TCK")
    names = list(dict.fromkeys(s for t in stages for s in t))
    return {
        "p50_ms": round(pct(times, 0.5), 1),
        "p95_ms": round(pct(times, 0.95), 1),
        "mean_ms": round(statistics.fmean(times), 1),
        "server_p50_ms": round(pct(server, 0.5), 1),
        **cpu_figures(len(questions), client_s, srv_s, busy_s, wall_s),
        "jit_cpu_ms_per_recall": None if jit_ms is None else round(jit_ms, 1),
        "stage_p50_ms": {s: round(pct([t.get(s, 0.0) for t in stages], 0.5), 1) for s in names},
        "queries": len(times),
        "load_before": load_before,
        "load_after": load_after,
        "cpu_shares": cpu_shares(ticks0, ticks1),
        "calibration_before": calib_before,
        "calibration_after": calibrate(),
    }


@contextlib.asynccontextmanager
async def stack(uri: str | None, home: str | None) -> AsyncIterator[Kgmem]:
    if uri is None:
        async with local_stack(heap="3g", pagecache="1g", home=Path(home) if home else None) as km:
            yield km
        return
    async with Kgmem(Settings(neo4j_uri=uri, neo4j_auth=False, neo4j_timeout_s=120)) as km:
        await km.init_schema()
        yield km


def _na(value: float | None) -> str:
    return "n/a" if value is None else f"{value}"


COLUMNS = """\
Columns: p50/p95 are the real walls of `Kgmem.recall` (query embedding included), never
rescaled; server p50 is the driver's server time per recall. CPU ms per recall: client = this
benchmark process (`time.process_time`), server = the Neo4j JVM's process group (utime + stime
from /proc; n/a when the server was not started by the benchmark, `--uri`), total = both. Calib
= median wall / CPU ms of 3 passes of a fixed CPU workload (~50 ms CPU each) in this process
(`benchmarks.perf.recall.calibration`) right before → after the row: compare it between runs (a
calibration 1.6x another run's means a machine 1.6x slower or busier); wall above CPU = waiting for
a core, CPU itself up = a slower core. Busy / steal = share of all cores' time busy / stolen by the
hypervisor during the timed recalls; others = the cores other processes kept busy meanwhile
(busy − client − server, over the wall). JIT = CPU ms per recall of the JVM's JIT compiler
threads during the timed recalls (n/a with `--uri`): near 0 on a warm server.
"""


def report_md(rows: list[dict[str, Any]], warmups: Sequence[dict[str, Any]] = ()) -> str:
    """The result table with its column notes, the warm-up of each size and a one-line summary
    of the machine's speed."""
    md = [
        COLUMNS,
        *([warmup_md(warmups), ""] if warmups else []),
        "| memories | variant | p50 ms | p95 ms | server p50 ms | CPU ms/recall server + client"
        " = total | JIT ms | calib wall / CPU ms before → after | busy / steal % | others cores |"
        " load before → after | stage p50 ms |",
        "|---:|---|---:|---:|---:|---|---:|---|---|---:|---|---|",
    ]
    for r in rows:
        shares, cb, ca = r["cpu_shares"], r["calibration_before"], r["calibration_after"]
        md.append(
            f"| {r['memories']} | {r['variant']} | {r['p50_ms']} | {r['p95_ms']} | "
            f"{r['server_p50_ms']} | {_na(r['server_cpu_ms_per_recall'])} + "
            f"{r['client_cpu_ms_per_recall']} = {_na(r['total_cpu_ms_per_recall'])} | "
            f"{_na(r.get('jit_cpu_ms_per_recall'))} | "
            f"{cb['ms']} / {cb.get('cpu_ms')} → {ca['ms']} / {ca.get('cpu_ms')} | "
            f"{round(100 * shares['busy'])} / {round(100 * shares['steal'], 1)} | "
            f"{_na(r['others_cores'])} | {r['load_before']} → {r['load_after']} | "
            + ", ".join(f"{k} {v}" for k, v in r["stage_p50_ms"].items())
            + " |"
        )
    calibs = [c for r in rows for c in (r["calibration_before"], r["calibration_after"])]
    if calibs:
        wall, cpu = [c["ms"] for c in calibs], [c.get("cpu_ms", c["ms"]) for c in calibs]
        md.append(
            f"\nCalibration over the run: wall median {round(statistics.median(wall), 2)} ms "
            f"(range {min(wall)}–{max(wall)}), CPU median {round(statistics.median(cpu), 2)} ms "
            f"(range {min(cpu)}–{max(cpu)}); steal at most "
            f"{max(round(100 * r['cpu_shares']['steal'], 1) for r in rows)} % of the cores' time."
        )
    return "\n".join(md) + "\n"


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
    rows: list[dict[str, Any]] = []
    warmups: list[dict[str, Any]] = []
    async with stack(args.uri, args.home) as km:
        # the JVM's CPU is readable only when this process launched it (its pid in the home)
        server_cpu_s = server_cpu_reader(km) if args.uri is None else None
        jit_s = thread_cpu_reader(km, JIT_THREADS) if args.uri is None else None
        for size in args.sizes:
            ns = f"scale-{size}"
            build_s = None
            # synth writes a repeated LoCoMo text once, so a full store holds a little under size
            if await memory_count(km, ns) < 0.99 * size:
                await km.wipe_namespace(ns)
                build_s = round(await build_store(km, ns, size, texts), 1)
                print(f"built {size} memories in {build_s:.0f}s", flush=True)
            least = args.jvm_warmup if not warmups else WARM_BATCH
            budget = Warmup(least, max(least, args.jvm_warmup_max), args.jit_settled)
            pool, kinds = asked[args.queries :], list(variants.values())
            warmups.append({"memories": size} | await warm_up(km, ns, pool, kinds, budget, jit_s))
            for name, opts in variants.items():
                res = await measure(km, ns, questions, warm, opts, server_cpu_s, jit_s)
                rows.append({"memories": size, "variant": name, **res, "build_s": build_s})
                print(f"  {size} {name}: {res}", flush=True)
    md = report_md(rows, warmups)
    print(md)
    write_result(args.name, md, {"rows": rows, "warmups": warmups}, args.out)


def cli(argv: Sequence[str] | None = None) -> int:
    """The command line: parse ``argv`` (default: ``sys.argv``), run, write the result."""
    parser = argparse.ArgumentParser(
        prog="python -m benchmarks.perf.recall", description=__doc__.splitlines()[0]
    )
    parser.add_argument("--data", default=str(LOCOMO))
    parser.add_argument("--sizes", nargs="+", type=int, default=[1000, 10000])
    parser.add_argument("--queries", type=int, default=200)
    parser.add_argument("--uri", help="a running auth-off server to reuse (stores persist)")
    parser.add_argument("--home", help="keep the private server's data here; reuse stores in it")
    parser.add_argument("--pagerank", action="store_true", help="also time GDS PageRank")
    parser.add_argument("--touch", action="store_true", help="also time non-dry recalls (writes)")
    parser.add_argument(
        "--name", default="recall-latency", help="result file name (before the date)"
    )
    add_out_argument(parser)
    parser.add_argument(
        "--jvm-warmup",
        type=int,
        default=500,
        help="untimed recalls at least before the first row (the JVM compiles its hot paths)",
    )
    parser.add_argument(
        "--jvm-warmup-max", type=int, default=4000, help="untimed recalls at most per size"
    )
    parser.add_argument(
        "--jit-settled",
        type=float,
        default=3.0,
        help="warm-up ends once the JIT compilers used at most this many ms of CPU per recall"
        " over the last 3 batches of 100",
    )
    asyncio.run(main(parser.parse_args(argv)))
    return 0


if __name__ == "__main__":
    raise SystemExit(cli())
