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
import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from datetime import datetime

from kgmem.errors import InvalidInput
from kgmem.ingest.normalize import normalize_name
from kgmem.taxonomy import MemoryRelation
from kgmem.taxonomy.parsing import parse_enum
from kgmem.taxonomy.relation_tables import MEMORY_REL_PRUNE_PRIORITY, SYMMETRIC_MEMORY_RELATIONS
from kgmem.validation import check_unit
from kgmem.word_lists import word_set

# --- Content words -----------------------------------------------------------------------------

# English function words, auxiliaries, pronouns and conversational filler. Dropping them keeps
# "I went to the shop" and "She went to the gym" from overlapping on "went to the"; the standalone
# rewriting ("I prefer X" → "User prefers X") makes "user" a function word here too.
_STOP_TEXT = """
    a about above after again against all also am an and any are aren't as at be because been
    before being below between both but by can can't cannot could couldn't did didn't do does
    doesn't doing don't down during each either else even ever every few for from further get
    gets got had hadn't has hasn't have haven't having he he'd he'll he's her here here's hers
    herself him himself his how how's however i i'd i'll i'm i've if in into is isn't it it's
    its itself just let let's like may me might more most much must mustn't my myself neither
    no nor not now of off often on once one only or other ought our ours ourselves out over own
    per quite rather really same shall shan't she she'd she'll she's should shouldn't since so
    some still such than that that's the their theirs them themselves then there there's these
    they they'd they'll they're they've this those though through thus to too under until up
    upon us very via was wasn't we we'd we'll we're we've were weren't what what's when when's
    where where's whether which while who who's whom whose why why's will with within without
    won't would wouldn't yet you you'd you'll you're you've your yours yourself yourselves
    also already always anyway around back well yes yeah ok okay oh hey hi hello thanks thank
    please sure maybe lot lots thing things something anything everything nothing stuff kind
    sort bit going gonna wanna want wants wanted think thinks thought know knows knew said says
    say tell told make makes made take takes took come comes came go goes went gone see saw
    seen look looks looked feel feels felt way ways time times day days today yesterday
    tomorrow user users assistant
"""
STOP_WORDS: frozenset[str] = word_set(_STOP_TEXT)
_WORD_RE = re.compile(r"[^\W_]+(?:'[^\W_]+)?")


def content_words(text: str) -> list[str]:
    """The content words of ``text`` in order, with repeats: lower-cased word tokens (a trailing
    possessive "'s" removed), minus ``STOP_WORDS`` and one-letter tokens. No stemming: the
    heuristics stay predictable and cheap, and a missed "work"/"works" match only makes a link
    less likely, never wrong."""
    if not isinstance(text, str):
        raise InvalidInput(f"text must be a string, got {type(text).__name__}")
    words: list[str] = []
    for token in _WORD_RE.findall(text.replace("\u2019", "'").lower()):
        token = token.removesuffix("'s")
        if len(token) > 1 and token not in STOP_WORDS:
            words.append(token)
    return words


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
# The DEFAULT_REINFORCE_DELTA: each re-observation of an edge adds this, capped at 1.0.
REINFORCE_DELTA = 0.1


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
