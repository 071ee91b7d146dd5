"""The recall score: relevance first, scaled within a bound by what is known of the memory.

Contract: ``score(candidate, profile, now)`` is pure (no I/O, no clock: ``now`` is passed in) and
returns ``Scored(final, contributions, factors)`` where ``math.fsum(contributions.values) ==
final`` exactly — ``final`` is defined as that sum, so the X-ray shows every factor's share.

``final = relevance × modifier``. Relevance is the profile's weighted mean of the query-dependent
factors (:data:`profiles.RELEVANCE_FACTORS`: similarity, BM25, RRF, activation, each in [0, 1]) plus
the query-side additive boosts (entity +0.1 per matching query entity, weighed by its
specificity within the set; episode +0.15 for the caller's own session; claim +0.15 for a holder
of the attribute asked about; time +0.2 for a memory said or dated in a period the question
names; answer +0.15 for a memory that states a date or a number when the question asks when or
how many), scaled down for a memory
that says nothing but names when the question asks more (``names_only``, ``coverage.py``). The
modifier holds the query-independent evidence: the priors (:data:`profiles.PRIOR_FACTORS`: recency,
retention, ACT-R, importance, utility, confidence) move it by at most ``±PRIOR_SPAN ×
profile.prior_share`` around 1 (linear in each prior, so each has its own additive share), then the
Hebbian co-activation, sub-tier, tier, the lifecycle and disputed adjustments, the
low source confidence and mood congruence multiply it, and the whole modifier is clamped to
``MODIFIER_BAND``. So whatever a memory's age, access history, importance, tier or state, it cannot
beat a memory whose relevance exceeds its own by more than the factor :func:`relevance_bound` names:
priors reorder memories of similar relevance only. (Before, the priors were weighted terms of one
sum and could outweigh the question: a memory recalled often, or stored first, won questions it did
not answer.)
``factors`` holds each factor's [0, 1] value, ``relevance``, each multiplier and each additive
boost's count. Bad stored values are clamped rather than failing a recall; a naive ``now`` raises
InvalidInput. The records it reads and returns live in ``recall.candidates``.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence
from datetime import UTC, datetime

from kgmem.errors import InvalidInput
from kgmem.recall.candidates import Candidate, Norms, Scored, Stability
from kgmem.recall.curves import act_r_activation, recency, retention, sub_tier
from kgmem.recall.diversity import cosines
from kgmem.recall.profiles import PRIOR_FACTORS, RELEVANCE_FACTORS, Profile

# --- seed constants ----------------------------------------------------------------------------
ENTITY_BOOST = 0.10  # +0.1 per matching entity
EPISODE_BOOST = 0.15  # +0.15 for a same-session episode
# A question that asks for an attribute ("How old is Ana?") and a live memory that holds that
# slot for the subject asked about: as much relevance as a same-session episode, since "old"
# matches "an old Fiat Panda" better than "Ana is 29" in words (recall/claim_channel.py).
CLAIM_BOOST = 0.15
# A question that names a day, a week, a month or a year ("What did Maria plan on the evening of
# 7 July, 2023?") and a memory said or dated in it (recall/asked_time.py): the question's words
# and embedding match the same topic on every other day, so the day it names must count for more
# than a same-session episode. LoCoMo dev replay, tune half (conv-26/41/43): MRR 0.540 -> 0.555
# at 0.2, 0.556 at 0.3, 0.552 at 0.5; the held-out half 0.500 -> 0.526 at 0.2.
TIME_BOOST = 0.2
# A question that asks when, or how many, and a memory that states a date, or a number
# (recall/answer_type.py): as much as a same-session episode or a claim holder. LoCoMo dev replay,
# tune half: MRR 0.558 -> 0.564 at 0.1, 0.568 at 0.15, 0.566 at 0.2, 0.567 at 0.3 (multi-hop R@10
# 0.523 -> 0.512 at 0.3); the held-out half 0.529 -> 0.541 at 0.15.
ANSWER_BOOST = 0.15
# A memory that says nothing but names ("User is Tomas.") for a question that asks something
# else ("Where does Tomas live?", recall/coverage.py): it matches the question's subject in every
# channel and, being short, wins the word and vector matches, but answers nothing asked. Its
# relevance is scaled by this (LoCoMo dev replay: R@10 and MRR unchanged on both halves).
NAMES_ONLY_FACTOR = 0.3
# kgmem gives pairs co-activated >= 3 times +0.05 on a composite of about 0.5; co-activation
# is made by recalls themselves, so it is a bounded multiplier here, not added relevance.
COACTIVATION_BOOST = 1.05
COACTIVATION_MIN = 3
LOW_SOURCE_CONFIDENCE = 0.3  # memories below this are deprioritised...
LOW_CONFIDENCE_FACTOR = 0.8  # ...by this much (the seed gives no number)
MOOD_BOOST = 1.1  # mood-congruent memories score x1.1

# active/validated a small boost, candidate a slight penalty, stale a stronger one,
# disputed an additional penalty (magnitudes are kgmem's names only their order).
# Archived is treated like stale. A memory without lifecycle metadata is neutral (fail-open).
LIFECYCLE_FACTOR: dict[str, float] = {
    "active": 1.05,
    "validated": 1.05,
    "candidate": 0.95,
    "stale": 0.85,
    "archived": 0.85,
}
DISPUTED_FACTOR = 0.85
# Tier bias: the layer bias (core +0.1 over working, buffer -0.1) and the "semantic
# weighted higher", as multipliers around the episodic intake tier; dormant is cold storage.
TIER_FACTOR: dict[str, float] = {
    "core": 1.1,
    "semantic": 1.05,
    "episodic": 1.0,
    "working": 1.0,
    "dormant": 0.9,
}
# The sub-tiers: episodic by source, semantic by content.
SUB_TIER_FACTOR: dict[str, float] = {
    "personal": 1.1,
    "observed": 1.0,
    "vicarious": 0.9,
    "schematic": 1.1,
    "procedural": 1.05,
    "factual": 1.0,
}
# The most the priors move a score, at a prior share of 1: a profile with 65 % of its weight on
# the priors (balanced) scales relevance by 0.87-1.13, one with 10 % (precise) by 0.98-1.02.
PRIOR_SPAN = 0.2
# The whole modifier (priors and every multiplier) stays in this band: a memory more than
# MODIFIER_BAND[1] / MODIFIER_BAND[0] = 1.5 times as relevant as another always ranks above it.
MODIFIER_BAND = (0.8, 1.2)
ADDITIVE_BOOSTS = ("entity_boost", "episode_boost", "claim_boost", "time_boost", "answer_boost")
RECALL_FACTORS = ("recency", "retention", "act_r")  # the priors a recall's touch changes
MULTIPLIERS = (
    "coactivation_boost",
    "sub_tier_boost",
    "tier_boost",
    "lifecycle_boost",
    "disputed_penalty",
    "low_confidence_penalty",
    "mood_boost",
    "modifier_band",
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
        state = "stale"  # a stale status is deprioritised too (once, not twice)
    return LIFECYCLE_FACTOR.get(state or "", 1.0)


def _multipliers(c: Candidate, mood_valence: float | None) -> dict[str, float]:
    level = sub_tier(c)
    disputed = c.verification_state == "disputed" or c.status == "challenged"
    congruent = (
        mood_valence is not None and mood_valence * c.valence > 0.0  # same sign, both non-zero
    )
    return {
        "coactivation_boost": COACTIVATION_BOOST if c.co_activation >= COACTIVATION_MIN else 1.0,
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
        "bm25": _unit(c.bm25_score or 0.0),
        "rrf": _ratio(c.rrf_score, n.rrf_max),
        "activation": _ratio(c.activation_score, n.activation_max),
        "recency": recency(since_access / _DAY, profile.recency_half_life_days),
        "retention": retention(since_access / _DAY, c.stability if s_days is None else s_days),
        "act_r": act_r_activation(c.access_count, since_access),
        "importance": _unit(c.importance),
        "utility": _unit(c.utility),
        # the confidence term, discounted by the trust in who wrote the memory
        "confidence": _unit(c.confidence) * _unit(c.source_trust),
    }
    same_session = session_id is not None and c.session_id == session_id
    counts = {
        "entity_boost": _entity_units(c, n),
        "episode_boost": 1.0 if same_session else 0.0,
        "claim_boost": 1.0 if c.holds_asked_slot else 0.0,
        "time_boost": 1.0 if c.in_asked_period else 0.0,
        "answer_boost": 1.0 if c.states_asked_type else 0.0,
    }
    per_unit = {
        "entity_boost": ENTITY_BOOST,
        "episode_boost": EPISODE_BOOST,
        "claim_boost": CLAIM_BOOST,
        "time_boost": TIME_BOOST,
        "answer_boost": ANSWER_BOOST,
    }
    contributions: dict[str, float] = {}
    rel_total = math.fsum(profile.weight(f) for f in RELEVANCE_FACTORS)
    for f in RELEVANCE_FACTORS:
        share = profile.weight(f) / rel_total if rel_total > 0.0 else 1.0 / len(RELEVANCE_FACTORS)
        contributions[f] = share * factors[f]
    for name in ADDITIVE_BOOSTS:
        contributions[name] = counts[name] * per_unit[name]
        factors[name] = counts[name]
    if c.names_only:
        contributions["names_only"] = math.fsum(contributions.values()) * (NAMES_ONLY_FACTOR - 1.0)
        factors["names_only"] = NAMES_ONLY_FACTOR
    relevance = math.fsum(contributions.values())
    factors["relevance"] = relevance
    # The priors: modifier 1 + span × (2·prior − 1), where prior is their weighted mean; each
    # prior's part of relevance × (modifier − 1) is its own contribution (negative below 0.5).
    span = PRIOR_SPAN * profile.prior_share
    prior_total = math.fsum(profile.weight(f) for f in PRIOR_FACTORS)
    for f in PRIOR_FACTORS:
        share = profile.weight(f) / prior_total if prior_total > 0.0 else 0.0
        contributions[f] = relevance * span * share * (2.0 * factors[f] - 1.0)
    running = math.fsum(contributions.values())
    for name, multiplier in _multipliers(c, mood_valence).items():
        delta = running * (multiplier - 1.0)
        contributions[name] = delta
        factors[name] = multiplier
        running += delta
    low, high = MODIFIER_BAND
    bounded = min(high * relevance, max(low * relevance, running))
    contributions["modifier_band"] = bounded - running
    factors["modifier_band"] = bounded / running if running > 0.0 else 1.0
    return Scored(math.fsum(contributions.values()), contributions, factors, c.id)


def diversified(scored: Scored, shown: float, redundancy: float) -> Scored:
    """``scored`` as a hit shows it: its score after MMR's redundancy penalty (``shown``, from
    ``diversity.shown_scores``), the penalty recorded as one more contribution so the X-ray's
    parts still add up to the score shown."""
    contributions = {**scored.contributions, "redundancy": shown - scored.final}
    factors = {**scored.factors, "redundancy": redundancy}
    return Scored(math.fsum(contributions.values()), contributions, factors, scored.memory_id)


def relevance_bound(profile: Profile | None = None) -> float:
    """How many times more relevant a memory must be than another to rank above it whatever
    their priors and multipliers: the band's ratio; under ``profile``, for two memories alike
    but in the continuous priors (age, accesses, importance, utility, confidence, as long as
    neither confidence is low enough for the low-confidence multiplier),
    ``(1 + span) / (1 − span)``."""
    low, high = MODIFIER_BAND
    if profile is None:
        return high / low
    span = PRIOR_SPAN * profile.prior_share
    return min(high / low, (1.0 + span) / (1.0 - span))


def history_bound(profile: Profile) -> float:
    """The same for two memories that differ only in what recalls change (``touch.py``: last
    access and access count, so recency, retention and ACT-R, and Hebbian co-activation): the
    share ``h`` of those priors moves the modifier by at most ``2·span·h`` from its floor
    ``1 − span``, and co-activation multiplies by at most :data:`COACTIVATION_BOOST`."""
    low, high = MODIFIER_BAND
    span = PRIOR_SPAN * profile.prior_share
    total = math.fsum(profile.weight(f) for f in PRIOR_FACTORS)
    h = math.fsum(profile.weight(f) for f in RECALL_FACTORS) / total if total > 0.0 else 0.0
    return min(high / low, (1.0 - span + 2.0 * span * h) / (1.0 - span) * COACTIVATION_BOOST)


def _entity_units(c: Candidate, n: Norms) -> float:
    """How many query entities the memory matches, each weighted by its specificity."""
    return math.fsum(n.entity_specificity.get(e, 1.0) for e in c.matched_entities)


def entity_specificity(candidates: Sequence[Candidate]) -> dict[str, float]:
    """Each matched query entity's specificity in a candidate set: 1 − the share of candidates
    that mention it (an IDF within the set).

    kgmem boosts a memory +0.1 per query entity it mentions. When a query names someone
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
