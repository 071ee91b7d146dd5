"""API load: concurrent GraphQL clients against the real kgmem service, with a no-loss check.

Starts a private Neo4j + GDS (``benchmarks.common.harness``), builds a store of N memories from real
LoCoMo text in a benchmark namespace (``benchmarks.common.synth``), then serves the real app
(``kgmem.api.app.create_app``) under uvicorn on a free loopback port in a child process, with an
API key scoped to that namespace, so every request goes through the key check. C concurrent
httpx clients then send R ``/graphql`` requests in total: ``recall`` with LoCoMo questions, and
(share ``--observe-share``) ``observe`` with 1–3 new turns derived from real LoCoMo turns (unique
turn ids, texts and sessions). A few warm-up requests run first and are not counted.

Reported per operation: count, errors by kind (HTTP status, GraphQL error code, ``Rejected``
code, client exception), p50/p95/p99 latency of the OK requests, requests/s; overall requests/s
and wall time; CPU seconds used by the API process, Neo4j and the client process; the load
average. Afterwards, through the gateway layer (``kgmem/graph``), it checks that every turn id
a client got an OK receipt for is exactly one ``:Episode`` in the namespace, counts episodes
against the turns sent, reports what extraction left pending, and drains it
(``Kgmem.extract_pending``).

The parts: ``plan`` (the requests and their accounting), ``clients`` (the
concurrent clients), ``server`` (the app in a child process, CPU from /proc, the git
state) and ``report`` (the Markdown); this module builds the store, runs the phases and
checks the store.

    python -m benchmarks.perf.api_load --memories 10000 --clients 16 --requests 3000 \
        --observe-share 0.2
    python -m benchmarks.perf.api_load --memories 1000 --clients 8 --requests 300   # quick check
    python -m benchmarks.perf.api_load --memories 1000 --workers 2 --observe-share 0 --dry-recall
    python -m benchmarks.perf.api_load --memories 10000 --rate 30 --requests 1800 \
        --observe-share 0.1 --extract-workers 2 --kill-worker-after 20

``--rate R`` is an open loop (R requests/s whatever the answers, each timed from when it was due)
instead of C clients each waiting for its answer. ``--extract-workers N`` serves observes in
worker mode (the API stores the turns and answers; N ``kgmem worker`` processes extract them,
``workers``): after the load the benchmark waits for the workers to drain the namespace and
reports the extraction lag of the observed turns; ``--kill-worker-after S`` SIGKILLs the first
worker S seconds into the measured phase.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import os
import random
import secrets
import time
import uuid
from collections import Counter
from collections.abc import Sequence
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import httpx

from benchmarks.common.harness import local_stack, write_result
from benchmarks.common.paths import LOCOMO, add_out_argument
from benchmarks.common.synth import build_store
from benchmarks.perf.api_load.clients import RECALL, drive, drive_open
from benchmarks.perf.api_load.plan import check_turns, percentile, plan_ops, summarize
from benchmarks.perf.api_load.report import report_md
from benchmarks.perf.api_load.server import (
    api_server,
    git_state,
    neo4j_pid,
    serve,
    tree_cpu_s,
    wait_ready,
)
from benchmarks.perf.api_load.workers import (
    extraction_lags,
    extraction_workers,
    kill_after,
    rss_mb,
    wait_drained,
)
from kgmem.graph import repository, transfer_repository
from kgmem.ingest.reports import ExtractionReport
from kgmem.input_files import read_locomo
from kgmem.records import Turn
from kgmem.service import Kgmem

EXPORT_PAGE = 2000


# --- the store check, through the gateway ----------------------------------------------------


async def episodes_in(
    km: Kgmem, namespace: str
) -> tuple[Counter[str], set[str], Counter[str], Counter[int], list[dict[str, Any]]]:
    """(episodes per turn id, episode ids, extracted flag counts, episodes by ``attempts``, the
    episodes' properties) of a namespace, paging through the gateway's export query
    (``find_export_nodes``).

    ``attempts`` is raised by every committed extraction claim (``claim_episodes``), so an
    episode at 2 or more was extracted more than once."""
    by_turn: Counter[str] = Counter()
    ids: set[str] = set()
    flags: Counter[str] = Counter()
    attempts: Counter[int] = Counter()
    episodes: list[dict[str, Any]] = []
    after = ""
    while rows := await transfer_repository.find_export_nodes(
        km.graph, namespace=namespace, after=after, limit=EXPORT_PAGE
    ):
        for row in rows:
            if "Episode" in row["labels"]:
                props = row["props"]
                ids.add(str(props["id"]))
                by_turn[str(props.get("turn_id"))] += 1
                flags["extracted" if props.get("extracted") else "pending"] += 1
                attempts[int(props.get("attempts") or 0)] += 1
                episodes.append(props)
        after = rows[-1]["key"]
    return by_turn, ids, flags, attempts, episodes


# --- main ------------------------------------------------------------------------------------


def load_inputs(path: Path) -> tuple[list[str], list[Turn], list[str]]:
    data = json.loads(path.read_text(encoding="utf-8"))
    questions = [q["question"] for s in data for q in s["qa"] if q.get("question")]
    turns = [t for c in read_locomo(path) for t in c.turns]
    return questions, turns, [t.text for t in turns]


async def main(args: argparse.Namespace) -> dict[str, Any]:
    questions, turns, texts = load_inputs(Path(args.data))
    run_id = uuid.uuid4().hex[:6]
    ns = f"bench-api-{args.memories}"
    key = secrets.token_hex(24)
    rng = random.Random(args.seed)
    warm = plan_ops(
        args.warmup,
        args.observe_share,
        questions,
        turns,
        namespace=ns,
        run_id=run_id,
        rng=rng,
        dry=args.dry_recall,
        limit=args.limit,
    )
    ops = plan_ops(
        args.requests,
        args.observe_share,
        questions,
        turns,
        namespace=ns,
        run_id=run_id,
        rng=rng,
        start=args.warmup,
        dry=args.dry_recall,
        limit=args.limit,
    )
    res: dict[str, Any] = {"args": vars(args), "namespace": ns, "run_id": run_id}
    res["loadavg_start"] = [round(x, 2) for x in os.getloadavg()]
    res["git"] = git_state()
    async with local_stack(heap=args.heap, pagecache=args.pagecache) as km:
        settings = km.settings
        build_s = await build_store(km, ns, args.memories, texts)
        res["build_s"] = round(build_s, 1)
        print(f"built {args.memories} memories in {build_s:.0f}s", flush=True)
        stats_before = await km.stats(namespace=ns)
        log_path = settings.home / "api.log"
        keys = {key: [ns]}
        mode = "worker" if args.extract_workers else None
        with (
            api_server(settings, keys, log_path, args.neo4j_timeout, args.workers, mode) as (
                url,
                proc,
            ),
            extraction_workers(settings, args.extract_workers, settings.home) as workers,
        ):
            limits = httpx.Limits(
                max_connections=args.clients, max_keepalive_connections=args.clients
            )
            fresh = httpx.Limits(max_keepalive_connections=0)  # each probe: a new connection
            async with httpx.AsyncClient(base_url=url, timeout=args.timeout, limits=fresh) as anon:
                t0 = time.perf_counter()
                ready = await wait_ready(anon, proc, args.workers)
                res["api_ready_s"] = round(time.perf_counter() - t0, 1)
                print(f"API ready on {url} in {res['api_ready_s']}s", flush=True)
                # The auth path: no key and a wrong key are refused before anything runs.
                probe = {"query": RECALL, "variables": warm[0].variables if warm else {}}
                res["auth_probe"] = {
                    "no_key": (await anon.post("/graphql", json=probe)).status_code,
                    "bad_key": (
                        await anon.post("/graphql", json=probe, headers={"X-API-Key": "x" * 32})
                    ).status_code,
                }
                res["limits"] = ready.get("limits")
            headers = {"Authorization": f"Bearer {key}"}
            async with httpx.AsyncClient(
                base_url=url, timeout=args.timeout, limits=limits, headers=headers
            ) as client:
                warm_out, warm_s = await drive(client, warm, args.clients)
                print(
                    f"warm-up: {len(warm_out)} requests in {warm_s:.1f}s, "
                    f"errors {Counter(o.error for o in warm_out if o.error)}",
                    flush=True,
                )
                npid = neo4j_pid(settings)

                def cpu_now() -> tuple[float, ...]:
                    return (
                        tree_cpu_s(proc.pid),
                        tree_cpu_s(npid) if npid else 0.0,
                        time.process_time(),
                    )

                cpu0 = cpu_now()
                workers_cpu0 = [tree_cpu_s(w.pid) for w in workers]
                res["loadavg_before"] = [round(x, 2) for x in os.getloadavg()]
                killer = (
                    asyncio.create_task(kill_after(workers[0], args.kill_worker_after))
                    if workers and args.kill_worker_after is not None
                    else None
                )
                if args.rate:
                    outcomes, wall = await drive_open(client, ops, args.rate, progress=True)
                else:
                    outcomes, wall = await drive(client, ops, args.clients, progress=True)
                res["loadavg_after"] = [round(x, 2) for x in os.getloadavg()]
                cpu1 = cpu_now()
                workers_cpu1 = [tree_cpu_s(w.pid) if w.poll() is None else 0.0 for w in workers]
                metrics = (await client.get("/metrics")).text
                if killer is not None and not killer.done():  # the load ended first: no kill
                    killer.cancel()
                killed_cpu = None
                if killer is not None:
                    with contextlib.suppress(asyncio.CancelledError):
                        killed_cpu = await killer
                res["worker_killed"] = killed_cpu is not None if killer else None
                if killed_cpu is not None:  # its CPU up to the kill
                    workers_cpu1[0] = killed_cpu
                res["worker_rss_mb"] = [rss_mb(w.pid) for w in workers if w.poll() is None]
                pending = await repository.get_pending_summary(km.graph, namespace=ns)
                t0 = time.perf_counter()
                drained: ExtractionReport | None = None
                drain_s = 0.0
                if workers:  # the workers drain what the load left, while they still run
                    drain_s, _ = await wait_drained(km, ns, args.drain_timeout)
        res["cpu_s"] = {
            name: round(b - a, 1)
            for name, a, b in zip(("api", "neo4j", "clients"), cpu0, cpu1, strict=True)
        }
        res["cpu_s"]["workers"] = round(
            sum(max(0.0, b - a) for a, b in zip(workers_cpu0, workers_cpu1, strict=True)), 1
        )
        res["server_metrics"] = [
            ln
            for ln in metrics.splitlines()
            if ln.startswith(
                (
                    "kgmem_graphql_operations_total",
                    "kgmem_writes_total",
                    "kgmem_http_requests_total",
                    "kgmem_auth_refused_total",
                    "process_resident_memory_bytes",
                )
            )
        ]
        log_text = log_path.read_text(encoding="utf-8", errors="replace")
        res["server_log_errors"] = Counter(
            ln.split(": ", 1)[-1][:160]
            for ln in log_text.splitlines()
            if " ERROR " in ln or " CRITICAL " in ln
        ).most_common(10)
        res["wall_s"] = round(wall, 1)
        res["summary"] = summarize(outcomes, wall)
        res["warmup_summary"] = summarize(warm_out, warm_s)
        everything = warm_out + outcomes
        res["requests_raw"] = [
            [
                o.op.index,
                o.op.kind,
                round(o.ms, 1),
                o.error,
                o.trigger,
                len(o.op.turn_ids),
                o.conflicts,
                o.deferred,
            ]
            for o in everything
        ]  # index, kind, ms, error, trigger, turns, conflicts, deferred; warm-up first
        res["triggers"] = dict(
            Counter(o.trigger for o in everything if o.op.kind == "observe" and o.trigger)
        )
        res["extracted_in_requests"] = sum(o.extracted for o in everything)
        res["observe_conflicts"] = sum(o.conflicts for o in everything)
        res["observe_deferred"] = sum(1 for o in everything if o.deferred)
        res["rejected_reasons"] = Counter(
            o.error for o in everything if o.error and o.error.startswith("rejected")
        ).most_common()

        # The store after the load: no turn lost or duplicated; what extraction left pending.
        if not workers:
            if args.skip_drain:  # recall only: the store's own episodes need no extraction
                drained = ExtractionReport(receipts=[], episodes=0)
            else:
                drained = await km.extract_pending(namespace=ns)
            drain_s = time.perf_counter() - t0
        pending_after = await repository.get_pending_summary(km.graph, namespace=ns)
        res["extraction"] = {
            "pending_before": int(pending["pending"]),
            "episodes": drained.episodes if drained else "by the workers",
            "receipts": dict(Counter(r.action for r in drained.receipts)) if drained else {},
            "seconds": round(drain_s, 1),
            "pending_after": int(pending_after["pending"]),
        }
        by_turn, episode_ids, flags, attempts, episodes = await episodes_in(km, ns)
        observed = {t for o in warm_out + outcomes if o.op.kind == "observe" for t in o.op.turn_ids}
        lags = extraction_lags(episodes, observed)
        res["extraction_lag_s"] = {
            "count": len(lags),
            **{f"p{q}": round(percentile(lags, q / 100), 2) for q in (50, 95, 99)},
            "max": round(max(lags), 2) if lags else None,
        }
        verify = check_turns(everything, by_turn, episode_ids)
        verify["episodes_in_namespace"] = len(episode_ids)
        verify["episode_flags_after_drain"] = dict(flags)
        verify["episodes_by_claims"] = {str(k): v for k, v in sorted(attempts.items())}
        verify["extracted_more_than_once"] = sum(v for k, v in attempts.items() if k > 1)
        res["verify"] = verify
        stats_after = await km.stats(namespace=ns)
        res["stats_before"], res["stats_after"] = stats_before, stats_after
    res["finished"] = datetime.now(UTC).isoformat(timespec="seconds")
    return res


def parse_args(argv: list[str] | None = None) -> argparse.Namespace:
    doc = __doc__ or "API load"
    parser = argparse.ArgumentParser(
        prog="python -m benchmarks.perf.api_load", description=doc.splitlines()[0]
    )
    parser.add_argument("--data", default=str(LOCOMO))
    parser.add_argument("--memories", type=int, default=1000)
    parser.add_argument("--clients", type=int, default=16)
    parser.add_argument("--requests", type=int, default=300)
    parser.add_argument("--observe-share", type=float, default=0.2)
    parser.add_argument("--warmup", type=int, default=20, help="requests before, not counted")
    parser.add_argument("--limit", type=int, default=10, help="recall limit")
    parser.add_argument("--dry-recall", action="store_true", help="recall with dry: true")
    parser.add_argument("--timeout", type=float, default=300.0, help="client timeout, seconds")
    parser.add_argument("--neo4j-timeout", type=float, default=120.0, help="API's Neo4j timeout")
    parser.add_argument(
        "--skip-drain", action="store_true", help="do not extract what is pending afterwards"
    )
    parser.add_argument("--workers", type=int, default=1, help="API processes (serve --workers)")
    parser.add_argument(
        "--rate", type=float, default=None, help="open loop: requests/s (default: closed loop)"
    )
    parser.add_argument(
        "--extract-workers",
        type=int,
        default=0,
        help="worker-mode intake with this many `kgmem worker` processes (0: inline)",
    )
    parser.add_argument(
        "--kill-worker-after", type=float, default=None, help="SIGKILL a worker after S seconds"
    )
    parser.add_argument(
        "--drain-timeout", type=float, default=900.0, help="longest wait for the workers, seconds"
    )
    parser.add_argument("--heap", default="3g")
    parser.add_argument("--pagecache", default="1g")
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--serve", type=int, metavar="PORT", help=argparse.SUPPRESS)
    add_out_argument(parser)
    return parser.parse_args(argv)


def cli(argv: Sequence[str] | None = None) -> int:
    """The command line: parse ``argv`` (default: ``sys.argv``), run, write the result."""
    arguments = parse_args(None if argv is None else list(argv))
    if arguments.serve:
        serve(arguments.serve)
        return 0
    result = asyncio.run(main(arguments))
    name = f"api-load-{arguments.memories}"
    md = report_md(result)
    print(md)
    print(json.dumps(result["verify"], indent=2))
    write_result(name, md, result, arguments.out)
    return 0


if __name__ == "__main__":
    raise SystemExit(cli())
