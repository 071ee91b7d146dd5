"""Memory↔memory linking (docs/write-path.md): the relation heuristics, strength, pruning.

Contract: pure functions over plain records, no I/O, no clock. ``detect_relations(new, others)``
applies the heuristic fallback to each pair and returns at most one ``MemoryLink`` per
other memory, the first rule that fires: entity overlap ≥ 2 → ``same_entity`` (0.7); content-word
overlap > 30 % and entity overlap ≥ 1 → ``elaborates`` (0.5); same category and content-word
overlap > 15 % → ``related_to`` (0.4). Word overlap is the Jaccard index of the two texts'
content-word sets (``content_words``: lower-cased word tokens minus stop words and one-letter
tokens). ``relation_strength`` is the count·0.4 + recency·0.3 + confidence·0.3 with the
count saturating at 5 and recency exp(−days/30); ``reinforce_confidence`` is the capped
+delta; ``prune_plan`` is the trim (over 1000 links → down to 900) that never touches
supersedes/contradicts/causes (nor any type ``MEMORY_REL_PRUNE_PRIORITY`` marks unprunable).
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from datetime import datetime

from kgmem.core.text import content_words, normalize_name
from kgmem.core.tunables import REINFORCE_DELTA
from kgmem.core.validation import check_unit
from kgmem.errors import InvalidInput
from kgmem.taxonomy import MemoryRelation
from kgmem.taxonomy.parsing import parse_enum
from kgmem.taxonomy.relation_tables import MEMORY_REL_PRUNE_PRIORITY, SYMMETRIC_MEMORY_RELATIONS

# --- Content words -----------------------------------------------------------------------------


def word_overlap(a: str, b: str) -> float:
    """Jaccard index of the content-word sets of ``a`` and ``b`` (0.0 when either has none).

    Jaccard rather than overlap-over-the-smaller-set: a two-word memory would otherwise "overlap
    100 %" with every longer text containing those two words, and the relation is symmetric.
    """
    wa, wb = set(content_words(a)), set(content_words(b))
    if not wa or not wb:
        return 0.0
    return len(wa & wb) / len(wa | wb)


# --- Relation detection (kgmem heuristic fallback) ------------------------------------------

SAME_ENTITY_MIN_SHARED = 2
SAME_ENTITY_CONFIDENCE = 0.7
ELABORATES_MIN_WORD_OVERLAP = 0.30  # strictly more than 30 %
ELABORATES_MIN_SHARED = 1
ELABORATES_CONFIDENCE = 0.5
RELATED_MIN_WORD_OVERLAP = 0.15  # strictly more than 15 %
RELATED_CONFIDENCE = 0.4


@dataclass(frozen=True)
class MemoryFeatures:
    """What the heuristics read from one memory."""

    id: str
    content: str
    category: str
    entities: frozenset[str] = frozenset()
    session_id: str | None = None


@dataclass(frozen=True)
class MemoryLink:
    """A typed, confidence-weighted edge from ``source`` to ``target`` memory."""

    source: str
    target: str
    type: MemoryRelation
    confidence: float
    reason: str = ""

    def __post_init__(self) -> None:
        # Relationship types reach Cypher only through the closed vocabulary (docs/memory-model.md).
        object.__setattr__(self, "type", parse_enum(MemoryRelation, self.type, "memory relation"))
        check_unit(self.confidence, what="confidence")
        if not self.source or not self.target:
            raise InvalidInput("a memory link needs a source and a target id")

    @property
    def key(self) -> tuple[str, str, MemoryRelation]:
        """Identity for dedup (docs/write-path.md#the-gate): symmetric types ignore direction."""
        if self.type in SYMMETRIC_MEMORY_RELATIONS and self.target < self.source:
            return (self.target, self.source, self.type)
        return (self.source, self.target, self.type)


def _entity_keys(entities: Iterable[str]) -> frozenset[str]:
    # "Acme Corp." and "the acme corp" are one entity (same rule as entity resolution).
    return frozenset(key for key in (normalize_name(e) for e in entities) if key)


def classify_pair(new: MemoryFeatures, other: MemoryFeatures) -> MemoryLink | None:
    """The link the heuristics draw from ``new`` to ``other``, or None."""
    shared = len(_entity_keys(new.entities) & _entity_keys(other.entities))
    if shared >= SAME_ENTITY_MIN_SHARED:
        return MemoryLink(
            new.id,
            other.id,
            MemoryRelation.SAME_ENTITY,
            SAME_ENTITY_CONFIDENCE,
            f"{shared} shared entities",
        )
    overlap = word_overlap(new.content, other.content)
    if overlap > ELABORATES_MIN_WORD_OVERLAP and shared >= ELABORATES_MIN_SHARED:
        return MemoryLink(
            new.id,
            other.id,
            MemoryRelation.ELABORATES,
            ELABORATES_CONFIDENCE,
            f"word overlap {overlap:.2f}, {shared} shared entity",
        )
    if overlap > RELATED_MIN_WORD_OVERLAP and str(new.category) == str(other.category):
        return MemoryLink(
            new.id,
            other.id,
            MemoryRelation.RELATED_TO,
            RELATED_CONFIDENCE,
            f"same category, word overlap {overlap:.2f}",
        )
    return None


def detect_relations(new: MemoryFeatures, others: Sequence[MemoryFeatures]) -> list[MemoryLink]:
    """Links from ``new`` to each of ``others`` (itself and repeated ids skipped), strongest
    first, ties by target id."""
    links: dict[str, MemoryLink] = {}
    for other in others:
        if other.id == new.id or other.id in links:
            continue
        link = classify_pair(new, other)
        if link is not None:
            links[other.id] = link
    return sorted(links.values(), key=lambda link: (-link.confidence, link.target))


def dedupe_links(links: Iterable[MemoryLink]) -> list[MemoryLink]:
    """One link per ``key`` (no duplicate relations), keeping the most confident."""
    best: dict[tuple[str, str, MemoryRelation], MemoryLink] = {}
    for link in links:
        held = best.get(link.key)
        if held is None or link.confidence > held.confidence:
            best[link.key] = link
    return list(best.values())


# --- Strength and reinforcement ----------------------------------------------------------------

# strength = count·0.4 + recency·0.3 + confidence·0.3. The seed leaves count unscaled;
# kgmem maps it into [0, 1] with min(count / 5, 1): five independent mentions is about as
# established as a relation gets from conversation, and saturating keeps strength in [0, 1] so
# it can weight a graph edge next to confidences.
COUNT_WEIGHT, RECENCY_WEIGHT, CONFIDENCE_WEIGHT = 0.4, 0.3, 0.3
COUNT_SATURATION = 5
RECENCY_HORIZON_DAYS = 30.0


def relation_strength(
    count: int,
    last_seen: datetime,
    now: datetime,
    confidence: float,
    horizon_days: float = RECENCY_HORIZON_DAYS,
) -> float:
    """The relationship strength in [0, 1]; recency = exp(−days since last seen / horizon),
    and a ``last_seen`` after ``now`` (clock skew) counts as just seen."""
    if isinstance(count, bool) or not isinstance(count, int) or count < 0:
        raise InvalidInput(f"count must be a non-negative integer, got {count!r}")
    if not isinstance(horizon_days, int | float) or not horizon_days > 0:
        raise InvalidInput(f"horizon_days must be positive, got {horizon_days!r}")
    for name, at in (("last_seen", last_seen), ("now", now)):
        if not isinstance(at, datetime) or at.utcoffset() is None:
            raise InvalidInput(f"{name} must be a timezone-aware datetime, got {at!r}")
    days = max(0.0, (now - last_seen).total_seconds() / 86_400.0)
    count_term = min(count / COUNT_SATURATION, 1.0)
    recency = math.exp(-days / horizon_days)
    return (
        count_term * COUNT_WEIGHT
        + recency * RECENCY_WEIGHT
        + check_unit(confidence, what="confidence") * CONFIDENCE_WEIGHT
    )


def reinforce_confidence(conf: float, delta: float = REINFORCE_DELTA) -> float:
    """The edge reinforcement: confidence + delta, capped at 1.0."""
    if isinstance(delta, bool) or not isinstance(delta, int | float) or not 0 <= delta <= 1:
        raise InvalidInput(f"delta must be in [0, 1], got {delta!r}")
    return min(1.0, check_unit(conf, what="confidence") + delta)


# --- Pruning ------------------------------------------------------------------------

PRUNE_CAP = 1000
PRUNE_TARGET = 900


def prunable(link: MemoryLink) -> bool:
    """False for supersedes, contradicts, causes and the other never-pruned types."""
    return MEMORY_REL_PRUNE_PRIORITY.get(link.type) is not None


def _priority(link: MemoryLink) -> int:
    rank = MEMORY_REL_PRUNE_PRIORITY.get(link.type)
    if rank is None:
        raise InvalidInput(f"{link.type} links are never pruned")
    return rank


def prune_plan(
    links: Sequence[MemoryLink], cap: int = PRUNE_CAP, target: int = PRUNE_TARGET
) -> list[MemoryLink]:
    """The links to delete so that at most ``target`` remain, or none while ``len ≤ cap``.

    Victims are prunable links in order of prune priority (related_to and co_activated first,
    then same_entity, then elaborates) and, within one priority, lowest confidence first; ties
    break on (source, target) so the plan is deterministic. Never-prunable links are never in
    the plan, so if they alone exceed ``target`` every prunable link goes and the rest stay.
    """
    for name, value in (("cap", cap), ("target", target)):
        if isinstance(value, bool) or not isinstance(value, int) or value < 0:
            raise InvalidInput(f"{name} must be a non-negative integer, got {value!r}")
    if target > cap:
        raise InvalidInput(f"target ({target}) must not exceed cap ({cap})")
    if len(links) <= cap:
        return []
    candidates = sorted(
        (link for link in links if prunable(link)),
        key=lambda link: (_priority(link), link.confidence, link.source, link.target),
    )
    return candidates[: max(0, len(links) - target)]
