"""LoCoMo retrieval-quality benchmark of kgmem's recall, next to the flat baselines: the run.

Contract of ``run(settings, out_path, conversations=None, limit_questions=None, ablations=None)``:
for each LoCoMo conversation (all of the dev split unless named), a fresh namespace
``locomo-<sample_id>-<random>`` (or ``<reuse>-<sample_id>``, kept and ingested only when empty)
is filled through ``Kgmem.observe`` (``benchmarks.quality.locomo.ingest``); every question with
non-empty repaired evidence (the first ``limit_questions`` per conversation when given) is recalled
and scored per configuration (``benchmarks.quality.locomo.recall``: R@5, R@10, hit@5, hit@10, MRR
and ``mem_r@k`` per category; ``overall`` is categories 1–4), next to the provenance ceiling and the
BM25 / dense / RRF baselines over the same turns and questions in the same run. Recall runs
read-only (``dry=True``) when the engine accepts it, unless ``touch``. The result is written as
Markdown to ``out_path`` and as JSON next to it with the machine, the command and the date
(``benchmarks.quality.locomo.report``). CLI: ``python -m benchmarks.quality.locomo [--out PATH.md]
[--conversations conv-26 ...] [--questions N] [--ablations
vector vector+fulltext] [--uri bolt://...]``; without ``--uri`` it starts (and afterwards stops) a
private local Neo4j through ``LocalServer`` on a free port with a temporary home and auth off.
Without ``--out`` the result goes outside the repository (``benchmarks.common.paths``).
"""

from __future__ import annotations

import argparse
import asyncio
import os
import shlex
import statistics
import sys
import time
import uuid
from collections.abc import Awaitable, Sequence
from dataclasses import asdict
from pathlib import Path
from typing import Any

from benchmarks.common.harness import memory_count, run_header, run_scored, server_settings
from benchmarks.common.paths import add_out_argument, result_path
from benchmarks.common.progress import Progress
from benchmarks.quality.locomo.data import DEFAULT_DATA, Sample, load_locomo
from benchmarks.quality.locomo.ingest import IngestResult, coverage, ingest, provenance_turns
from benchmarks.quality.locomo.recall import (
    DEFAULT_CONFIG,
    ConfigResult,
    evaluate_sample,
    parse_channel_set,
    probe_recall_options,
)
from benchmarks.quality.locomo.report import _f, write_result
from benchmarks.quality.retrieval.baselines import (
    METHOD_LABELS,
    METHODS,
    baseline_rankings,
    scored_questions,
    summary_row,
)
from benchmarks.quality.retrieval.metrics import KS, aggregate, score_ranking
from kgmem.service import Kgmem
from kgmem.settings import Settings

DEFAULT_RECALL_LIMIT = 20


