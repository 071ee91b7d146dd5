"""After scoring (docs/recall.md): MMR diversity, confidence-gated injection and the hot tier.

Contract: pure functions, no I/O, no clock (``now`` is passed in). ``mmr`` is the Maximal
Marginal Relevance, ``λ·relevance − (1−λ)·max cosine to the already selected`` with λ = 0.7; it
returns the selected ids and the ids MMR *dropped* (those that would have made the top ``k`` on
relevance alone), so the X-ray can tell an MMR drop from a plain limit cut. Its output does not
depend on input order and never repeats an id; with λ = 1 it is the relevance order (ties by id).
``gate_confidence`` is the injection gate (≥ 0.7 full, 0.4–0.7 abbreviated, < 0.4
skipped). A hit's confidence (``hit_confidence``) is its similarity factor: the cosine between
the query and the memory, clamped to [0, 1] — the one calibrated signal a hit has (composite
scores are relative and boosts can push them past 1). ``hot_tier`` is the always-inject
selection. ``cosine``/``centroid`` are the vector helpers (the HyDE centroid uses the latter);
``embedding_rows`` converts a candidate set's embeddings to float64 once, as rows of one matrix
per vector size, which ``unit_rows`` (scoring's cosines, MMR) then stacks without re-converting.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence
from datetime import datetime
from typing import TYPE_CHECKING, Literal, NamedTuple

import numpy as np
import numpy.typing as npt

from kgmem.core.tunables import HOT_MAX_AGE, HOT_MAX_ITEMS, HOT_MIN_ACCESS, HOT_MIN_UTILITY
from kgmem.errors import InvalidInput

if TYPE_CHECKING:
    from kgmem.recall.candidates import Candidate, Embedding, Scored

MMR_LAMBDA = 0.7  # 70 % relevance, 30 % diversity
FULL_FROM = 0.7  # >= 0.7 full injection
ABBREVIATED_FROM = 0.4  # 0.4-0.7 abbreviated, below skipped

Injection = Literal["full", "abbreviated", "skipped"]
Vector = npt.NDArray[np.float64]


def _unit_vector(values: Sequence[float] | None) -> Vector | None:
    if values is None:
        return None
    vec = np.asarray(values, dtype=np.float64)
    norm = float(np.linalg.norm(vec))
    if vec.ndim != 1 or not math.isfinite(norm) or norm == 0.0:
        return None  # a zero or broken vector cannot say anything about redundancy
    return vec / norm


def embedding_rows(values: Sequence[Sequence[float] | None]) -> list[Vector | None]:
    """Each non-empty vector as a read-only float64 row of one matrix per vector size (one
    conversion from Python floats for the whole set); a missing or empty one stays ``None``."""
    rows: list[Vector | None] = [None] * len(values)
    by_size: dict[int, list[int]] = {}
    for i, v in enumerate(values):
        if v is not None and len(v):
            by_size.setdefault(len(v), []).append(i)
    for at in by_size.values():
        block = np.array([values[i] for i in at], dtype=np.float64)
        block.setflags(write=False)
        for i, row in zip(at, block, strict=True):
            rows[i] = row
    return rows


def unit_rows(vectors: Sequence[Embedding | None], size: int) -> Vector:
    """The vectors of length ``size`` as unit rows of one matrix, converted from Python floats
    once (per-vector ``asarray`` calls cost more than the arithmetic); a missing, zero,
    non-finite or other-sized vector is a zero row, so its cosine to anything is 0."""
    rows = np.zeros((len(vectors), size))
    at = [i for i, v in enumerate(vectors) if v is not None and len(v) == size]
    if at and size:
        block = np.array([vectors[i] for i in at], dtype=np.float64)
        norms = np.linalg.norm(block, axis=1)
        good = np.isfinite(norms) & (norms > 0.0)
        rows[np.asarray(at)[good]] = block[good] / norms[good, None]
    return rows


def cosines(query: Sequence[float] | None, vectors: Sequence[Embedding | None]) -> list[float]:
    """``cosine(query, v)`` for every ``v`` at once (one matrix-vector product; equal to the
    pairwise form up to float rounding in the last bits)."""
    q = _unit_vector(query)
    if q is None or not vectors:
        return [0.0] * len(vectors)
    sims = unit_rows(vectors, q.shape[0]) @ q
    return [float(x) for x in np.clip(sims, -1.0, 1.0)]


def cosine(a: Sequence[float], b: Sequence[float]) -> float:
    """Cosine similarity in [-1, 1]; 0.0 when either vector is zero or their sizes differ."""
    return cosines(a, [b])[0]


def centroid(vectors: Iterable[Sequence[float]]) -> list[float]:
    """The mean of the unit-normalised vectors (query + HyDE variants -> one vector)."""
    units = [u for u in (_unit_vector(v) for v in vectors) if u is not None]
    if not units or any(u.shape != units[0].shape for u in units):
        raise InvalidInput("centroid needs one or more non-zero vectors of the same size")
    return [float(x) for x in np.mean(np.stack(units), axis=0)]


class MMRResult(NamedTuple):
    """``selected`` in pick order; ``dropped`` = top-k-by-relevance ids MMR left out."""

    selected: list[str]
    dropped: list[str]


def mmr(
    items: Iterable[tuple[str, float, Embedding | None]],
    k: int,
    lam: float = MMR_LAMBDA,
) -> MMRResult:
    """The MMR re-rank of ``(id, relevance, embedding)`` items down to ``k`` ids.

    A repeated id keeps its highest relevance. An item without an embedding is never judged
    redundant (its similarity to everything is 0). Ties go to the smaller id.
    """
    if isinstance(k, bool) or not isinstance(k, int) or k < 0:
        raise InvalidInput(f"k must be a non-negative integer, got {k!r}")
    if not 0.0 <= lam <= 1.0:
        raise InvalidInput(f"MMR lambda must be in [0, 1], got {lam}")
    best: dict[str, tuple[float, Embedding | None]] = {}
    for item_id, relevance, embedding in items:
        if not math.isfinite(relevance):
            raise InvalidInput(f"relevance of {item_id!r} is not a finite number")
        held = best.get(item_id)
        # a repeated id keeps the larger (relevance, embedding); the embedding's tuple is built
        # only then (for an array row it costs more than the whole MMR)
        if held is None or (relevance, _key(embedding)) > (held[0], _key(held[1])):
            best[item_id] = (relevance, embedding)
    by_relevance = sorted(best, key=lambda i: (-best[i][0], i))
    order = sorted(best)  # a fixed scan order, whatever order the items came in
    rel: Vector = np.array([best[i][0] for i in order], dtype=np.float64)
    embeddings = [best[i][1] for i in order]
    size_of = [len(e) if e is not None else 0 for e in embeddings]
    # one unit matrix per vector size: vectors of different sizes are never similar (cosine 0)
    units = {size: unit_rows(embeddings, size) for size in set(size_of)}
    open_ = np.ones(len(order), dtype=bool)
    max_sim: Vector = np.full(len(order), -math.inf)  # max similarity to anything selected so far
    selected: list[str] = []
    while open_.any() and len(selected) < k:
        penalty = (1.0 - lam) * max_sim if selected else np.zeros(len(order))
        gains: Vector = lam * rel - penalty
        gains[~open_] = -math.inf
        pick = int(np.flatnonzero(gains == gains[open_].max())[0])  # ties: the smaller id
        selected.append(order[pick])
        open_[pick] = False
        rows = units[size_of[pick]]
        np.maximum(max_sim, rows @ rows[pick], out=max_sim)
    chosen = set(selected)
    return MMRResult(selected, [i for i in by_relevance[:k] if i not in chosen])


def shown_scores(
    picks: Sequence[tuple[float, Embedding | None]],
    top: float,
    lam: float = MMR_LAMBDA,
) -> list[tuple[float, float]]:
    """For MMR's picks in pick order, each as ``(score, embedding)`` where ``mmr`` was given
    ``score / top``: ``(shown score, redundancy)``, the redundancy being the largest cosine to
    an earlier pick (0 for the first) and the shown score the MMR gain the pick was made at, in
    score units: ``score − (1 − λ) / λ × top × redundancy``, floored at 0.

    MMR's gains never rise from one pick to the next (a later pick's gain could only fall as more
    were selected), so the shown scores are in hit order: what is shown is what was ranked. Each
    is also capped by the one before, which only absorbs float rounding.
    """
    if not 0.0 < lam <= 1.0:
        raise InvalidInput(f"MMR lambda must be in (0, 1] to show its gains, got {lam}")
    sizes = {len(e) for _, e in picks if e is not None and len(e)}
    units = {size: unit_rows([e for _, e in picks], size) for size in sizes}
    out: list[tuple[float, float]] = []
    ceiling = math.inf
    for i, (value, embedding) in enumerate(picks):
        size = len(embedding) if embedding is not None else 0
        rows = units.get(size)
        redundancy = float((rows[:i] @ rows[i]).max()) if i and rows is not None else 0.0
        shown = min(ceiling, max(0.0, value - (1.0 - lam) / lam * top * redundancy))
        ceiling = shown
        out.append((shown, redundancy))
    return out


def _key(embedding: Embedding | None) -> tuple[float, ...]:
    return tuple(float(x) for x in embedding) if embedding is not None else ()


def hit_confidence(scored: Scored) -> float:
    """A hit's retrieval confidence: its similarity factor (query-memory cosine, in [0, 1])."""
    return scored.factors.get("similarity", 0.0)


