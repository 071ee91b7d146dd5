"""Ranking profiles and recall modes as data (docs/recall.md): no code branches per profile.

Contract: :data:`PROFILES` maps the five profile names (balanced, recent, important, deep,
broad) to a frozen :class:`Profile` whose ``weights`` cover every composite factor kgmem scores
(:data:`FACTORS`) and sum to 1; :data:`MODES` maps the recall modes (facts_only,
facts_plus_rules, full_context) to the memory types and categories they include.
``get_profile``/``get_mode`` turn a caller's name into one of these or raise ``InvalidInput``
listing the allowed names. Pure data and pure functions; ``scoring`` reads the weights: those
of :data:`RELEVANCE_FACTORS` split a memory's relevance, and the share on :data:`PRIOR_FACTORS`
(``Profile.prior_share``) sets how far the priors may scale it (``scoring.PRIOR_SPAN``). So a
profile's priors reorder memories of similar relevance and never outweigh the question.

How the source engines' composites land in kgmem's factor set. kgmem scores five groups — semantic,
recency, decay, importance, confidence — and its five profiles are copied verbatim
(:data:`SEED_003_WEIGHTS`). kgmem has more evidence than , so each group's share is split
over the kgmem factors that measure the same thing (:data:`GROUP_SPLIT`):

* semantic → similarity 0.6, rrf 0.2, bm25 0.1, activation 0.1. The composite gives
  similarity and RRF 0.40 : 0.15 (about 3 : 1), and the "relevance" (0.60) is the same
  group; raw BM25 and graph activation are channels that already feed RRF, so they get a tenth
  each on their own.
* decay → retention (FSRS-6) 0.6, act_r 0.4. The decay term is a retention
  curve; the 0.30 × ACT-R activation measures the same "how accessible is it now".
* importance → importance 0.75, utility 0.25. The utility score weighs utility like
  importance (0.2 each); intents that want more utility raise it with :meth:`Profile.tuned`.
* recency → recency; confidence → confidence (unchanged).

So the ``0.40 sim + 0.30 ACT-R + 0.15 importance + 0.15 RRF`` is the factor set
{similarity, act_r, importance, rrf} and the ``0.60 relevance + 0.20 importance + 0.20
recency`` is {similarity (+ bm25, rrf), importance, recency}; both are expressible as weights
here (:data:`SEED_004_COMPOSITE`, :data:`SEED_002_COMPOSITE`) and checked by the tests.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from types import MappingProxyType

from kgmem.errors import InvalidInput
from kgmem.taxonomy import Category, MemoryType
from kgmem.taxonomy.category_tables import DEFAULT_MEMORY_TYPE

FACTORS: tuple[str, ...] = (
    "similarity",
    "bm25",
    "rrf",
    "activation",
    "recency",
    "retention",
    "act_r",
    "importance",
    "utility",
    "confidence",
)
GROUPS: tuple[str, ...] = ("semantic", "recency", "decay", "importance", "confidence")
# What the query asks (relevance) and what is known of a memory whatever the query (its priors).
# The scoring ranks by relevance and lets the priors only scale it within a bound (scoring.py).
RELEVANCE_FACTORS: tuple[str, ...] = ("similarity", "bm25", "rrf", "activation")
PRIOR_FACTORS: tuple[str, ...] = tuple(f for f in FACTORS if f not in RELEVANCE_FACTORS)

# The profiles, verbatim: semantic / recency / decay / importance / confidence.
SEED_003_WEIGHTS: dict[str, tuple[float, float, float, float, float]] = {
    "balanced": (0.35, 0.20, 0.20, 0.20, 0.05),
    "recent": (0.30, 0.50, 0.10, 0.07, 0.03),
    "important": (0.40, 0.10, 0.10, 0.35, 0.05),
    "deep": (0.50, 0.05, 0.25, 0.15, 0.05),
    "broad": (0.45, 0.15, 0.15, 0.20, 0.05),
}
GROUP_SPLIT: dict[str, dict[str, float]] = {
    "semantic": {"similarity": 0.6, "rrf": 0.2, "bm25": 0.1, "activation": 0.1},
    "recency": {"recency": 1.0},
    "decay": {"retention": 0.6, "act_r": 0.4},
    "importance": {"importance": 0.75, "utility": 0.25},
    "confidence": {"confidence": 1.0},
}
SEED_004_COMPOSITE: dict[str, float] = {
    "similarity": 0.40,
    "act_r": 0.30,
    "importance": 0.15,
    "rrf": 0.15,
}
SEED_002_COMPOSITE: dict[str, float] = {"similarity": 0.60, "importance": 0.20, "recency": 0.20}

# Half-life of the recency factor. kgmem uses one week; 'recent' looks at the last few days,
# 'important' and 'deep' reach back over months so age barely separates old knowledge.
RECENCY_HALF_LIFE_DAYS: dict[str, float] = {
    "balanced": 7.0,
    "recent": 3.0,
    "important": 30.0,
    "deep": 90.0,
    "broad": 14.0,
}
DESCRIPTIONS: dict[str, str] = {
    "balanced": "default, good for general-purpose recall",
    "recent": "prioritises recently created or accessed memories",
    "important": "surfaces high-importance memories regardless of age",
    "deep": "deep recall across long time periods",
    "broad": "broader results with balanced weighting across dimensions",
}
DEFAULT_PROFILE = "balanced"


@dataclass(frozen=True)
class Profile:
    """One ranking profile: a weight per factor (summing to 1), a recency half-life and the
    weight of each recall channel's list in the rank fusion (a channel not named weighs 1:
    the plain RRF). ``intent_tuning`` says whether the intent router may
    re-weight the profile (:meth:`tuned`); a profile that sets its own relevance split says no."""

    name: str
    description: str
    weights: Mapping[str, float]
    recency_half_life_days: float
    groups: Mapping[str, float] = field(default_factory=dict)  # the group shares
    channel_weights: Mapping[str, float] = field(default_factory=dict)
    intent_tuning: bool = True
    hub_boost: float = 1.0  # Lucene boost of the namespace's hub names in the text searches
    feedback: bool = False  # pseudo-relevance feedback for the text searches (feedback.py)

    def weight(self, factor: str) -> float:
        return self.weights.get(factor, 0.0)

    @property
    def prior_share(self) -> float:
        """The share of the profile's weight on the query-independent factors, in [0, 1]."""
        total = sum(self.weight(f) for f in FACTORS)
        return sum(self.weight(f) for f in PRIOR_FACTORS) / total if total > 0.0 else 0.0

    def tuned(
        self,
        *,
        utility_boost: float = 0.0,
        vector_weight: float | None = None,
        fts_weight: float | None = None,
    ) -> Profile:
        """This profile adjusted by an intent's strategy (the router).

        ``utility_boost`` becomes utility's share of the composite when it is larger than the
        profile's own (the other weights shrink in proportion, so the total stays 1).
        ``vector_weight``/``fts_weight`` re-split the similarity + bm25 share in that ratio.
        A profile with ``intent_tuning`` off is returned unchanged (the arguments still checked).
        """
        if not 0.0 <= utility_boost < 1.0:
            raise InvalidInput(f"utility_boost must be in [0, 1), got {utility_boost}")
        if not self.intent_tuning:
            return self
        weights = dict(self.weights)
        if vector_weight is not None and fts_weight is not None and vector_weight + fts_weight > 0:
            pair = weights["similarity"] + weights["bm25"]
            weights["similarity"] = pair * vector_weight / (vector_weight + fts_weight)
            weights["bm25"] = pair * fts_weight / (vector_weight + fts_weight)
        old = weights["utility"]
        if utility_boost > old:
            scale = (1.0 - utility_boost) / (1.0 - old)
            weights = {f: w * scale for f, w in weights.items()}
            weights["utility"] = utility_boost
        return Profile(
            self.name,
            self.description,
            MappingProxyType(weights),
            self.recency_half_life_days,
            self.groups,
            self.channel_weights,
            self.intent_tuning,
            self.hub_boost,
            self.feedback,
        )