async def evaluate(
    km: Kgmem,
    samples: Sequence[Sample],
    *,
    limit_questions: int | None = None,
    recall_limit: int = DEFAULT_RECALL_LIMIT,
    ablations: Sequence[str] = (),
    progress: Progress,
    keep: bool = False,
    touch: bool = False,
    profile: str | None = None,
    reuse: str | None = None,
    activation: str | None = None,
    channel_set: str | None = None,
) -> dict[str, Any]:
    """Ingest, recall and score every sample; returns the JSON-ready result (no file I/O).

    With ``reuse`` a sample's namespace is ``<reuse>-<sample id>``: one that already holds
    memories is scored as it is (no ingest; kept), one that does not is ingested and kept, so
    ranking experiments and ablations need not re-ingest.

    Recall runs with ``dry=True`` when the engine takes it and ``touch`` is false, so that no
    question's recall changes the memory state (access counts, stability, co-activation) that
    the next question — or the next ablation — sees; the result records which was used.
    """
    probe_ns = f"locomo-probe-{uuid.uuid4().hex[:8]}"
    accepted = await probe_recall_options(km, probe_ns)
    supported = accepted["channels"]
    options: dict[str, Any] = {"dry": True} if accepted["dry"] and not touch else {}
    if profile:
        options["profile"] = profile
    if activation:  # how the activation channel spreads, where a recall searches it
        options["activation"] = activation
    if channel_set:  # every recall searches these, whatever its intent would pick
        options["channels"] = parse_channel_set(channel_set)
    configs: dict[str, ConfigResult] = {DEFAULT_CONFIG: ConfigResult(None)}
    if ablations and supported:
        for text in ablations:
            channels = parse_channel_set(text)
            configs["+".join(channels)] = ConfigResult(channels)
    if not ablations:
        note = "no ablations requested"
    elif supported:
        note = f"ran channel sets {list(configs)[1:]} through recall(channels=...)"
    else:
        note = (
            f"ablations {list(ablations)} requested, but Kgmem.recall does not accept "
            "channels= yet: ran the default recall only"
        )
    baseline_rows: dict[str, list[tuple[int, dict[str, float]]]] = {m: [] for m in METHODS}
    ceiling_rows: list[tuple[int, dict[str, float]]] = []
    baseline_chars: dict[int, list[int]] = {k: [] for k in KS}
    ingests: list[IngestResult] = []
    n_questions = 0
    t_start = time.perf_counter()
    for sample in samples:
        questions = scored_questions(sample, limit_questions)
        n_questions += len(questions)
        namespace = (
            f"{reuse}-{sample.sample_id}"
            if reuse
            else f"locomo-{sample.sample_id}-{uuid.uuid4().hex[:8]}"
        )
        try:
            held = 0
            if reuse:
                held = await memory_count(km, namespace)
            if held:
                ingested = IngestResult(
                    sample.sample_id, namespace, len(sample.sessions), len(sample.turns),
                    0, held, 0.0, {}, 0, reused=True,
                )  # fmt: skip
            else:
                ingested = await ingest(km, sample, namespace, progress)
            covered = await provenance_turns(km, namespace)
            ingested.covered_turns = len(covered & {t.dia_id for t in sample.turns})
            ingests.append(ingested)
            ceiling_rows += [
                (q.category, {"coverage": coverage(q.evidence, covered)}) for q in questions
            ]
            await evaluate_sample(
                km, sample, questions, namespace, configs, recall_limit, progress, options
            )
        finally:
            if not keep and not reuse:
                await km.wipe_namespace(namespace)
        docs = {t.dia_id: t.document for t in sample.turns}
        rankings = await asyncio.to_thread(baseline_rankings, sample, questions, km.embedder)
        for method, lists in rankings.items():
            for q, ranked in zip(questions, lists, strict=True):
                baseline_rows[method].append((q.category, score_ranking(ranked, q.evidence)))
        for ranked in rankings["bm25"]:
            for k in KS:
                baseline_chars[k].append(sum(len(docs[d]) for d in ranked[:k]))
        progress(f"baselines {sample.sample_id}", 1, 1)
    return {
        "conversations": [s.sample_id for s in samples],
        "questions": n_questions,
        "limit_questions": limit_questions,
        "recall_limit": recall_limit,
        "seconds": round(time.perf_counter() - t_start, 1),
        "ablations": {"requested": list(ablations), "supported": supported, "note": note},
        "recall_options": options,
        "kgmem": {name: cfg.summary() for name, cfg in configs.items()},
        "baselines": {m: aggregate(rows) for m, rows in baseline_rows.items() if rows},
        "provenance_ceiling": {
            name: row["coverage"] for name, row in aggregate(ceiling_rows).items()
        },
        "baseline_context_chars": {
            f"top{k}": statistics.fmean(v) if v else float("nan") for k, v in baseline_chars.items()
        },
        "ingest": [asdict(i) for i in ingests],
        "per_question": configs[DEFAULT_CONFIG].per_question,
    }


