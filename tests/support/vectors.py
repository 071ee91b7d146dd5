"""Unit vectors with chosen cosines, for tests that plant memories with embeddings of their own.

``DIM`` is the embedder's dimension; ``direction(seed)`` a reproducible random unit vector;
``at_cosine(v, c, seed)`` a unit vector at exactly cosine ``c`` to unit vector ``v``.
"""

from __future__ import annotations

import math
import random
from collections.abc import Sequence

DIM = 384


def unit(v: Sequence[float]) -> list[float]:
    n = math.sqrt(sum(x * x for x in v))
    return [x / n for x in v]


def direction(seed: int) -> list[float]:
    rnd = random.Random(seed)
    return unit([rnd.gauss(0, 1) for _ in range(DIM)])


def at_cosine(v: list[float], cosine: float, seed: int) -> list[float]:
    """A unit vector at exactly ``cosine`` to unit vector ``v``."""
    u = direction(seed)
    d = sum(a * b for a, b in zip(u, v, strict=True))
    w = unit([a - d * b for a, b in zip(u, v, strict=True)])
    s = math.sqrt(1 - cosine * cosine)
    return [cosine * a + s * b for a, b in zip(v, w, strict=True)]
