"""The records recall scores: a ``Candidate`` with its channel evidence, the candidate set's
``Norms`` and a candidate's ``Scored`` composite.

Contract: plain frozen dataclasses with no behaviour beyond ``Candidate.entity_matches`` (the
number of query entities the memory mentions); every time is tz-aware UTC. The channels build
candidates, ``recall.scoring`` turns them into ``Scored`` records (``final`` is exactly
``math.fsum(contributions.values())``), and the filters, diversity and X-ray stages read them.
``Stability`` is the type of ``scoring.score``'s retention override: days, or a callable
``(candidate, now) -> days``. A hydrated candidate's ``embedding`` is a read-only float64 row of
the matrix hydration built once for the whole set (``embedding_rows``), so scoring's cosines and
MMR stack rows instead of converting 384 Python floats per candidate again; other callers may
pass any float sequence. It takes no part in equality (an array has no single truth value).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import datetime

import numpy as np
import numpy.typing as npt

Embedding = Sequence[float] | npt.NDArray[np.float64]


@dataclass(frozen=True)
class Candidate:
    """A memory that some channel found, with that channel evidence (all times tz-aware UTC).

    ``vector_score`` is the vector index's raw score ((1 + cos) / 2 for Neo4j's cosine index);
    ``bm25_score`` is already in [0, 1] (a fulltext hit's share of its list's best, or of a
    floor when the best is weak: ``channels.collect``); ``activation_score``/``rrf_score`` are
    raw channel scores, normalised by the maxima over the candidate set (:class:`Norms`).
    ``stability`` is the effective stability S in days
    (``core.retention.effective_stability``), not the stored per-memory multiplier;
    ``score`` also takes S as a number or callable. ``matched_entities`` are the query entities
    the memory mentions (``entity_matches`` counts them); ``co_activation`` is the largest
    CO_ACTIVATED count between this memory and another candidate of the same query.
    """

    id: str
    content: str
    created_at: datetime
    category: str = "fact"
    memory_type: str | None = None
    status: str = "active"
    tier: str = "episodic"
    lifecycle_state: str | None = None
    verification_state: str | None = None
    source: str = "unknown"
    importance: float = 0.5
    utility: float = 0.5
    confidence: float = 0.5
    source_trust: float = 0.5
    access_count: int = 0
    last_accessed: datetime | None = None
    stability: float = 1.0
    valid_from: datetime | None = None
    valid_until: datetime | None = None
    session_id: str | None = None
    entities: tuple[str, ...] = ()
    valence: float = 0.0
    embedding: Embedding | None = field(default=None, compare=False)
    vector_score: float | None = None
    bm25_score: float | None = None
    activation_score: float | None = None
    rrf_score: float = 0.0
    co_activation: int = 0
    matched_entities: tuple[str, ...] = ()  # the query entities this memory mentions
    holds_asked_slot: bool = False  # the claim channel found it: it holds the slot asked about
    names_only: bool = False  # it says nothing but names, the question asks more (coverage.py)
    in_asked_period: bool = False  # said or dated in a period the question names (asked_time.py)
    states_asked_type: bool = False  # states the kind of answer asked: a date, a number

    @property
    def entity_matches(self) -> int:
        return len(self.matched_entities)


@dataclass(frozen=True)
class Norms:
    """Maxima of the unbounded channel scores over one candidate set (1.0 = already in [0, 1])."""

    activation_max: float = 1.0
    rrf_max: float = 1.0
    # query entity -> its specificity in this set (absent: counts fully, the flat +0.1)
    entity_specificity: Mapping[str, float] = field(default_factory=dict)


@dataclass(frozen=True)
class Scored:
    """A candidate's composite: ``final`` is exactly ``math.fsum(contributions.values())``."""

    final: float
    contributions: dict[str, float]
    factors: dict[str, float]
    memory_id: str = ""


Stability = float | Callable[[Candidate, datetime], float] | None