def _expand(name: str) -> Profile:
    groups = dict(zip(GROUPS, SEED_003_WEIGHTS[name], strict=True))
    weights = dict.fromkeys(FACTORS, 0.0)
    for group, share in groups.items():
        for factor, fraction in GROUP_SPLIT[group].items():
            weights[factor] += share * fraction
    return Profile(
        name=name,
        description=DESCRIPTIONS[name],
        weights=MappingProxyType(weights),
        recency_half_life_days=RECENCY_HALF_LIFE_DAYS[name],
        groups=MappingProxyType(groups),
    )


PROFILES: dict[str, Profile] = {name: _expand(name) for name in SEED_003_WEIGHTS}
# The Lucene boost of a namespace's hub names (the entities at least a tenth of its memories
# mention: a conversation's speakers, an assistant's user) in the text searches of `balanced`
# (the default) and `precise`. The fulltext indexes are shared by every namespace, so those names
# keep the IDF of rare words although nearly every memory of their own namespace names them.
# `balanced`, LoCoMo replay on a fresh ingest: R@10 0.626 -> 0.637 (+0.010 on
# conv-26/41/43, +0.011 held out on conv-30/42). The other seed profiles were not measured and
# keep every word at full weight.
HUB_BOOST = 0.3
PROFILES["balanced"] = replace(PROFILES["balanced"], hub_boost=HUB_BOOST)
# The episode list at 1.5x the vector and memory-text lists measured +0.007
# R@10 alone, but on top of the question words and feedback it lost R@10 on both halves
# (tune 0.692 -> 0.688, held out 0.680 -> 0.678) while winning multi-hop (0.479 -> 0.489), so the
# lists stay at weight 1 (RESULTS.md, LoCoMo section).
PRECISE_CHANNEL_WEIGHTS: dict[str, float] = {"entity": 0.1, "activation": 0.5}
# kgmem's own sixth profile: relevance first, for question answering over long conversations,
# where every memory is old and importance/recency are weak evidence of what a question asks.
# Measured on LoCoMo (benchmarks/locomo.py --profile precise); not one of the five.
PROFILES["precise"] = Profile(
    name="precise",
    description="relevance first: similarity, BM25 and their fusion; little decay or importance",
    weights=MappingProxyType(
        {
            "similarity": 0.45,
            "bm25": 0.25,
            "rrf": 0.15,
            "activation": 0.05,
            "recency": 0.0,
            "retention": 0.03,
            "act_r": 0.02,
            "importance": 0.03,
            "utility": 0.0,
            "confidence": 0.02,
        }
    ),
    recency_half_life_days=30.0,
    groups=MappingProxyType(
        {"semantic": 0.90, "recency": 0.0, "decay": 0.05, "importance": 0.03, "confidence": 0.02}
    ),
    # The entity and spreading-activation lists rank memories by who they are about, not by
    # what the question asks: in a conversation nearly every memory names one of the speakers.
    # They still lift multi-hop answers, so they stay in the fusion at a lower weight; the entity
    # list, which repeats the lexical evidence through the speakers' names, least of all (0.3 ->
    # 0.1: +0.004 R@10 over the full LoCoMo dev split in an exact replay), both
    # relative to the vector and memory-text lists. Seeding activation only from hits
    # that three channels agree on, or a weight of 0.25, won on conv-26/41/43 but lost on the
    # held-out conv-30/42, where activation from weaker seeds found second multi-hop evidence.
    channel_weights=MappingProxyType(PRECISE_CHANNEL_WEIGHTS),
    # Its similarity : bm25 split is already the relevance-first one; the router would
    # re-split it per intent and hand utility (flat in a conversation) a fifth of the score.
    # LoCoMo replay: +0.012 R@10 on conv-26/41/43, +0.001 held out on conv-30/42 (RESULTS.md).
    intent_tuning=False,
    # The fulltext indexes are shared by every namespace, so a conversation's speakers keep the
    # IDF of rare words although nearly every memory of their own namespace names them, and a
    # question that names one is pulled to whatever names them most. Their names weigh 0.3 in
    # the text searches (about their IDF within one conversation). LoCoMo replay on a fresh
    # ingest: +0.005 R@10 on conv-26/41/43 and +0.004 held out on conv-30/42; 0.1 gained more
    # on the first three (+0.018) but lost on the other two (-0.005), so it was not kept.
    hub_boost=HUB_BOOST,
    # Pseudo-relevance feedback (feedback.py): the text searches are run again with the words
    # the first pass's top memories share beyond the question ("adopt" -> "kitten", "Oliver").
    # LoCoMo replay on a fresh ingest, after the question-word change: R@10 +0.011 on
    # conv-26/41/43, +0.005 held out on conv-30/42; multi-hop +0.013. Two more round trips.
    feedback=True,
)


