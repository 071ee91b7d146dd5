"""The weighted composite that ranks recall candidates, with an additive breakdown for the X-ray.

Contract: ``score(candidate, profile, now)`` is pure (no I/O, no clock: ``now`` is passed in) and
returns ``Scored(final, contributions, factors)`` where ``math.fsum(contributions.values()) ==
final`` exactly — ``final`` is defined as that sum. The composite is seed 003/004's weighted sum
over :data:`profiles.FACTORS` (each weight × a factor in [0, 1]), then seed 004's additive boosts
(entity +0.1 per matching entity, episode +0.15 for the same session, Hebbian +0.05 when a
co-activation count is ≥ 3; within a ranked set a query entity counts by its specificity, see
``entity_specificity``), then the multiplicative boosts in seed 004's order (sub-tier, tier,
seed 000's lifecycle and disputed adjustments, seed 004's low source confidence and optional
mood congruence). A multiplicative boost is recorded as its own additive delta
(``score × (m − 1)``), so the X-ray can show every factor's share. ``factors`` holds each weighted
factor's [0, 1] value, each multiplicative boost's multiplier and each additive boost's count.
Bad stored values are clamped rather than failing a recall; a naive ``now`` raises InvalidInput.
The records it reads and returns live in ``recall.candidates``.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence
from datetime import UTC, datetime

from kgmem.errors import InvalidInput
from kgmem.recall.candidates import Candidate, Norms, Scored, Stability
from kgmem.recall.curves import act_r_activation, recency, retention, sub_tier
from kgmem.recall.diversity import cosines
from kgmem.recall.profiles import FACTORS, Profile

# --- seed constants ----------------------------------------------------------------------------
ENTITY_BOOST = 0.10  # seed 004: +0.1 per matching entity
EPISODE_BOOST = 0.15  # seed 004: +0.15 for a same-session episode
COACTIVATION_BOOST = 0.05  # seed 004: pairs co-activated >= 3 times get 0.05
COACTIVATION_MIN = 3
LOW_SOURCE_CONFIDENCE = 0.3  # seed 004: memories below this are deprioritised...
LOW_CONFIDENCE_FACTOR = 0.8  # ...by this much (the seed gives no number)
MOOD_BOOST = 1.1  # seed 004: mood-congruent memories score x1.1

# Seed 000: active/validated a small boost, candidate a slight penalty, stale a stronger one,
# disputed an additional penalty (magnitudes are kgmem's; seed 000 names only their order).
# Archived is treated like stale. A memory without lifecycle metadata is neutral (fail-open).
LIFECYCLE_FACTOR: dict[str, float] = {
    "active": 1.05,
    "validated": 1.05,
    "candidate": 0.95,
    "stale": 0.85,
    "archived": 0.85,
}
DISPUTED_FACTOR = 0.85
# Tier bias: seed 002's layer bias (core +0.1 over working, buffer -0.1) and seed 001's "semantic
# weighted higher", as multipliers around the episodic intake tier; dormant is cold storage.
TIER_FACTOR: dict[str, float] = {
    "core": 1.1,
    "semantic": 1.05,
    "episodic": 1.0,
    "working": 1.0,
    "dormant": 0.9,
}
# Seed 004's sub-tiers: episodic by source, semantic by content.
SUB_TIER_FACTOR: dict[str, float] = {
    "personal": 1.1,
    "observed": 1.0,
    "vicarious": 0.9,
    "schematic": 1.1,
    "procedural": 1.05,
    "factual": 1.0,
}
ADDITIVE_BOOSTS = ("entity_boost", "episode_boost", "coactivation_boost")
MULTIPLIERS = (
    "sub_tier_boost",
    "tier_boost",
    "lifecycle_boost",
    "disputed_penalty",
    "low_confidence_penalty",
    "mood_boost",
)
_DAY = 86400.0


# --- the composite ------------------------------------------------------------------------------


def _unit(value: float | None) -> float:
    if value is None or math.isnan(value):
        return 0.0
    return min(1.0, max(0.0, float(value)))


def _ratio(value: float | None, top: float) -> float:
    return _unit((value or 0.0) / top) if top > 0.0 else 0.0


def _aware(moment: datetime) -> datetime:
    return moment if moment.tzinfo is not None else moment.replace(tzinfo=UTC)


def similarities(
    candidates: Sequence[Candidate], query_embedding: Sequence[float] | None
) -> list[float]:
    """Each candidate's similarity factor: the vector index's cosine when the vector channel
    scored it, else the query-memory cosine (computed for the whole set at once), else 0."""
    sims = [
        _unit(2.0 * c.vector_score - 1.0) if c.vector_score is not None else 0.0 for c in candidates
    ]
    need = [
        i
        for i, c in enumerate(candidates)
        if c.vector_score is None and c.embedding is not None and len(c.embedding)
    ]
    if query_embedding is not None and need:
        found = cosines(query_embedding, [candidates[i].embedding for i in need])
        for i, cos in zip(need, found, strict=True):
            sims[i] = _unit(cos)
    return sims


def _lifecycle(c: Candidate) -> float:
    state = c.lifecycle_state
    if c.status == "stale" and state not in ("stale", "archived"):
        state = "stale"  # seed 003: a stale status is deprioritised too (once, not twice)
    return LIFECYCLE_FACTOR.get(state or "", 1.0)


def _multipliers(c: Candidate, mood_valence: float | None) -> dict[str, float]:
    level = sub_tier(c)
    disputed = c.verification_state == "disputed" or c.status == "challenged"
    congruent = (
        mood_valence is not None and mood_valence * c.valence > 0.0  # same sign, both non-zero
    )
    return {
        "sub_tier_boost": SUB_TIER_FACTOR[level] if level else 1.0,
        "tier_boost": TIER_FACTOR.get(c.tier, 1.0),
        "lifecycle_boost": _lifecycle(c),
        "disputed_penalty": DISPUTED_FACTOR if disputed else 1.0,
        "low_confidence_penalty": (
            LOW_CONFIDENCE_FACTOR if _unit(c.confidence) < LOW_SOURCE_CONFIDENCE else 1.0
        ),
        "mood_boost": MOOD_BOOST if congruent else 1.0,
    }


def score(
    candidate: Candidate,
    profile: Profile,
    now: datetime,
    *,
    norms: Norms | None = None,
    stability: Stability = None,
    session_id: str | None = None,
    mood_valence: float | None = None,
    query_embedding: Sequence[float] | None = None,
) -> Scored:
    """The composite for one candidate under ``profile`` at ``now`` (see the module docstring).

    ``stability`` overrides the candidate's own S for retention: a number of days, or a callable
    ``(candidate, now) -> days`` (the lifecycle module's effective stability).
    """
    sims = similarities([candidate], query_embedding)
    return _composite(candidate, profile, now, norms, stability, session_id, mood_valence, sims[0])


def _composite(
    c: Candidate,
    profile: Profile,
    now: datetime,
    norms: Norms | None,
    stability: Stability,
    session_id: str | None,
    mood_valence: float | None,
    similarity: float,
) -> Scored:
    if now.tzinfo is None:
        raise InvalidInput("now must be timezone-aware (UTC)")
    n = norms or Norms()
    created = _aware(c.created_at)
    touched = max(created, _aware(c.last_accessed)) if c.last_accessed else created
    since_access = max(0.0, (now - touched).total_seconds())
    s_days = stability(c, now) if callable(stability) else stability
    factors: dict[str, float] = {
        "similarity": similarity,
        "bm25": _ratio(c.bm25_score, n.bm25_max),
        "rrf": _ratio(c.rrf_score, n.rrf_max),
        "activation": _ratio(c.activation_score, n.activation_max),
        "recency": recency(since_access / _DAY, profile.recency_half_life_days),
        "retention": retention(since_access / _DAY, c.stability if s_days is None else s_days),
        "act_r": act_r_activation(c.access_count, since_access),
        "importance": _unit(c.importance),
        "utility": _unit(c.utility),
        # seed 003's confidence term, discounted by seed 001's trust in who wrote the memory
        "confidence": _unit(c.confidence) * _unit(c.source_trust),
    }
    contributions = {f: profile.weight(f) * factors[f] for f in FACTORS}
    same_session = session_id is not None and c.session_id == session_id
    hebbian = c.co_activation >= COACTIVATION_MIN
    counts = {
        "entity_boost": _entity_units(c, n),
        "episode_boost": 1.0 if same_session else 0.0,
        "coactivation_boost": 1.0 if hebbian else 0.0,
    }
    per_unit = {
        "entity_boost": ENTITY_BOOST,
        "episode_boost": EPISODE_BOOST,
        "coactivation_boost": COACTIVATION_BOOST,
    }
    for name in ADDITIVE_BOOSTS:
        contributions[name] = counts[name] * per_unit[name]
        factors[name] = counts[name]
    running = math.fsum(contributions.values())
    for name, multiplier in _multipliers(c, mood_valence).items():
        delta = running * (multiplier - 1.0)
        contributions[name] = delta
        factors[name] = multiplier
        running += delta
    return Scored(math.fsum(contributions.values()), contributions, factors, c.id)


def _entity_units(c: Candidate, n: Norms) -> float:
    """How many query entities the memory matches, each weighted by its specificity."""
    return math.fsum(n.entity_specificity.get(e, 1.0) for e in c.matched_entities)


def entity_specificity(candidates: Sequence[Candidate]) -> dict[str, float]:
    """Each matched query entity's specificity in a candidate set: 1 − the share of candidates
    that mention it (an IDF within the set).

    Seed 004 boosts a memory +0.1 per query entity it mentions. When a query names someone
    nearly every memory is about (the two speakers of a conversation, the user), that boost
    lifts every candidate alike and only drowns the evidence channels; a rarely mentioned entity
    still separates the memories that name it, so it keeps (nearly) the whole boost. A set of
    fewer than two candidates has nothing to separate: every entity counts fully.
    """
    if len(candidates) < 2:
        return {}
    counts: dict[str, int] = {}
    for c in candidates:
        for e in set(c.matched_entities):
            counts[e] = counts.get(e, 0) + 1
    return {e: 1.0 - k / len(candidates) for e, k in counts.items()}


def norms_for(candidates: Iterable[Candidate]) -> Norms:
    """The channel maxima over one candidate set (a channel nobody scored keeps 1.0) and the
    query entities' specificity in it."""
    items = list(candidates)

    def top(values: Iterable[float | None]) -> float:
        finite = [v for v in values if v is not None and math.isfinite(v) and v > 0.0]
        return max(finite, default=1.0)

    return Norms(
        bm25_max=top(c.bm25_score for c in items),
        activation_max=top(c.activation_score for c in items),
        rrf_max=top(c.rrf_score for c in items),
        entity_specificity=entity_specificity(items),
    )


def rank(
    candidates: Iterable[Candidate],
    profile: Profile,
    now: datetime,
    *,
    stability: Stability = None,
    session_id: str | None = None,
    mood_valence: float | None = None,
    query_embedding: Sequence[float] | None = None,
) -> list[Scored]:
    """Score a candidate set (BM25/activation/RRF and entity specificity taken within it), best
    first, ties by id."""
    items = list(candidates)
    norms = norms_for(items)
    sims = similarities(items, query_embedding)
    scored = [
        _composite(c, profile, now, norms, stability, session_id, mood_valence, sim)
        for c, sim in zip(items, sims, strict=True)
    ]
    return sorted(scored, key=lambda s: (-s.final, s.memory_id))