def run(
    settings: Settings,
    out_path: str | os.PathLike[str],
    conversations: Sequence[str] | None = None,
    limit_questions: int | None = None,
    ablations: Sequence[str] = (),
    *,
    data_path: str | os.PathLike[str] = DEFAULT_DATA,
    recall_limit: int = DEFAULT_RECALL_LIMIT,
    command: str | None = None,
    keep: bool = False,
    captions: bool = True,
    touch: bool = False,
    profile: str | None = None,
    reuse: str | None = None,
    activation: str | None = None,
    channel_set: str | None = None,
) -> dict[str, Any]:
    """Run the benchmark against the Neo4j of ``settings`` (schema applied) and write the result."""
    samples = load_locomo(data_path, conversations=conversations, captions=captions)

    def scored(km: Kgmem, progress: Progress) -> Awaitable[dict[str, Any]]:
        return evaluate(
            km,
            samples,
            limit_questions=limit_questions,
            recall_limit=recall_limit,
            ablations=ablations,
            progress=progress,
            keep=keep,
            touch=touch,
            profile=profile,
            reuse=reuse,
            activation=activation,
            channel_set=channel_set,
        )

    result = {
        **run_header(settings, command or "python -m benchmarks.quality.locomo", str(data_path)),
        "captions": captions,
        **run_scored(settings, scored),
    }
    write_result(result, Path(out_path))
    return result


def main(argv: Sequence[str] | None = None) -> int:
    args_list = list(sys.argv[1:] if argv is None else argv)
    parser = argparse.ArgumentParser(
        prog="python -m benchmarks.quality.locomo",
        description="LoCoMo retrieval benchmark of kgmem recall against BM25 / dense / RRF.",
    )
    add_out_argument(parser)
    parser.add_argument("--data", type=Path, default=DEFAULT_DATA)
    parser.add_argument("--conversations", nargs="*", default=None, help="sample ids")
    parser.add_argument("--questions", type=int, default=None, help="first N per conversation")
    parser.add_argument("--limit", type=int, default=DEFAULT_RECALL_LIMIT, help="recall limit K")
    parser.add_argument(
        "--ablations", nargs="*", default=[], help='channel sets, e.g. vector "vector+fulltext"'
    )
    parser.add_argument("--uri", default=None, help="use this Neo4j instead of a private one")
    parser.add_argument("--keep", action="store_true", help="keep the benchmark namespaces")
    parser.add_argument(
        "--reuse",
        default=None,
        metavar="PREFIX",
        help="score namespaces PREFIX-<sample id> as they are (ingest only missing ones; kept)",
    )
    parser.add_argument("--profile", default=None, help="recall ranking profile (default balanced)")
    parser.add_argument("--no-captions", action="store_true", help="leave photo captions out")
    parser.add_argument(
        "--touch", action="store_true", help="let recall touch hits (default: dry=True)"
    )
    parser.add_argument(
        "--activation", default=None, help="activation option of every recall: spreading|pagerank"
    )
    parser.add_argument(
        "--channels", default=None, help='channel set of every recall, e.g. "vector+fulltext"'
    )
    args = parser.parse_args(args_list)
    args.out = result_path(args.out, "locomo")
    command = "python -m benchmarks.quality.locomo " + shlex.join(args_list)
    kwargs: dict[str, Any] = {
        "conversations": args.conversations,
        "limit_questions": args.questions,
        "ablations": args.ablations,
        "data_path": args.data,
        "recall_limit": args.limit,
        "command": command.strip(),
        "keep": args.keep,
        "captions": not args.no_captions,
        "touch": args.touch,
        "profile": args.profile,
        "reuse": args.reuse,
        "activation": args.activation,
        "channel_set": args.channels,
    }
    with server_settings(args.uri) as settings:
        result = run(settings, args.out, **kwargs)
    for name, cfg in result["kgmem"].items():
        o = cfg["table"].get("overall", {})
        print(
            f"kgmem ({name}): R@5 {_f(o.get('r@5', float('nan')))} "
            f"R@10 {_f(o.get('r@10', float('nan')))} MRR {_f(o.get('mrr', float('nan')))}"
        )
    for method, table in result["baselines"].items():
        r5, r10, mrr_, _, _ = summary_row(table)
        print(f"{METHOD_LABELS[method]}: R@5 {_f(r5)} R@10 {_f(r10)} MRR {_f(mrr_)}")
    print(f"written: {args.out} and {args.out.with_suffix('.json')}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
