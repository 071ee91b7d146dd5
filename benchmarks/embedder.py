"""Embedder benchmark: the best configuration of all-MiniLM-L6-v2 on this CPU, and what it costs.

For each backend (fp32, and int8 dynamic quantisation of the linear layers), each torch thread
count and each batch size, it embeds the same LoCoMo dev turn texts and reports texts/s (best of
``--repeats`` runs, after a warm-up). For each backend it also reruns the dense retrieval
baseline of ``benchmarks.baselines`` over the whole dev split, so a faster backend is only
recommended when its recall@10 stays within 0.01 of fp32's (issue #3's rule). No server needed.

    python -m benchmarks.embedder [--texts 512] [--batches 16 32 64 128] [--threads 1 2]
"""

from __future__ import annotations

import argparse
import time
from collections.abc import Sequence
from typing import Any

from benchmarks.baselines import (
    aggregate,
    baseline_rankings,
    load_locomo,
    score_ranking,
    scored_questions,
)
from benchmarks.harness import LOCOMO, write_result
from kgmem.ml.embedder import Embedder
from kgmem.settings import Settings

QUALITY_TOLERANCE = 0.01  # recall@10 a faster backend may lose against fp32


def throughput(emb: Embedder, texts: Sequence[str], repeats: int) -> float:
    emb.embed(list(texts[:8]))  # warm-up: first-call allocations are not the steady state
    best = float("inf")
    for _ in range(repeats):
        t0 = time.perf_counter()
        emb.embed(list(texts))
        best = min(best, time.perf_counter() - t0)
    return len(texts) / best


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
    speed: list[dict[str, Any]], quality: dict[bool, dict[str, float]]
) -> dict[str, Any]:
    """The fastest row whose backend keeps overall recall@10 within the tolerance of fp32's."""
    floor = quality[False]["overall"] - QUALITY_TOLERANCE
    allowed = [r for r in speed if quality[r["int8"]]["overall"] >= floor]
    return max(allowed, key=lambda r: r["texts_per_s"])


def render(
    speed: list[dict[str, Any]], quality: dict[bool, dict[str, float]], best: dict[str, Any], n: int
) -> str:
    lines = [
        f"{n} LoCoMo dev turn texts; best of the repeats after a warm-up.",
        "",
        "| backend | threads | batch | texts/s |",
        "|---|---:|---:|---:|",
    ]
    for r in speed:
        backend = "int8" if r["int8"] else "fp32"
        lines.append(f"| {backend} | {r['threads']} | {r['batch']} | {r['texts_per_s']:.1f} |")
    lines += ["", "Dense retrieval recall@10 on the dev split (benchmarks.baselines):", ""]
    lines += ["| backend | overall | multi-hop | temporal | open-domain | single-hop |"]
    lines += ["|---|---:|---:|---:|---:|---:|"]
    for int8, q in quality.items():
        cats = ("overall", "multi-hop", "temporal", "open-domain", "single-hop")
        lines.append(
            f"| {'int8' if int8 else 'fp32'} | "
            + " | ".join(f"{q.get(c, float('nan')):.3f}" for c in cats)
            + " |"
        )
    backend = "int8" if best["int8"] else "fp32"
    lines += [
        "",
        f"Best within {QUALITY_TOLERANCE} recall@10 of fp32: {backend}, {best['threads']} threads, "
        f"batch {best['batch']} ({best['texts_per_s']:.1f} texts/s).",
    ]
    return "\n".join(lines) + "\n"


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--texts", type=int, default=512)
    parser.add_argument("--batches", type=int, nargs="+", default=[16, 32, 64, 128])
    parser.add_argument("--threads", type=int, nargs="+", default=[1, 2])
    parser.add_argument("--repeats", type=int, default=2)
    args = parser.parse_args(argv)
    texts = [t.text for s in load_locomo(LOCOMO) for t in s.turns][: args.texts]
    speed: list[dict[str, Any]] = []
    quality: dict[bool, dict[str, float]] = {}
    for int8 in (False, True):
        for threads in args.threads:
            for batch in args.batches:
                settings = Settings(embed_int8=int8, embed_threads=threads, embed_batch_size=batch)
                rate = throughput(Embedder(settings), texts, args.repeats)
                speed.append(
                    {"int8": int8, "threads": threads, "batch": batch, "texts_per_s": rate}
                )
                print(
                    f"int8={int8} threads={threads} batch={batch}: {rate:.1f} texts/s", flush=True
                )
        quality[int8] = dense_recall(Embedder(Settings(embed_int8=int8)))
        print(f"int8={int8}: dense recall@10 {quality[int8]}", flush=True)
    best = best_config(speed, quality)
    path = write_result(
        "embedder",
        render(speed, quality, best, len(texts)),
        {"speed": speed, "quality": {str(k): v for k, v in quality.items()}, "best": best},
    )
    print(f"wrote {path}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