def gate_confidence(confidence: float) -> Injection:
    """The confidence-gated injection style for a hit with this confidence."""
    if math.isnan(confidence) or confidence < ABBREVIATED_FROM:
        return "skipped"
    return "full" if confidence >= FULL_FROM else "abbreviated"


def hot_tier(
    candidates: Iterable[Candidate],
    now: datetime,
    *,
    max_items: int = HOT_MAX_ITEMS,
) -> list[Candidate]:
    """The always-inject hot tier: utility ≥ 0.8, ≥ 10 accesses, younger than 30 days,
    active (status and lifecycle), not dormant; best utility first, at most ``max_items``."""
    chosen: dict[str, Candidate] = {}
    for c in candidates:
        created = c.created_at if c.created_at.tzinfo else c.created_at.replace(tzinfo=now.tzinfo)
        if (
            c.utility >= HOT_MIN_UTILITY
            and c.access_count >= HOT_MIN_ACCESS
            and now - created < HOT_MAX_AGE
            and c.status == "active"
            and c.lifecycle_state in (None, "active", "validated")
            and c.tier != "dormant"
        ):
            chosen.setdefault(c.id, c)
    ordered = sorted(chosen.values(), key=lambda c: (-c.utility, -c.access_count, c.id))
    return ordered[: max(0, max_items)]
