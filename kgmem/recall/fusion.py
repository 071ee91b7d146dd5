"""Reciprocal rank fusion across ranked channel lists (RRF, k = 60; seed 004).

``rrf`` takes any number of ranked id lists and returns ``(id, score)`` pairs sorted by fused
score, then by id so ties are deterministic. The result does not depend on the order in which the
lists are given (contributions are summed with ``math.fsum``, which is exactly rounded, so even
the floating-point sums agree), contains each id once, and an id's score grows with every list it
appears in.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence

RRF_K = 60


def rrf(rankings: Iterable[Sequence[str]], *, k: int = RRF_K) -> list[tuple[str, float]]:
    parts: dict[str, list[float]] = {}
    for ranking in rankings:
        seen: set[str] = set()
        for rank, item in enumerate(ranking, start=1):
            if item in seen:  # a list that repeats an id counts it at its best rank only
                continue
            seen.add(item)
            parts.setdefault(item, []).append(1.0 / (k + rank))
    scores = {item: math.fsum(p) for item, p in parts.items()}
    return sorted(scores.items(), key=lambda pair: (-pair[1], pair[0]))
