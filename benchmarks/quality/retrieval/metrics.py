"""Retrieval metrics over a ranked list of turn ids against a set of evidence ids.

Contract: ``recall_at_k`` (share of the evidence in the top k), ``hit_at_k`` (1 if any evidence is
in the top k), ``mrr`` (1 / rank of the first evidence turn, 0 when none is ranked).
``score_ranking`` bundles them for ``KS``; ``aggregate`` averages per LoCoMo category
(``CATEGORIES``) and overall (categories 1–4; 5 on its own line). Pure.
"""

from __future__ import annotations

import math
from collections.abc import Collection, Iterable, Mapping, Sequence

KS = (5, 10)
CATEGORIES: dict[int, str] = {
    1: "multi-hop",
    2: "temporal",
    3: "open-domain",
    4: "single-hop",
    5: "adversarial",
}
OVERALL_CATEGORIES = frozenset({1, 2, 3, 4})


def recall_at_k(ranked: Sequence[str], evidence: Collection[str], k: int) -> float:
    """Share of the evidence ids found in the first ``k`` ranked ids."""
    if not evidence:
        raise ValueError("recall needs at least one evidence id")
    gold = set(evidence)
    return len(gold.intersection(ranked[:k])) / len(gold)


def hit_at_k(ranked: Sequence[str], evidence: Collection[str], k: int) -> float:
    """1.0 when any evidence id is in the first ``k`` ranked ids, else 0.0."""
    gold = set(evidence)
    return 1.0 if any(r in gold for r in ranked[:k]) else 0.0


def mrr(ranked: Sequence[str], evidence: Collection[str]) -> float:
    """Reciprocal rank of the first evidence id in the ranking; 0.0 when none is ranked."""
    gold = set(evidence)
    for rank, r in enumerate(ranked, start=1):
        if r in gold:
            return 1.0 / rank
    return 0.0


def score_ranking(ranked: Sequence[str], evidence: Collection[str]) -> dict[str, float]:
    """R@k and hit@k for k in ``KS``, and MRR, of one ranked list."""
    out: dict[str, float] = {}
    for k in KS:
        out[f"r@{k}"] = recall_at_k(ranked, evidence, k)
    for k in KS:
        out[f"hit@{k}"] = hit_at_k(ranked, evidence, k)
    out["mrr"] = mrr(ranked, evidence)
    return out


METRICS = (*(f"r@{k}" for k in KS), *(f"hit@{k}" for k in KS), "mrr")


def aggregate(rows: Iterable[tuple[int, Mapping[str, float]]]) -> dict[str, dict[str, float]]:
    """Mean of each metric per category (keyed by name) and ``overall`` (categories 1–4).

    Each output row also has ``n``, the number of questions averaged. Categories with no
    questions are left out.
    """
    buckets: dict[str, list[Mapping[str, float]]] = {}
    for category, scores in rows:
        buckets.setdefault(CATEGORIES.get(category, f"cat-{category}"), []).append(scores)
        if category in OVERALL_CATEGORIES:
            buckets.setdefault("overall", []).append(scores)
    out: dict[str, dict[str, float]] = {}
    order = ["overall", *(CATEGORIES[c] for c in sorted(CATEGORIES))]
    for name in order + sorted(set(buckets) - set(order)):
        items = buckets.get(name)
        if not items:
            continue
        row = {m: math.fsum(s[m] for s in items) / len(items) for m in items[0]}
        row["n"] = float(len(items))
        out[name] = row
    return out
