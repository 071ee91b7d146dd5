"""The ingest benchmark's Markdown report: throughput, stage split, statements, floor, gate scale.

``report(res, scale)`` renders one run of ``benchmarks.perf.ingest`` (``res``: its result record, or
None with ``--skip-ingest``; ``scale``: the ``gate_scale`` rows) as the Markdown of the result
file. ``ingest_lines`` is the ingest part — turns and memories per second, the
load average, CPU of this process and the server, the stage times, the embedder calls, every
statement's wall time (run alone or as a step of a batched write, ``statement_rows``) and server
CPU, the result fingerprints — and ``floor_lines`` the bare-write floor with the arithmetic of
whether the 75 % target is reachable on this machine. Pure: records in, lines out.
"""

from __future__ import annotations

import os
from typing import Any

from benchmarks.perf.ingest.gate_scale import gate_scale_lines

STAGES = ("signal_scan", "spacy", "extract_local", "embed", "gate", "link", "neo4j_write")


def report(res: dict[str, Any] | None, scale: list[dict[str, Any]]) -> str:
    lines = [] if res is None else ingest_lines(res)
    if scale:
        lines += gate_scale_lines(scale, shared_index=res is not None)
    return "\n".join(lines) + "\n"


def ingest_lines(res: dict[str, Any]) -> list[str]:
    la, lb = res["load_average_before"], res["load_average_after"]
    lines = [
        f"Conversations: {', '.join(res['conversations'])}; {res['turns']} turns → "
        f"{res['memories']} memories in {res['seconds']:.1f} s"
        + (
            ""
            if not res.get("cold")
            else f" (after an untimed warm-up run of the same conversations on the fresh server: "
            f"{res['cold']['seconds']:.1f} s, CPU {res['cold']['process_cpu_s']:.1f} + "
            f"{res['cold']['server_cpu_s']:.1f} s, namespaces deleted before timing)"
        )
        + ". Load average (1, 5, 15 min) "
        f"before {la[0]:.1f} {la[1]:.1f} {la[2]:.1f}, after {lb[0]:.1f} {lb[1]:.1f} {lb[2]:.1f} "
        "on 2 cores. Models loaded before timing "
        f"({res['model_load_s']:.1f} s, not counted).",
        "",
        "| figure | value |",
        "|---|---|",
        f"| turns/s end to end | {res['turns_per_s']:.2f} |",
        f"| memories/s end to end | {res['memories_per_s']:.2f} |",
        f"| CPU s end to end: this process + Neo4j server | {res['process_cpu_s']:.1f} + "
        f"{res['server_cpu_s']:.1f} |",
        f"| spaCy alone on the turns | {res['spacy_alone_s']:.1f} s wall, "
        f"{res['spacy_alone_cpu_s']:.1f} s CPU |",
        f"| embedder alone on the memory texts | {res['embed_alone_s']:.1f} s wall, "
        f"{res['embed_alone_cpu_s']:.1f} s CPU ({res['embed_alone_texts_per_s']:.0f} texts/s) |",
        f"| embedder alone on the {res['pipeline_texts']} distinct texts the pipeline embedded | "
        f"{res['pipeline_texts_alone_s']:.1f} s wall, {res['pipeline_texts_alone_cpu_s']:.1f} s "
        "CPU |",
        f"| **end-to-end / embedder-alone throughput (target ≥ 75 %)**, wall | "
        f"{res['embed_alone_ratio']:.1%} |",
        f"| the same in CPU seconds | {res['embed_alone_cpu_ratio']:.1%} |",
        f"| models alone (spaCy + embedder) / end to end, wall | {res['models_share']:.1%} |",
        f"| the same in CPU seconds | {res['models_alone_cpu_ratio']:.1%} |",
        "",
        "Per conversation: "
        + "; ".join(
            f"{c['id']} {c['turns']} turns → {c['memories']} memories in {c['seconds']} s"
            for c in res["per_conversation"]
        ),
        "",
        "Stage times (wall; the next batch's spaCy/extraction/embedding overlap the current "
        "batch's gate and write, so the stages can sum to more than the total):",
        "",
        "| stage | seconds | share of end to end |",
        "|---|---|---|",
    ]
    for stage in ("intake", *STAGES):
        sec = res["stages"].get(stage, 0.0)
        lines.append(f"| {stage} | {sec:.1f} | {sec / res['seconds']:.0%} |")
    tr = res["trace"]
    lines += [
        "",
        f"Embedder calls: {tr['embed_calls']}, {tr['embed_texts']} texts "
        f"(batch sizes {tr['embed_batch_sizes']}); texts already embedded in an earlier call: "
        f"{tr['embed_seen_before']}. Neo4j transactions: {tr['transactions']}.",
        "",
        "| statement | run | calls | seconds (wall, client side) |",
        "|---|---|---:|---:|",
    ]
    lines += [
        f"| {name} | {run} | {q['calls']} | {q['seconds']} |" for name, run, q in statement_rows(tr)
    ]
    lines += [
        "",
        "Neo4j server CPU by statement (CPU seconds of the server's process group between each "
        "statement's start and end, 10 ms ticks; `(commit)` is a batched write's CPU beyond its "
        "statements):",
        "",
        "| statement | server CPU s |",
        "|---|---:|",
    ]
    lines += [f"| {name} | {cpu:.2f} |" for name, cpu in tr["server_cpu_by_statement"].items()]
    for ns, fp in res["fingerprints"].items():
        lines += [
            "",
            f"Result of {ns}: nodes {fp['labels']}; edges {fp['edges']}; receipts "
            f"{fp['receipts']}.",
        ]
    return lines + (floor_lines(res) if res.get("floor") else [])


