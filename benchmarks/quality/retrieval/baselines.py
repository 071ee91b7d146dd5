"""The flat baselines (BM25, dense, RRF of the two) on LoCoMo, and their tables.

Contract: the baselines index one document per turn, ``"[<session date>] <speaker>: <text>"``,
per conversation (``benchmarks.quality.locomo.data``) and rank with
``benchmarks.quality.retrieval.flat_search``; ``baseline_rankings`` gives each method's rankings of
a sample's questions, ``run_baselines`` scores all three on every question with evidence
(``benchmarks.quality.retrieval.metrics``), and ``comparison_markdown`` / ``category_markdown``
render the README-style and per-category tables. Everything but ``run_baselines`` with an embedder
is pure. Run ``python -m benchmarks.quality.retrieval.baselines`` to print the baseline table of the
dev split.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path

from benchmarks.quality.locomo.data import DEFAULT_DATA, Question, Sample, load_locomo
from benchmarks.quality.retrieval.flat_search import BM25, DenseIndex, TextEmbedder, fuse
from benchmarks.quality.retrieval.metrics import METRICS, aggregate, score_ranking

METHODS = ("bm25", "dense", "rrf")
METHOD_LABELS = {
    "bm25": "BM25",
    "dense": "all-MiniLM-L6-v2 dense",
    "rrf": "RRF of the two (k = 60)",
}
# The README's table for this split (R@5, R@10, MRR, multi-hop R@10, temporal R@10).
README_BASELINES: dict[str, tuple[float, float, float, float, float]] = {
    "bm25": (0.533, 0.601, 0.460, 0.285, 0.759),
    "dense": (0.436, 0.533, 0.351, 0.309, 0.629),
    "rrf": (0.522, 0.599, 0.443, 0.296, 0.791),
}


@dataclass
class BaselineReport:
    """Per-method aggregates (``aggregate`` output) and the per-question rankings' scores."""

    tables: dict[str, dict[str, dict[str, float]]] = field(default_factory=dict)
    questions: int = 0
    conversations: list[str] = field(default_factory=list)
    seconds: float = 0.0


def scored_questions(sample: Sample, limit: int | None = None) -> list[Question]:
    """The questions of a sample with non-empty (repaired) evidence, the first ``limit``."""
    qs = [q for q in sample.questions if q.evidence]
    return qs if limit is None else qs[:limit]


def baseline_rankings(
    sample: Sample,
    questions: Sequence[Question],
    embedder: TextEmbedder | None,
) -> dict[str, list[list[str]]]:
    """For each method, one ranked list of dia_ids per question (dense/rrf need an embedder)."""
    docs = [t.document for t in sample.turns]
    ids = [t.dia_id for t in sample.turns]
    bm25 = BM25(docs)
    out: dict[str, list[list[str]]] = {
        "bm25": [[ids[i] for i in bm25.rank(q.question)] for q in questions]
    }
    if embedder is not None:
        dense = DenseIndex(embedder, docs)
        out["dense"] = [
            [ids[i] for i in r] for r in dense.rank_many([q.question for q in questions])
        ]
        out["rrf"] = [fuse([b, d]) for b, d in zip(out["bm25"], out["dense"], strict=True)]
    return out


def run_baselines(
    samples: Sequence[Sample],
    embedder: TextEmbedder | None,
    *,
    limit_questions: int | None = None,
    progress: Callable[[str], None] | None = None,
) -> BaselineReport:
    """Score BM25 (and dense + RRF when an embedder is given) on every question with evidence."""
    t0 = time.perf_counter()
    rows: dict[str, list[tuple[int, dict[str, float]]]] = {}
    report = BaselineReport()
    for sample in samples:
        questions = scored_questions(sample, limit_questions)
        rankings = baseline_rankings(sample, questions, embedder)
        for method, ranked_lists in rankings.items():
            for q, ranked in zip(questions, ranked_lists, strict=True):
                rows.setdefault(method, []).append((q.category, score_ranking(ranked, q.evidence)))
        report.questions += len(questions)
        report.conversations.append(sample.sample_id)
        if progress is not None:
            progress(f"baselines: {sample.sample_id} ({len(questions)} questions)")
    report.tables = {m: aggregate(r) for m, r in rows.items()}
    report.seconds = time.perf_counter() - t0
    return report


