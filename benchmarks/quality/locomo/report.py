"""LoCoMo benchmark: the report of a run.

``render_markdown`` turns a run's JSON-ready result (``locomo.run``: the ``evaluate`` result plus
date, command, machine, data and settings) into the Markdown report: the summary table of kgmem's
configurations beside the flat baselines, the provenance ceiling, per-category tables, recall
latency and stage times, and the ingest table. ``write_result`` writes it (or what another
benchmark's ``render`` makes of its result) and the JSON next to it (same stem). Only ids and
scores are ever stored, never the data set's text.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any

from benchmarks.quality.retrieval.baselines import (
    METHOD_LABELS,
    README_BASELINES,
    category_markdown,
)
from benchmarks.quality.retrieval.metrics import CATEGORIES, KS, METRICS

KGMEM_METRICS = (*METRICS, *(f"mem_r@{k}" for k in KS))


def _f(x: float) -> str:
    return "n/a" if x != x else f"{x:.3f}"


def header_lines(result: Mapping[str, Any]) -> list[str]:
    """The run's date, command, machine and server as Markdown list items."""
    m = result["machine"]
    return [
        f"- date: {result['date']}",
        f"- command: `{result['command']}`",
        f"- machine: {m['cpu']}, {m['nproc']} CPUs, {m['ram_gib']} GiB RAM, "
        f"Python {m['python']}, {m['os']}",
        f"- server: {result.get('server', {})}",
    ]


def render_markdown(result: Mapping[str, Any]) -> str:
    """The human-readable report of an ``evaluate`` result plus its run metadata."""
    lines = [
        "# LoCoMo retrieval benchmark (kgmem recall vs flat baselines)",
        "",
        *header_lines(result),
        f"- data: {result['data']} — conversations {', '.join(result['conversations'])}; "
        f"{result['questions']} questions with evidence; photo captions "
        f"{'appended' if result.get('captions', True) else 'left out'}"
        + (
            f" (first {result['limit_questions']} per conversation)"
            if result.get("limit_questions")
            else ""
        ),
        f"- kgmem recall limit K = {result['recall_limit']} memories per query; "
        f"LLM extraction: {result['settings'].get('llm_level')}",
        f"- recall options for every query: {result.get('recall_options') or 'none'}"
        + (
            " (read-only: no query changes what the next one sees)"
            if (result.get("recall_options") or {}).get("dry")
            else ""
        ),
        f"- ablations: {result['ablations']['note']}",
        f"- wall time: {result['seconds']} s",
        "",
        "## Summary (overall = categories 1–4)",
        "",
        "| method | R@5 | R@10 | hit@10 | MRR | multi-hop R@10 | temporal R@10 | "
        "open-domain R@10 | context |",
        "|---|---:|---:|---:|---:|---:|---:|---:|---|",
    ]

    def row(label: str, table: Mapping[str, Mapping[str, float]], context: str) -> str:
        o = table.get("overall", {})
        cells = [
            o.get("r@5", float("nan")),
            o.get("r@10", float("nan")),
            o.get("hit@10", float("nan")),
            o.get("mrr", float("nan")),
            table.get("multi-hop", {}).get("r@10", float("nan")),
            table.get("temporal", {}).get("r@10", float("nan")),
            table.get("open-domain", {}).get("r@10", float("nan")),
        ]
        return f"| {label} | " + " | ".join(_f(c) for c in cells) + f" | {context} |"

    for name, cfg in result["kgmem"].items():
        c = cfg["context"]
        ctx = f"{c['memories']:.1f} memories, {c['chars']:.0f} chars, {c['turns']:.1f} turns"
        lines.append(row(f"kgmem ({name})", cfg["table"], ctx))
    bc = result["baseline_context_chars"]
    for method, table in result["baselines"].items():
        ctx = f"top 10 turns ≈ {bc.get('top10', float('nan')):.0f} chars"
        lines.append(row(METHOD_LABELS[method], table, ctx))
    lines += [
        "",
        "kgmem's ranked turn list is the hits' provenance turns in hit order (de-duplicated); it "
        "can hold fewer than 10 turns, and a turn no memory derives from can never be found. The "
        "baselines rank every turn of the conversation (one document per turn, "
        '`"[session date] speaker: text"`). In the per-category tables, `mem_r@k` is the share '
        "of evidence turns among all provenance turns of the top k memories (a memory-level "
        "view: one memory may stand for several turns).",
        "",
        "Provenance ceiling (share of evidence turns that any memory derives from, i.e. the "
        "best R@k kgmem could reach whatever the ranking): "
        + ", ".join(f"{k} {v:.3f}" for k, v in result.get("provenance_ceiling", {}).items())
        + ".",
        "",
        "README baselines of the full dev split, for reference (R@5, R@10, MRR, multi-hop R@10, "
        "temporal R@10): "
        + "; ".join(
            f"{METHOD_LABELS[k]} {', '.join(f'{x:.3f}' for x in v)}"
            for k, v in README_BASELINES.items()
        ),
        "",
    ]
    for name, cfg in result["kgmem"].items():
        lat = cfg["latency_ms"]
        lines += [
            f"## kgmem ({name}) per category",
            "",
            f"Recall latency: p50 {lat['p50']:.0f} ms, p95 {lat['p95']:.0f} ms; "
            f"{cfg.get('skipped_queries', 0)} queries skipped by the pre-retrieval gate."
            + (
                " Mean stage time (ms): "
                + ", ".join(f"{k} {v:.1f}" for k, v in cfg["stage_ms"].items())
                if cfg.get("stage_ms")
                else ""
            ),
            "",
            category_markdown(cfg["table"], metrics=KGMEM_METRICS),
            "",
        ]
    for method, table in result["baselines"].items():
        lines += [f"## {METHOD_LABELS[method]} per category", "", category_markdown(table), ""]
    lines += [
        "## Ingest",
        "",
        "| conversation | sessions | turns | episodes | memories | skipped turns "
        "| turns with a memory | seconds |",
        "|---|---:|---:|---:|---:|---:|---:|---:|",
    ]
    for i in result["ingest"]:
        lines.append(
            f"| {i['sample_id']} | {i['sessions']} | {i['turns']} | {i['episodes']} | "
            f"{i['memories']} | {i['skipped_turns']} | {i.get('covered_turns', 0)} | "
            f"{'reused' if i.get('reused') else i['seconds']} |"
        )
    lines.append("")
    stages: dict[str, float] = {}
    for i in result["ingest"]:
        for k, v in i["timings"].items():
            stages[k] = stages.get(k, 0.0) + v
    if stages:
        lines.append(
            "Extraction stage time (s, summed): "
            + ", ".join(f"{k} {v:.1f}" for k, v in sorted(stages.items()))
        )
        lines.append("")
    lines.append(
        "Categories: "
        + ", ".join(f"{k} {v}" for k, v in CATEGORIES.items())
        + f". Metrics: {', '.join(METRICS)}."
    )
    return "\n".join(lines) + "\n"


def write_result(
    result: Mapping[str, Any],
    out_path: Path,
    render: Callable[[Mapping[str, Any]], str] = render_markdown,
) -> tuple[Path, Path]:
    """Markdown (``render``, the LoCoMo report by default) to ``out_path``, JSON next to it."""
    out_path.parent.mkdir(parents=True, exist_ok=True)
    out_path.write_text(render(result), encoding="utf-8")
    json_path = out_path.with_suffix(".json")
    json_path.write_text(json.dumps(result, indent=2, default=str) + "\n", encoding="utf-8")
    return out_path, json_path
