"""BEAM benchmark: the report of a run.

``render_markdown`` turns ``beam.run``'s JSON-ready result into Markdown: per ability, every
metric for kgmem and BM25 side by side for each dev half and the whole split; the BM25 and
kgmem figures next to the data README's; the provenance ceiling and the share of user turns
with no memory; recall latency and the ingest table. ``summary_lines`` is the short console
version. Only ids and scores are ever stored, never the data set's text.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from benchmarks.quality.beam.data import ABILITIES, ALL, HALVES
from benchmarks.quality.beam.metrics import KS
from benchmarks.quality.locomo.recall import _percentile
from benchmarks.quality.locomo.report import _f, header_lines

CITATION = (
    'BEAM: "Beyond a Million Tokens: Benchmarking and Enhancing Long-Term Memory in LLMs" '
    "(Tavakoli et al., 2025), GitHub mohammadtavakoli78/BEAM at b2a3ee8; data CC-BY-SA-4.0"
)
KU_METRICS = (
    *(f"current_hit@{k}" for k in KS),
    *(f"stale@{k}" for k in KS),
    *(f"current_first@{k}" for k in KS),
    "mrr",
)
GROUP_METRICS: dict[str, tuple[str, ...]] = {
    "knowledge_update": KU_METRICS,
    "knowledge_update clean": KU_METRICS,
    "contradiction_resolution": (*(f"pair_both@{k}" for k in KS), *(f"r@{k}" for k in KS)),
    "temporal_reasoning": tuple(f"r@{k}" for k in KS),
    "event_ordering": (*(f"r@{k}" for k in KS), *(f"order@{k}" for k in KS)),
}
# The data README's table (dev split): (group, metric) -> (BM25, kgmem `precise` back then).
README_FIGURES: dict[tuple[str, str], tuple[float, float]] = {
    ("knowledge_update", "current_hit@1"): (0.40, 0.25),
    ("knowledge_update", "current_hit@5"): (0.85, 0.60),
    ("knowledge_update", "current_hit@10"): (1.00, 0.60),
    ("knowledge_update", "stale@1"): (0.45, 0.15),
    ("knowledge_update", "stale@10"): (0.45, 0.15),
    ("knowledge_update clean", "stale@1"): (0.50, 0.125),
    ("contradiction_resolution", "pair_both@5"): (0.50, 0.20),
    ("contradiction_resolution", "pair_both@10"): (0.60, 0.20),
    ("temporal_reasoning", "r@5"): (0.875, 0.275),
    ("temporal_reasoning", "r@10"): (0.925, 0.275),
    ("event_ordering", "r@5"): (0.08, 0.11),
    ("event_ordering", "r@10"): (0.15, 0.21),
}
SPLITS = (*HALVES, ALL)


def _cell(row: Mapping[str, float], metric: str) -> str:
    text = _f(row.get(metric, float("nan")))
    n = row.get(f"n_{metric}")
    return f"{text} (n={int(n)})" if n is not None else text


def figures_table(result: Mapping[str, Any]) -> list[str]:
    head = " | ".join(f"kgmem {s} | BM25 {s}" for s in SPLITS)
    lines = [f"| group | metric | {head} |", "|---|---|" + "---:|" * (2 * len(SPLITS))]
    for group, metrics in GROUP_METRICS.items():
        for metric in metrics:
            cells = []
            for split in SPLITS:
                for side in ("kgmem", "bm25"):
                    cells.append(_cell(result[side].get(split, {}).get(group, {}), metric))
            lines.append(f"| {group} | {metric} | " + " | ".join(cells) + " |")
    return lines


def readme_table(result: Mapping[str, Any]) -> list[str]:
    lines = [
        "| group | metric | BM25 here | BM25 README | kgmem here | kgmem README (precise) |",
        "|---|---|---:|---:|---:|---:|",
    ]
    for (group, metric), (bm25, ours) in README_FIGURES.items():
        b = result["bm25"].get(ALL, {}).get(group, {}).get(metric, float("nan"))
        k = result["kgmem"].get(ALL, {}).get(group, {}).get(metric, float("nan"))
        lines.append(f"| {group} | {metric} | {_f(b)} | {_f(bm25)} | {_f(k)} | {_f(ours)} |")
    return lines


def render_markdown(result: Mapping[str, Any]) -> str:
    """The human-readable report of a ``beam.run`` result."""
    lat = result.get("latency_ms", [])
    lines = [
        "# BEAM dev split: kgmem recall vs BM25 over the user turns",
        "",
        f"Data: {CITATION}.",
        "",
        *header_lines(result),
        f"- conversations: {', '.join(result['conversations'])}; items: {result['items']}",
        f"- recall profile: {result['profile']}; limit {result['recall_limit']} hits; options "
        f"{result.get('recall_options') or 'none'}; LLM: {result['settings'].get('llm_level')}",
        f"- wall time: {result['wall_seconds']} s "
        f"(ingest + recall + scoring: {result['seconds']} s)",
        "",
        "Hits are mapped to their source turns depth first (all turns of hit 1, then hit 2, …). "
        "`stale@k` is stale_outranks_current@k (lower is better); `order@k` is the share of "
        "found event pairs that come back in their true order (n = items with two or more "
        "events found). BM25: k1 1.2, b 0.75, `[a-z0-9$%]+` tokens, over the raw user turns.",
        "",
        "## Figures",
        "",
        *figures_table(result),
        "",
        "## Against the data README (whole split)",
        "",
        *readme_table(result),
        "",
        "## Provenance ceiling and turns with no memory",
        "",
        "Ceiling: share of the items' distinct evidence turns with at least one active or "
        "superseded memory derived from them. No memory: share of user turns that no memory "
        "(any status) derives from.",
        "",
        "| split | evidence turns | ceiling | " + " | ".join(ABILITIES) + " | user turns | "
        "no memory |",
        "|---|---:|---:|" + "---:|" * len(ABILITIES) + "---:|---:|",
    ]
    for split in SPLITS:
        c = result["provenance_ceiling"].get(split)
        n = result["no_memory"].get(split)
        if c is None or n is None:
            continue
        per = " | ".join(_f(c[a]) for a in ABILITIES)
        lines.append(
            f"| {split} | {int(c['n'])} | {_f(c['all'])} | {per} | {int(n['user_turns'])} | "
            f"{_f(n['share'])} |"
        )
    lines += [
        "",
        f"Recall latency: p50 {_percentile(lat, 0.5):.0f} ms, p95 {_percentile(lat, 0.95):.0f} ms "
        f"over {len(lat)} questions.",
        "",
        "## Ingest",
        "",
        "| conversation | batches | user turns | episodes | memories | skipped turns | seconds |",
        "|---|---:|---:|---:|---:|---:|---:|",
    ]
    for i in result["ingest"]:
        lines.append(
            f"| {i['sample_id']} | {i['sessions']} | {i['turns']} | {i['episodes']} | "
            f"{i['memories']} | {i['skipped_turns']} | {i['seconds']} |"
        )
    return "\n".join(lines) + "\n"


def summary_lines(result: Mapping[str, Any]) -> list[str]:
    """The whole split's headline figures, kgmem against BM25."""
    out = []
    for (group, metric), _ in README_FIGURES.items():
        k = result["kgmem"].get(ALL, {}).get(group, {}).get(metric, float("nan"))
        b = result["bm25"].get(ALL, {}).get(group, {}).get(metric, float("nan"))
        out.append(f"{group} {metric}: kgmem {_f(k)}  BM25 {_f(b)}")
    c = result["provenance_ceiling"].get(ALL, {})
    n = result["no_memory"].get(ALL, {})
    out.append(f"provenance ceiling {_f(c.get('all', float('nan')))}; "
               f"user turns with no memory {_f(n.get('share', float('nan')))}")  # fmt: skip
    return out
