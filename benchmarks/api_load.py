"""API load: concurrent GraphQL clients against the real kgmem service, with a no-loss check.

Starts a private Neo4j + GDS (``benchmarks.harness``), builds a store of N memories from real
LoCoMo text in a benchmark namespace (``benchmarks.synth``), then serves the real app
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

    python -m benchmarks.api_load --memories 10000 --clients 16 --requests 3000 --observe-share 0.2
    python -m benchmarks.api_load --memories 1000 --clients 8 --requests 300   # quick check
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import logging
import math
import os
import random
import secrets
import signal
import subprocess
import sys
import time
import uuid
from collections import Counter
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import httpx

from benchmarks.harness import LOCOMO, local_stack, write_result
from benchmarks.synth import build_store
from kgmem.formats import read_locomo
from kgmem.graph import repository, transfer_repository
from kgmem.graph.launcher import free_port
from kgmem.records import Turn
from kgmem.service import Kgmem
from kgmem.settings import Settings

ROOT = Path(__file__).resolve().parents[1]
RECALL = """query Recall($q: String!, $ns: String, $limit: Int!, $dry: Boolean!) {
  recall(query: $q, namespace: $ns, limit: $limit, dry: $dry) {
    __typename
    ... on RecallOk { skipped hits { memoryId score content } }
    ... on Rejected { reason code }
  }
}"""
OBSERVE = """mutation Observe($turns: [TurnInput!]!, $ns: String) {
  observe(turns: $turns, namespace: $ns) {
    __typename
    ... on ObserveOk { episodeIds newEpisodes trigger extractedEpisodes conflicts deferred
                       receipts { action } }
    ... on Rejected { reason code }
  }
}"""
OK_TYPES = {"recall": "RecallOk", "observe": "ObserveOk"}
EXPORT_PAGE = 2000


# --- pure helpers (tested in tests/unit/test_bench_api_load.py) ------------------------------


def percentile(values: Sequence[float], q: float) -> float:
    """The q-quantile (0..1) with linear interpolation between closest ranks; NaN if empty."""
    if not values:
        return math.nan
    ordered = sorted(values)
    pos = q * (len(ordered) - 1)
    lo, hi = math.floor(pos), math.ceil(pos)
    return ordered[lo] + (ordered[hi] - ordered[lo]) * (pos - lo)


@dataclass(frozen=True)
class Op:
    """One planned request: its kind, GraphQL variables, and the turn ids an observe sends."""

    index: int
    kind: str  # recall | observe
    variables: dict[str, Any]
    turn_ids: tuple[str, ...] = ()


@dataclass(frozen=True)
class Outcome:
    """What one request came back with; ``error`` is None when the result was OK."""

    op: Op
    ms: float
    error: str | None
    episode_ids: tuple[str, ...] = ()
    new_episodes: int = 0
    trigger: str | None = None
    extracted: int = 0
    hits: int = 0
    conflicts: int = 0  # extraction batches another writer claimed first (ObserveOk.conflicts)
    deferred: bool = False  # extraction gave up under contention (ObserveOk.deferred)


def plan_ops(
    count: int,
    observe_share: float,
    questions: Sequence[str],
    turns: Sequence[Turn],
    *,
    namespace: str,
    run_id: str,
    rng: random.Random,
    start: int = 0,
    dry: bool = False,
    limit: int = 10,
) -> list[Op]:
    """``count`` requests, ``round(count * observe_share)`` of them observes, shuffled.

    A recall asks a random question; an observe sends the next 1–3 source turns (a cursor over
    ``turns``, wrapping) in a session of its own, each with a unique turn id and text and the
    source turn's speaker and time (explicit, so a resend would name the same episode).
    """
    observes = round(count * observe_share)
    kinds = ["observe"] * observes + ["recall"] * (count - observes)
    rng.shuffle(kinds)
    cursor = rng.randrange(len(turns)) if turns else 0
    ops: list[Op] = []
    for offset, kind in enumerate(kinds):
        i = start + offset
        if kind == "recall":
            variables = {"q": rng.choice(questions), "ns": namespace, "limit": limit, "dry": dry}
            ops.append(Op(i, kind, variables))
            continue
        sent: list[dict[str, Any]] = []
        for j in range(rng.randint(1, 3)):
            src = turns[cursor % len(turns)]
            cursor += 1
            sent.append(
                {
                    "text": f"{src.text} (load {run_id} {i}.{j})",
                    "role": src.role,
                    "speaker": src.speaker,
                    "sessionId": f"load-{run_id}-{i}",
                    "at": src.at.isoformat() if src.at else None,
                    "turnId": f"load-{run_id}-{i}.{j}",
                }
            )
        ops.append(Op(i, kind, {"turns": sent, "ns": namespace}, tuple(t["turnId"] for t in sent)))
    return ops


def classify(op: Op, status: int, body: Any) -> tuple[str | None, dict[str, Any]]:
    """(error kind or None, the operation's result object) for one HTTP response."""
    if status != 200:
        code = body.get("error", {}).get("code") if isinstance(body, dict) else None
        return f"http_{status}" + (f":{code}" if code else ""), {}
    if not isinstance(body, dict):
        return "bad_json", {}
    if body.get("errors"):
        codes = sorted(
            {str((e.get("extensions") or {}).get("code", "unknown")) for e in body["errors"]}
        )
        return "graphql:" + "+".join(codes), {}
    result = (body.get("data") or {}).get(op.kind)
    if not isinstance(result, dict):
        return "no_data", {}
    typename = result.get("__typename")
    if typename == OK_TYPES[op.kind]:
        return None, result
    if typename == "Rejected":
        return f"rejected:{result.get('code')}", result
    return f"unexpected:{typename}", result


def summarize(outcomes: Iterable[Outcome], wall_s: float) -> dict[str, Any]:
    """Per operation (and ``all``): count, ok, errors by kind, latency percentiles of the OK
    requests (``p50_ms``…) and of every response (``p50_all_ms``…), requests/s."""
    by_kind: dict[str, list[Outcome]] = {}
    for o in outcomes:
        by_kind.setdefault(o.op.kind, []).append(o)
        by_kind.setdefault("all", []).append(o)
    out: dict[str, Any] = {}
    for kind in sorted(by_kind, key=lambda k: (k == "all", k)):
        rows = by_kind[kind]
        ok_ms = [o.ms for o in rows if o.error is None]
        all_ms = [o.ms for o in rows]
        out[kind] = {
            "count": len(rows),
            "ok": len(ok_ms),
            "errors": dict(Counter(o.error for o in rows if o.error is not None).most_common()),
            "p50_ms": round(percentile(ok_ms, 0.50), 1),
            "p95_ms": round(percentile(ok_ms, 0.95), 1),
            "p99_ms": round(percentile(ok_ms, 0.99), 1),
            "mean_ms": round(sum(ok_ms) / len(ok_ms), 1) if ok_ms else math.nan,
            "max_ms": round(max(ok_ms), 1) if ok_ms else math.nan,
            # every response, errors included (a rejected observe may have done real work)
            "p50_all_ms": round(percentile(all_ms, 0.50), 1),
            "p95_all_ms": round(percentile(all_ms, 0.95), 1),
            "p99_all_ms": round(percentile(all_ms, 0.99), 1),
            "req_per_s": round(len(rows) / wall_s, 2) if wall_s > 0 else math.nan,
        }
    return out


def check_turns(
    outcomes: Iterable[Outcome], episodes_by_turn: Counter[str], episode_ids: set[str]
) -> dict[str, Any]:
    """Each turn id a client got an OK receipt for must be exactly one episode in the store."""
    ok_turns: list[str] = []
    failed_turns: list[str] = []
    receipt_ids: list[str] = []
    for o in outcomes:
        if o.op.kind != "observe":
            continue
        if o.error is None:
            ok_turns += o.op.turn_ids
            receipt_ids += o.episode_ids
        else:
            failed_turns += o.op.turn_ids
    missing = sorted(t for t in ok_turns if episodes_by_turn[t] == 0)
    duplicated = sorted(t for t in ok_turns if episodes_by_turn[t] > 1)
    sent = set(ok_turns) | set(failed_turns)
    return {
        "turns_ok": len(ok_turns),
        "turns_ok_unique": len(set(ok_turns)),
        "turns_failed": len(failed_turns),
        "lost": len(missing),
        "duplicated": len(duplicated),
        "lost_examples": missing[:10],
        "duplicated_examples": duplicated[:10],
        "failed_turns_stored": sum(1 for t in failed_turns if episodes_by_turn[t] >= 1),
        "receipt_episode_ids": len(receipt_ids),
        "receipt_episode_ids_missing": sum(1 for e in receipt_ids if e not in episode_ids),
        "unknown_load_episodes": sum(
            n for t, n in episodes_by_turn.items() if t.startswith("load-") and t not in sent
        ),
    }


# --- the API server in a child process -------------------------------------------------------


def serve(port: int) -> None:
    """Child process: the real app from the environment's settings, under uvicorn."""
    import uvicorn

    from kgmem.api.app import create_app

    logging.basicConfig(
        level=logging.WARNING, format="%(asctime)s %(levelname)s %(name)s: %(message)s"
    )
    uvicorn.run(
        create_app(Settings()),
        host="127.0.0.1",
        port=port,
        log_level="warning",
        access_log=False,
    )


@contextlib.contextmanager
def api_server(
    settings: Settings, keys: dict[str, list[str]], log_path: Path, neo4j_timeout_s: float
) -> Iterator[tuple[str, subprocess.Popen[bytes]]]:
    """Serve the app on a free loopback port in a child process; SIGINT (graceful) at the end."""
    port = free_port()
    env = dict(os.environ)
    env.update(
        {
            "KGMEM_HOME": str(settings.home),
            "KGMEM_BOLT_PORT": str(settings.bolt_port),
            "KGMEM_NEO4J_URI": settings.neo4j_uri,
            "KGMEM_NEO4J_AUTH": "true" if settings.neo4j_auth else "false",
            "KGMEM_NEO4J_TIMEOUT_S": str(neo4j_timeout_s),
            "KGMEM_API_KEYS": json.dumps(keys),
            "KGMEM_API_PRELOAD_MODELS": "true",
        }
    )
    with open(log_path, "wb") as log:
        proc = subprocess.Popen(
            [sys.executable, "-m", "benchmarks.api_load", "--serve", str(port)],
            cwd=ROOT,
            env=env,
            stdout=log,
            stderr=subprocess.STDOUT,
        )
    try:
        yield f"http://127.0.0.1:{port}", proc
    finally:
        if proc.poll() is None:
            proc.send_signal(signal.SIGINT)
            try:
                proc.wait(timeout=60)
            except subprocess.TimeoutExpired:
                proc.kill()
                proc.wait()


async def wait_ready(client: httpx.AsyncClient, proc: subprocess.Popen[bytes]) -> dict[str, Any]:
    """Poll /readyz until Neo4j, GDS and both models are loaded (the preload finished)."""
    deadline = time.monotonic() + 600
    body: dict[str, Any] = {}
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            raise RuntimeError(f"the API process exited with {proc.returncode}")
        try:
            r = await client.get("/readyz")
            body = r.json()
            checks = body.get("checks", {})
            if r.status_code == 200 and all(
                checks.get(m, {}).get("state") == "loaded" for m in ("embedder", "spacy")
            ):
                return body
            if any(c.get("state") == "failed" for c in checks.values()):
                raise RuntimeError(f"a model failed to load: {checks}")
        except httpx.TransportError:
            pass
        await asyncio.sleep(0.5)
    raise RuntimeError(f"the API did not become ready: {body}")


# --- load ------------------------------------------------------------------------------------


async def send(client: httpx.AsyncClient, op: Op) -> Outcome:
    query = RECALL if op.kind == "recall" else OBSERVE
    t0 = time.perf_counter()
    try:
        r = await client.post("/graphql", json={"query": query, "variables": op.variables})
        ms = (time.perf_counter() - t0) * 1000
        try:
            body: Any = r.json()
        except ValueError:
            body = None
        error, result = classify(op, r.status_code, body)
    except httpx.TimeoutException:
        return Outcome(op, (time.perf_counter() - t0) * 1000, "timeout")
    except httpx.HTTPError as exc:
        return Outcome(op, (time.perf_counter() - t0) * 1000, f"client:{type(exc).__name__}")
    if op.kind == "recall":
        return Outcome(op, ms, error, hits=len(result.get("hits") or []))
    return Outcome(
        op,
        ms,
        error,
        episode_ids=tuple(result.get("episodeIds") or ()),
        new_episodes=int(result.get("newEpisodes") or 0),
        trigger=result.get("trigger"),
        extracted=int(result.get("extractedEpisodes") or 0),
        conflicts=int(result.get("conflicts") or 0),
        deferred=bool(result.get("deferred")),
    )


async def drive(
    client: httpx.AsyncClient, ops: list[Op], clients: int, progress: bool = False
) -> tuple[list[Outcome], float]:
    """Run ``ops`` with ``clients`` concurrent workers; (outcomes, wall seconds)."""
    queue: asyncio.Queue[Op] = asyncio.Queue()
    for op in ops:
        queue.put_nowait(op)
    outcomes: list[Outcome] = []
    step = max(1, len(ops) // 10)
    t0 = time.perf_counter()

    async def worker() -> None:
        while True:
            try:
                op = queue.get_nowait()
            except asyncio.QueueEmpty:
                return
            outcomes.append(await send(client, op))
            if progress and len(outcomes) % step == 0:
                errs = sum(1 for o in outcomes if o.error)
                print(
                    f"  {len(outcomes)}/{len(ops)} requests, {errs} errors, "
                    f"{time.perf_counter() - t0:.0f}s",
                    flush=True,
                )

    await asyncio.gather(*(worker() for _ in range(clients)))
    return outcomes, time.perf_counter() - t0


# --- CPU accounting (/proc) ------------------------------------------------------------------


def tree_cpu_s(pid: int) -> float:
    """User + system CPU seconds of a process and its live descendants (0 if unreadable)."""
    tick = os.sysconf("SC_CLK_TCK")
    parent: dict[int, int] = {}
    cpu: dict[int, float] = {}
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            stat = (entry / "stat").read_text()
        except OSError:
            continue
        fields = stat[stat.rindex(")") + 2 :].split()
        p = int(entry.name)
        parent[p] = int(fields[1])
        cpu[p] = (int(fields[11]) + int(fields[12])) / tick
    wanted = {pid}
    grew = True
    while grew:
        more = {p for p, pp in parent.items() if pp in wanted} - wanted
        grew = bool(more)
        wanted |= more
    return sum(cpu.get(p, 0.0) for p in wanted)


def neo4j_pid(settings: Settings) -> int | None:
    with contextlib.suppress(OSError, ValueError, KeyError):
        return int(json.loads((settings.home / "server.json").read_text())["pid"])
    return None


# --- the store check, through the gateway ----------------------------------------------------


async def episodes_in(
    km: Kgmem, namespace: str
) -> tuple[Counter[str], set[str], Counter[str], Counter[int]]:
    """(episodes per turn id, episode ids, extracted flag counts, episodes by ``attempts``) of a
    namespace, paging through the gateway's export query (``find_export_nodes``).

    ``attempts`` is raised by every committed extraction claim (``claim_episodes``), so an
    episode at 2 or more was extracted more than once."""
    by_turn: Counter[str] = Counter()
    ids: set[str] = set()
    flags: Counter[str] = Counter()
    attempts: Counter[int] = Counter()
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
        after = rows[-1]["key"]
    return by_turn, ids, flags, attempts


# --- main ------------------------------------------------------------------------------------


def git_state() -> dict[str, Any]:
    """The commit and the files that differ from it: the run measures the working tree."""

    def git(*argv: str) -> str:
        with contextlib.suppress(OSError, subprocess.SubprocessError):
            done = subprocess.run(["git", *argv], cwd=ROOT, capture_output=True, text=True)
            return done.stdout.strip()
        return ""

    return {"head": git("rev-parse", "HEAD"), "dirty": git("status", "--short").splitlines()}


def load_inputs(path: Path) -> tuple[list[str], list[Turn], list[str]]:
    data = json.loads(path.read_text(encoding="utf-8"))
    questions = [q["question"] for s in data for q in s["qa"] if q.get("question")]
    turns = [t for c in read_locomo(path) for t in c.turns]
    return questions, turns, [t.text for t in turns]


def _fmt(v: float) -> str:
    return "–" if isinstance(v, float) and math.isnan(v) else f"{v:g}"


def report_md(res: dict[str, Any]) -> str:
    a = res["args"]
    lines = [
        f"{a['memories']} memories (built in {res['build_s']} s), {a['clients']} clients, "
        f"{a['requests']} requests (observe share {a['observe_share']}, recall "
        f"{'dry' if a['dry_recall'] else 'not dry'}, limit {a['limit']}), "
        f"{a['warmup']} warm-up requests not counted.  ",
        f"Load average before/after the measured phase: {res['loadavg_before']} / "
        f"{res['loadavg_after']}.",
        "",
        "Latency of the OK requests; in brackets, of every response (errors included).",
        "",
        "| operation | count | ok | errors | p50 ms | p95 ms | p99 ms | req/s |",
        "|---|---:|---:|---|---:|---:|---:|---:|",
    ]
    for kind, s in res["summary"].items():
        errs = ", ".join(f"{k} {n}" for k, n in s["errors"].items()) or "0"
        p = [f"{_fmt(s[f'p{q}_ms'])} ({_fmt(s[f'p{q}_all_ms'])})" for q in (50, 95, 99)]
        lines.append(
            f"| {kind} | {s['count']} | {s['ok']} | {errs} | {p[0]} | {p[1]} | {p[2]} | "
            f"{s['req_per_s']} |"
        )
    c, v, x = res["cpu_s"], res["verify"], res["extraction"]
    lines += [
        "",
        f"Wall time of the measured phase: {res['wall_s']} s; overall "
        f"{res['summary']['all']['req_per_s']} req/s.  ",
        f"CPU seconds in that phase: API process {c['api']}, Neo4j {c['neo4j']}, "
        f"clients {c['clients']} (of {res['wall_s'] * (os.cpu_count() or 1):.0f} available).  ",
        f"Observe triggers: {res['triggers']}; episodes extracted inside requests: "
        f"{res['extracted_in_requests']}; claim conflicts absorbed "
        f"{res.get('observe_conflicts', 0)}, observes that deferred extraction "
        f"{res.get('observe_deferred', 0)}.",
        "",
        "No-loss check (warm-up included):",
        "",
        f"- turns sent {v['turns_ok'] + v['turns_failed']}, with an OK receipt {v['turns_ok']}; "
        f"lost {v['lost']}, duplicated {v['duplicated']}",
        f"- turns of failed observes that were stored anyway: {v['failed_turns_stored']} of "
        f"{v['turns_failed']}",
        f"- episodes in the namespace {v['episodes_in_namespace']} (turns sent "
        f"{v['turns_ok'] + v['turns_failed']}); receipt episode ids not found "
        f"{v['receipt_episode_ids_missing']}",
        f"- pending after the load {x['pending_before']}; extract_pending extracted "
        f"{x['episodes']} episodes in {x['seconds']} s; pending after that {x['pending_after']}",
        f"- episodes by committed extraction claims (``attempts``): "
        f"{v.get('episodes_by_claims', {})}; extracted more than once "
        f"{v.get('extracted_more_than_once', '?')}",
    ]
    return "\n".join(lines) + "\n"


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
        with api_server(settings, keys, log_path, args.neo4j_timeout) as (url, proc):
            limits = httpx.Limits(
                max_connections=args.clients, max_keepalive_connections=args.clients
            )
            async with httpx.AsyncClient(base_url=url, timeout=args.timeout, limits=limits) as anon:
                t0 = time.perf_counter()
                ready = await wait_ready(anon, proc)
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
                cpu0 = (
                    tree_cpu_s(proc.pid),
                    tree_cpu_s(npid) if npid else 0.0,
                    time.process_time(),
                )
                res["loadavg_before"] = [round(x, 2) for x in os.getloadavg()]
                outcomes, wall = await drive(client, ops, args.clients, progress=True)
                res["loadavg_after"] = [round(x, 2) for x in os.getloadavg()]
                cpu1 = (
                    tree_cpu_s(proc.pid),
                    tree_cpu_s(npid) if npid else 0.0,
                    time.process_time(),
                )
                metrics = (await client.get("/metrics")).text
        res["cpu_s"] = {
            name: round(b - a, 1)
            for name, a, b in zip(("api", "neo4j", "clients"), cpu0, cpu1, strict=True)
        }
        res["server_metrics"] = [
            ln
            for ln in metrics.splitlines()
            if ln.startswith(
                (
                    "kgmem_graphql_operations_total",
                    "kgmem_writes_total",
                    "kgmem_http_requests_total",
                    "kgmem_auth_refused_total",
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
        pending = await repository.get_pending_summary(km.graph, namespace=ns)
        t0 = time.perf_counter()
        drained = await km.extract_pending(namespace=ns)
        extract_s = time.perf_counter() - t0
        pending_after = await repository.get_pending_summary(km.graph, namespace=ns)
        res["extraction"] = {
            "pending_before": int(pending["pending"]),
            "episodes": drained.episodes,
            "receipts": dict(Counter(r.action for r in drained.receipts)),
            "seconds": round(extract_s, 1),
            "pending_after": int(pending_after["pending"]),
        }
        by_turn, episode_ids, flags, attempts = await episodes_in(km, ns)
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
    parser = argparse.ArgumentParser(description=doc.splitlines()[0])
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
    parser.add_argument("--heap", default="3g")
    parser.add_argument("--pagecache", default="1g")
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--serve", type=int, metavar="PORT", help=argparse.SUPPRESS)
    return parser.parse_args(argv)


if __name__ == "__main__":
    arguments = parse_args()
    if arguments.serve:
        serve(arguments.serve)
        sys.exit(0)
    result = asyncio.run(main(arguments))
    name = f"api-load-{arguments.memories}"
    md = report_md(result)
    path = write_result(name, md, result)
    print(md)
    print(json.dumps(result["verify"], indent=2))
    print(f"written to {path}")
