"""Reciprocal rank fusion across ranked channel lists (RRF, k = 60), optionally weighted.

``rrf`` takes any number of ranked id lists and returns ``(id, score)`` pairs sorted by fused
score, then by id so ties are deterministic. With ``weights`` (one non-negative number per list,
in the same order) a list's contributions are scaled by its weight: weighted RRF, so a channel
that is weak evidence for a kind of query (say, spreading activation for a plain lookup) can
count for less than the lexical ones without leaving the fusion. No weights means every list
weighs 1 (the plain RRF). The result does not depend on the order in which the
(list, weight) pairs are given (contributions are summed with ``math.fsum``, which is exactly
rounded, so even the floating-point sums agree), contains each id once (an id only in
zero-weight lists scores 0), and an id's score never falls when it appears in another list.
``fuse`` is the engine's entry: named lists, weighted by their channel (a profile's
``channel_weights``).
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping, Sequence

from kgmem.errors import InvalidInput

RRF_K = 60


def rrf(
    rankings: Iterable[Sequence[str]],
    *,
    k: int = RRF_K,
    weights: Sequence[float] | None = None,
) -> list[tuple[str, float]]:
    lists = list(rankings)
    if weights is None:
        weights = [1.0] * len(lists)
    if len(weights) != len(lists):
        raise InvalidInput(f"rrf got {len(lists)} rankings but {len(weights)} weights")
    if any(not (w >= 0.0 and math.isfinite(w)) for w in weights):
        raise InvalidInput(f"rrf weights must be finite and non-negative, got {list(weights)}")
    parts: dict[str, list[float]] = {}
    for ranking, weight in zip(lists, weights, strict=True):
        seen: set[str] = set()
        for rank, item in enumerate(ranking, start=1):
            if item in seen:  # a list that repeats an id counts it at its best rank only
                continue
            seen.add(item)
            parts.setdefault(item, []).append(weight / (k + rank))
    scores = {item: math.fsum(p) for item, p in parts.items()}
    return sorted(scores.items(), key=lambda pair: (-pair[1], pair[0]))


def channel_of(list_name: str) -> str:
    """The channel a ranked list came from: ``"episode#2"`` (a sub-query's list) → ``"episode"``."""
    return list_name.split("#", 1)[0]


def fuse(
    named: Sequence[tuple[str, Sequence[str]]],
    channel_weights: Mapping[str, float],
    *,
    k: int = RRF_K,
) -> list[tuple[str, float]]:
    """Weighted RRF over ``(list name, ranking)`` pairs: each list weighs its channel's entry in
    ``channel_weights`` (a profile's data); a channel the mapping does not name weighs 1."""
    return rrf(
        [ranking for _, ranking in named],
        k=k,
        weights=[float(channel_weights.get(channel_of(name), 1.0)) for name, _ in named],
    )