def statement_rows(trace: dict[str, Any]) -> list[tuple[str, str, dict[str, Any]]]:
    """Every named statement of a ``Tracer.summary()`` with how it ran, slowest first.

    The tracer files statements run on their own (the reads, the intake writes) under ``queries``
    and the steps of batched writes under ``statements``; ``queries`` also holds each batched
    write as one ``a+b+...`` transaction, which its steps already account for, so it is left out.
    """
    alone = [(n, "alone", q) for n, q in trace["queries"].items() if "+" not in n]
    batched = [(n, "batched", q) for n, q in trace["statements"].items()]
    return sorted(alone + batched, key=lambda row: -float(row[2]["seconds"]))


def floor_lines(res: dict[str, Any]) -> list[str]:
    """The floor and the arithmetic of reachability. On ``cores`` cores any ingest's wall time is
    at least (models' CPU + bare write's CPU) / cores; the embedder alone takes its CPU / p, p its
    parallelism (≤ cores), so end-to-end / embedder-alone ≤ embed CPU / total CPU × cores / p.
    With p = cores (the embedder at its best) the bound no longer depends on the load."""
    f, cores = res["floor"], os.cpu_count() or 1
    models_cpu = res["embed_alone_cpu_s"] + res["spacy_alone_cpu_s"]
    floor_cpu = f["client_cpu_s"] + f["server_cpu_s"]
    budget = res["embed_alone_s"] / 0.75
    bound = (models_cpu + floor_cpu) / cores
    e2e_cpu = res["process_cpu_s"] + res["server_cpu_s"]
    p = res["embed_alone_cpu_s"] / res["embed_alone_s"]
    return [
        "",
        f"Floor: the same final graph ({f['nodes']} nodes, {f['edges']} edges) written again "
        "under fresh ids with no gate and no reads, one UNWIND transaction for the nodes and one "
        "for the edges (median of 3; MERGE by id, so an upper bound on the bare write):",
        "",
        "| figure | value |",
        "|---|---|",
        f"| bare write, wall | {f['wall_s']:.2f} s (nodes {f['nodes_s']:.2f}, edges "
        f"{f['edges_s']:.2f}) |",
        f"| bare write, CPU: this process + Neo4j server | {f['client_cpu_s']:.2f} + "
        f"{f['server_cpu_s']:.2f} s |",
        f"| models' CPU (embedder {res['embed_alone_cpu_s']:.1f} + spaCy "
        f"{res['spacy_alone_cpu_s']:.1f}) + bare write's CPU | {models_cpu:.1f} + "
        f"{floor_cpu:.1f} = {models_cpu + floor_cpu:.1f} s |",
        f"| **best reachable end-to-end / embedder-alone, load-robust** (embedder CPU / that "
        f"total; the embedder alone on all {cores} cores) | "
        f"{res['embed_alone_cpu_s'] / (models_cpu + floor_cpu):.1%} |",
        f"| the same with this run's embedder parallelism p = {p:.2f} (× {cores}/p; load-biased) "
        f"| {min(1.0, res['embed_alone_s'] / bound):.1%} (budget {budget:.2f} s wall vs lower "
        f"bound {bound:.2f} s) |",
        f"| models / end-to-end CPU, measured (alternative reading, target ≥ 75 %) | "
        f"{models_cpu / e2e_cpu:.1%} |",
        f"| models / (models + bare write) CPU, best reachable in that reading | "
        f"{models_cpu / (models_cpu + floor_cpu):.1%} |",
    ]