def summary_row(table: Mapping[str, Mapping[str, float]]) -> tuple[float, ...]:
    """(R@5, R@10, MRR, multi-hop R@10, temporal R@10) of an ``aggregate`` table; NaN if absent."""
    overall = table.get("overall", {})
    nan = float("nan")
    return (
        overall.get("r@5", nan),
        overall.get("r@10", nan),
        overall.get("mrr", nan),
        table.get("multi-hop", {}).get("r@10", nan),
        table.get("temporal", {}).get("r@10", nan),
    )


def comparison_markdown(report: BaselineReport) -> str:
    """The README-style table, measured next to the README's figures."""
    lines = [
        "| method | R@5 | R@10 | MRR | multi-hop R@10 | temporal R@10 |",
        "|---|---:|---:|---:|---:|---:|",
    ]
    for method in METHODS:
        if method not in report.tables:
            continue
        got = summary_row(report.tables[method])
        ref = README_BASELINES[method]
        cells = " | ".join(f"{g:.3f} ({r:.3f})" for g, r in zip(got, ref, strict=True))
        lines.append(f"| {METHOD_LABELS[method]} | {cells} |")
    lines.append("")
    lines.append("Measured (README figure in brackets); overall = categories 1–4.")
    return "\n".join(lines)


def category_markdown(
    table: Mapping[str, Mapping[str, float]],
    title: str = "category",
    metrics: Sequence[str] = METRICS,
) -> str:
    """One row per category (``overall`` first, then 1–5) with the metrics and ``n``."""
    head = f"| {title} | n | " + " | ".join(m.upper() if m == "mrr" else m for m in metrics) + " |"
    lines = [head, "|---|---:|" + "---:|" * len(metrics)]
    for name, row in table.items():
        cells = " | ".join(f"{row.get(m, float('nan')):.3f}" for m in metrics)
        lines.append(f"| {name} | {int(row['n'])} | {cells} |")
    return "\n".join(lines)


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m benchmarks.quality.retrieval.baselines",
        description="Score the BM25 / dense / RRF baselines on LoCoMo.",
    )
    parser.add_argument("--data", type=Path, default=DEFAULT_DATA)
    parser.add_argument("--conversations", nargs="*", default=None)
    parser.add_argument("--questions", type=int, default=None, help="per conversation")
    parser.add_argument("--no-captions", action="store_true", help="leave photo captions out")
    parser.add_argument("--bm25-only", action="store_true", help="skip the embedder")
    parser.add_argument("--json", type=Path, default=None, help="also write the tables here")
    args = parser.parse_args(argv)
    samples = load_locomo(
        args.data, captions=not args.no_captions, conversations=args.conversations
    )
    embedder: TextEmbedder | None = None
    if not args.bm25_only:
        from kgmem.ml.embedder import Embedder
        from kgmem.settings import Settings

        embedder = Embedder(Settings())

    def say(msg: str) -> None:
        print(msg, file=sys.stderr, flush=True)

    report = run_baselines(samples, embedder, limit_questions=args.questions, progress=say)
    print(f"{report.questions} questions, {len(samples)} conversations, {report.seconds:.1f}s")
    print(f"captions: {'no' if args.no_captions else 'yes'}\n")
    print(comparison_markdown(report))
    for method, table in report.tables.items():
        print(f"\n### {METHOD_LABELS[method]}\n")
        print(category_markdown(table))
    if args.json is not None:
        args.json.write_text(json.dumps(report.tables, indent=2), encoding="utf-8")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
