"""The API load benchmark's Markdown report: per-operation latency and errors, wall time, CPU of the
API process, Neo4j and the clients, the load average, and the no-loss check. Pure: the result
record in, Markdown out.
"""

from __future__ import annotations

import math
import os
from typing import Any


def _fmt(v: float) -> str:
    return "–" if isinstance(v, float) and math.isnan(v) else f"{v:g}"


def report_md(res: dict[str, Any]) -> str:
    a = res["args"]
    loop = (
        f"open loop at {a['rate']} requests/s"
        if a.get("rate")
        else f"{a['clients']} clients (closed loop)"
    )
    intake = (
        f"worker-mode intake, {a['extract_workers']} `kgmem worker` processes"
        + (
            f" (the first SIGKILLed {a['kill_worker_after']} s into the measured phase: "
            f"{'killed' if res.get('worker_killed') else 'had already exited'})"
            if a.get("kill_worker_after") is not None
            else ""
        )
        if a.get("extract_workers")
        else "observes extract inline"
    )
    lines = [
        f"{a['memories']} memories (built in {res['build_s']} s), {loop}, {intake}, "
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
        f"extraction workers {c.get('workers', 0)} (a killed one's up to its kill), "
        f"clients {c['clients']} (of {res['wall_s'] * (os.cpu_count() or 1):.0f} available).  ",
        f"RSS of the extraction workers at the end: {res.get('worker_rss_mb') or '–'} MB.  ",
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
        f"- pending after the load {x['pending_before']}; drained ({x['episodes']} episodes) "
        f"in {x['seconds']} s; pending after that {x['pending_after']}",
        f"- extraction lag of the observed turns, warm-up included (stored → committed, s): "
        f"{res.get('extraction_lag_s', {})}",
        f"- episodes by committed extraction claims (``attempts``): "
        f"{v.get('episodes_by_claims', {})}; extracted more than once "
        f"{v.get('extracted_more_than_once', '?')}",
    ]
    return "\n".join(lines) + "\n"