# --- Recall modes --------------------------------------------------------------------


@dataclass(frozen=True)
class Mode:
    """The recall mode: which memory types (and so which categories) a recall includes."""

    name: str
    description: str
    types: frozenset[MemoryType]

    @property
    def categories(self) -> frozenset[Category]:
        """Categories whose default memory type this mode includes (for category filters)."""
        return frozenset(c for c, t in DEFAULT_MEMORY_TYPE.items() if t in self.types)

    def includes(self, memory_type: str | None = None, category: str | None = None) -> bool:
        """Whether a memory of this type (or, lacking one, this category) belongs in the recall.

        A memory with neither, or with values kgmem does not know, is only in ``full_context``.
        """
        if memory_type is not None:
            return memory_type in {t.value for t in self.types}
        if category is not None and category in {c.value for c in Category}:
            return DEFAULT_MEMORY_TYPE[Category(category)] in self.types
        return self.types == frozenset(MemoryType)


MODES: dict[str, Mode] = {
    "facts_only": Mode(
        "facts_only",
        "asking for a status, state, or structured answer",
        frozenset({MemoryType.FACT}),
    ),
    "facts_plus_rules": Mode(
        "facts_plus_rules",
        "asking about methodology or how-to",
        frozenset({MemoryType.FACT, MemoryType.PROCEDURE}),
    ),
    "full_context": Mode("full_context", "exhaustive recall", frozenset(MemoryType)),
}
DEFAULT_MODE = "full_context"  # the default


def _lookup(table: Mapping[str, object], name: object, what: str, default: str) -> str:
    if name is None:
        return default
    allowed = ", ".join(table)
    if not isinstance(name, str):
        raise InvalidInput(f"{what} must be a string, one of: {allowed}")
    key = name.strip().lower().replace("-", "_").replace(" ", "_")
    if key not in table:
        raise InvalidInput(f"unknown {what} {name!r}; expected one of: {allowed}")
    return key


def get_profile(name: object = None) -> Profile:
    """The profile called ``name`` (None = balanced); InvalidInput lists the allowed names."""
    return PROFILES[_lookup(PROFILES, name, "ranking profile", DEFAULT_PROFILE)]


def get_mode(name: object = None) -> Mode:
    """The recall mode called ``name`` (None = full_context); InvalidInput lists the allowed."""
    return MODES[_lookup(MODES, name, "recall mode", DEFAULT_MODE)]
