"""Embedder benchmark: the best configuration of all-MiniLM-L6-v2 on this CPU, and what it costs.

For each backend (``torch`` fp32, ``int8``: torch with dynamic int8 quantisation of the linear
layers, ``onnx``: ONNX Runtime on kgmem's local export), each thread count and each batch size,
it embeds the same LoCoMo dev turn texts and reports texts/s (best of ``--repeats`` runs, after a
warm-up) and CPU ms per text. It also reports each backend's largest absolute difference from
the torch fp32 vectors on those texts, and (unless ``--no-quality``) reruns the dense retrieval
baseline of ``benchmarks.quality.retrieval.baselines`` over the whole dev split per backend, so a
faster backend is only recommended when its recall@10 stays within 0.01 of fp32's (issue #3's rule).
No server.

    python -m benchmarks.perf.embedder [--texts 512] [--batches 16 32 64] [--threads 1 2]
                                  [--backends torch onnx int8] [--no-quality]
"""

from __future__ import annotations

import argparse
import os
import time
from collections.abc import Sequence
from typing import Any

import numpy as np

from benchmarks.common.harness import write_result
from benchmarks.common.paths import LOCOMO, add_out_argument
from benchmarks.quality.locomo.data import load_locomo
from benchmarks.quality.retrieval.baselines import baseline_rankings, scored_questions
from benchmarks.quality.retrieval.metrics import aggregate, score_ranking
from kgmem.ml.embedder import Embedder
from kgmem.settings import Settings

QUALITY_TOLERANCE = 0.01  # recall@10 a faster backend may lose against fp32
BACKENDS: dict[str, dict[str, Any]] = {
    "torch": {"embed_backend": "torch"},
    "int8": {"embed_backend": "torch", "embed_int8": True},
    "onnx": {"embed_backend": "onnx"},
}


def settings_for(backend: str, **more: Any) -> Settings:
    return Settings(**BACKENDS[backend], **more)


def throughput(emb: Embedder, texts: Sequence[str], repeats: int) -> tuple[float, float]:
    """Best texts/s over the repeats, and the CPU milliseconds per text of that run.

    CPU time is the figure to compare under load (other processes slow the wall clock, not the
    work); with more than one thread it also counts the threads' spinning, so it favours one.
    """
    emb.embed(list(texts[:8]))  # warm-up: first-call allocations are not the steady state
    best, cpu = float("inf"), 0.0
    for _ in range(repeats):
        t0, c0 = time.perf_counter(), time.process_time()
        emb.embed(list(texts))
        wall = time.perf_counter() - t0
        if wall < best:
            best, cpu = wall, time.process_time() - c0
    return len(texts) / best, 1000 * cpu / len(texts)


def dense_recall(emb: Embedder) -> dict[str, float]:
    rows = []
    for sample in load_locomo(LOCOMO):
        questions = scored_questions(sample)
        ranked = baseline_rankings(sample, questions, emb)["dense"]
        rows += [
            (q.category, score_ranking(r, q.evidence))
            for q, r in zip(questions, ranked, strict=True)
        ]
    table = aggregate(rows)
    return {name: round(row["r@10"], 4) for name, row in table.items()}


def best_config(
    speed: list[dict[str, Any]], quality: dict[str, dict[str, float]]
) -> dict[str, Any]:
    """The fastest row whose backend keeps overall recall@10 within the tolerance of fp32's."""
    floor = quality["torch"]["overall"] - QUALITY_TOLERANCE
    allowed = [r for r in speed if quality[r["backend"]]["overall"] >= floor]
    return max(allowed, key=lambda r: r["texts_per_s"])


def render(
    speed: list[dict[str, Any]],
    quality: dict[str, dict[str, float]],
    best: dict[str, Any],
    n: int,
    diffs: dict[str, float],
) -> str:
    lines = [
        f"{n} LoCoMo dev turn texts; best of the repeats after a warm-up.",
        "",
        "| backend | threads | batch | texts/s | CPU ms per text | load average (1 min) |",
        "|---|---:|---:|---:|---:|---:|",
    ]
    for r in speed:
        lines.append(
            f"| {r['backend']} | {r['threads']} | {r['batch']} | {r['texts_per_s']:.1f} "
            f"| {r['cpu_ms_per_text']:.1f} | {r['load_average']:.1f} |"
        )
    lines += ["", "Largest |difference| from the torch fp32 vectors on these texts:", ""]
    lines += [f"- {name}: {diff:.2e}" for name, diff in diffs.items()]
    if not quality:
        return "\n".join(lines) + "\n"
    lines += [
        "",
        "Dense retrieval recall@10 on the dev split (benchmarks.quality.retrieval.baselines):",
        "",
    ]
    lines += ["| backend | overall | multi-hop | temporal | open-domain | single-hop |"]
    lines += ["|---|---:|---:|---:|---:|---:|"]
    for name, q in quality.items():
        cats = ("overall", "multi-hop", "temporal", "open-domain", "single-hop")
        lines.append(
            f"| {name} | " + " | ".join(f"{q.get(c, float('nan')):.3f}" for c in cats) + " |"
        )
    lines += [
        "",
        f"Best within {QUALITY_TOLERANCE} recall@10 of fp32: {best['backend']}, "
        f"{best['threads']} threads, "
        f"batch {best['batch']} ({best['texts_per_s']:.1f} texts/s).",
    ]
    return "\n".join(lines) + "\n"


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m benchmarks.perf.embedder",
        description=__doc__.splitlines()[0] if __doc__ else None,
    )
    parser.add_argument("--texts", type=int, default=512)
    parser.add_argument("--batches", type=int, nargs="+", default=[16, 32, 64])
    parser.add_argument("--threads", type=int, nargs="+", default=[1, 2])
    parser.add_argument("--backends", nargs="+", choices=list(BACKENDS), default=list(BACKENDS))
    parser.add_argument("--repeats", type=int, default=2)
    parser.add_argument(
        "--no-quality",
        dest="quality",
        action="store_false",
        help="speed only: skip the dev-split recall check (and so recommend nothing)",
    )
    add_out_argument(parser)
    args = parser.parse_args(argv)
    texts = [t.text for s in load_locomo(LOCOMO) for t in s.turns][: args.texts]
    speed: list[dict[str, Any]] = []
    quality: dict[str, dict[str, float]] = {}
    reference = np.array(Embedder(settings_for("torch")).embed(texts))
    diffs: dict[str, float] = {}
    for backend in args.backends:
        vectors = np.array(Embedder(settings_for(backend)).embed(texts))
        diffs[backend] = float(np.abs(vectors - reference).max())
        for threads in args.threads:
            for batch in args.batches:
                settings = settings_for(backend, embed_threads=threads, embed_batch_size=batch)
                rate, cpu_ms = throughput(Embedder(settings), texts, args.repeats)
                speed.append(
                    {
                        "backend": backend,
                        "threads": threads,
                        "batch": batch,
                        "texts_per_s": rate,
                        "cpu_ms_per_text": cpu_ms,
                        "load_average": os.getloadavg()[0],
                    }
                )
                print(
                    f"{backend} threads={threads} batch={batch}: {rate:.1f} texts/s, "
                    f"{cpu_ms:.1f} CPU ms/text",
                    flush=True,
                )
        if args.quality:
            quality[backend] = dense_recall(Embedder(settings_for(backend)))
            print(f"{backend}: dense recall@10 {quality[backend]}", flush=True)
    best = best_config(speed, quality) if "torch" in quality else {}
    path = write_result(
        "embedder",
        render(speed, quality, best, len(texts), diffs),
        {"speed": speed, "quality": quality, "best": best, "max_abs_diff_vs_torch": diffs},
        args.out,
    )
    print(f"wrote {path}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
