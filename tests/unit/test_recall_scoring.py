"""The recall score: FSRS-6 retention, ACT-R, recency, relevance scaled by the banded prior modifier
per profile, the additive and multiplicative boosts, the lifecycle adjustments, and
the X-ray promise that the contributions add up exactly to the final score."""

from __future__ import annotations

import math
from dataclasses import replace
from datetime import UTC, datetime, timedelta

import pytest
from hypothesis import given
from hypothesis import strategies as st

from kgmem.errors import InvalidInput
from kgmem.recall.candidates import Candidate, Norms
from kgmem.recall.curves import act_r_activation, recency, retention, sub_tier
from kgmem.recall.profiles import FACTORS, PRIOR_FACTORS, PROFILES, RELEVANCE_FACTORS
from kgmem.recall.scoring import (
    ADDITIVE_BOOSTS,
    MODIFIER_BAND,
    MULTIPLIERS,
    PRIOR_SPAN,
    entity_specificity,
    norms_for,
    rank,
    relevance_bound,
    score,
)
from kgmem.recall.xray import check_additive

NOW = datetime(2025, 6, 1, 12, 0, tzinfo=UTC)
BALANCED = PROFILES["balanced"]
unit = st.floats(min_value=0.0, max_value=1.0, allow_nan=False)


def cand(**fields: object) -> Candidate:
    """A candidate whose boosts are all neutral unless a test sets them."""
    base = Candidate(
        id="m",
        content="Ann works at Acme.",
        created_at=NOW - timedelta(days=10),
        confidence=0.8,
        source_trust=1.0,
        stability=30.0,
        vector_score=0.8,
    )
    return replace(base, **fields)  # type: ignore[arg-type]


# --- curves ------------------------------------------------------------------------------------


def test_fsrs_known_values() -> None:
    assert retention(0.0, 5.0) == 1.0
    assert retention(9.0, 1.0) == pytest.approx(0.25)  # (1 + 9/9)^-2
    assert retention(90.0, 10.0) == pytest.approx(0.25)
    assert retention(10.0, math.inf) == 1.0  # frozen (dormant)
    assert retention(10.0, 0.0) == 0.0 and retention(0.0, 0.0) == 1.0


@given(st.floats(0, 1e5), st.floats(0, 1e5), st.floats(1e-3, 1e5))
def test_fsrs_never_rises_with_time(t1: float, t2: float, s: float) -> None:
    lo, hi = sorted((t1, t2))
    assert retention(hi, s) <= retention(lo, s)
    assert 0.0 < retention(hi, s) <= 1.0


@given(st.floats(0, 1e5), st.floats(1e-3, 1e5), st.floats(1e-3, 1e5))
def test_fsrs_never_falls_with_stability(t: float, s1: float, s2: float) -> None:
    lo, hi = sorted((s1, s2))
    assert retention(t, hi) >= retention(t, lo)


def test_act_r_known_values() -> None:
    assert act_r_activation(1, 1.0) == pytest.approx(0.5)  # B = 0
    assert act_r_activation(100, 10_000.0) == pytest.approx(0.5)  # ln 100 = 0.5 ln 10^4
    assert act_r_activation(0, 1.0) == act_r_activation(1, 1.0)  # max(n, 1)
    b = math.log(5) - 0.5 * math.log(3600)
    assert act_r_activation(5, 3600.0) == pytest.approx(1 / (1 + math.exp(-b)))


@given(st.integers(0, 10_000), st.integers(0, 10_000), st.floats(0, 1e9))
def test_act_r_never_falls_with_access_count(n1: int, n2: int, age: float) -> None:
    lo, hi = sorted((n1, n2))
    assert act_r_activation(hi, age) >= act_r_activation(lo, age)


def test_recency_halves_every_half_life() -> None:
    assert recency(0.0, 7.0) == 1.0
    assert recency(7.0, 7.0) == pytest.approx(0.5)
    assert recency(14.0, 7.0) == pytest.approx(0.25)


# --- the composite and its additivity ----------------------------------------------------------

_when = st.integers(min_value=0, max_value=400 * 86400).map(lambda s: NOW - timedelta(seconds=s))
candidates = st.builds(
    Candidate,
    id=st.text(min_size=1, max_size=5),
    content=st.sampled_from(["Ann works at Acme.", "Always run tests.", "How to deploy: push."]),
    created_at=_when,
    category=st.sampled_from(["fact", "principle", "skill", "preference", "event"]),
    status=st.sampled_from(["active", "stale", "challenged", "superseded"]),
    tier=st.sampled_from(["working", "episodic", "semantic", "core", "dormant", "odd"]),
    lifecycle_state=st.sampled_from([None, "active", "validated", "candidate", "stale"]),
    verification_state=st.sampled_from([None, "unverified", "disputed"]),
    source=st.sampled_from(["human", "agent", "federation", "unknown"]),
    importance=unit,
    utility=unit,
    confidence=unit,
    source_trust=unit,
    access_count=st.integers(0, 500),
    last_accessed=st.none() | _when,
    stability=st.floats(0.0, 1000.0),
    session_id=st.sampled_from([None, "s1", "s2"]),
    valence=st.floats(-1.0, 1.0),
    vector_score=st.none() | unit,
    bm25_score=st.none() | st.floats(0.0, 30.0),
    activation_score=st.none() | st.floats(0.0, 1.0),
    rrf_score=st.floats(0.0, 0.1),
    matched_entities=st.integers(0, 5).map(lambda n: tuple(f"e{i}" for i in range(n))),
    co_activation=st.integers(0, 6),
)


@given(
    candidates,
    st.sampled_from(sorted(PROFILES)),
    st.sampled_from([None, "s1"]),
    st.none() | st.floats(-1.0, 1.0),
)
def test_contributions_add_up_exactly_to_final(
    c: Candidate, profile: str, session: str | None, mood: float | None
) -> None:
    norms = Norms(activation_max=1.0, rrf_max=0.1)
    s = score(c, PROFILES[profile], NOW, norms=norms, session_id=session, mood_valence=mood)
    assert math.fsum(s.contributions.values()) == s.final
    assert check_additive(s)
    assert set(s.contributions) == {*FACTORS, *ADDITIVE_BOOSTS, *MULTIPLIERS}
    assert all(0.0 <= s.factors[f] <= 1.0 for f in FACTORS)
    # the same number, computed the textbook way: relevance × the banded modifier
    p = PROFILES[profile]
    rel_w = math.fsum(p.weight(f) for f in RELEVANCE_FACTORS)
    prior_w = math.fsum(p.weight(f) for f in PRIOR_FACTORS)
    relevance = math.fsum(p.weight(f) / rel_w * s.factors[f] for f in RELEVANCE_FACTORS)
    relevance += math.fsum(s.contributions[b] for b in ADDITIVE_BOOSTS)
    prior = math.fsum(p.weight(f) / prior_w * s.factors[f] for f in PRIOR_FACTORS)
    modifier = (1.0 + PRIOR_SPAN * p.prior_share * (2.0 * prior - 1.0)) * math.prod(
        s.factors[m] for m in MULTIPLIERS if m != "modifier_band"
    )
    low, high = MODIFIER_BAND
    expected = relevance * min(high, max(low, modifier))
    assert s.factors["relevance"] == pytest.approx(relevance, rel=1e-9, abs=1e-12)
    assert s.final == pytest.approx(expected, rel=1e-9, abs=1e-12)
    assert low * relevance - 1e-12 <= s.final <= high * relevance + 1e-12


def test_similarity_comes_back_from_the_index_score_to_cosine() -> None:
    assert score(cand(vector_score=0.75), BALANCED, NOW).factors["similarity"] == 0.5
    assert score(cand(vector_score=0.3), BALANCED, NOW).factors["similarity"] == 0.0
    by_embedding = cand(vector_score=None, embedding=(1.0, 0.0))
    s = score(by_embedding, BALANCED, NOW, query_embedding=(1.0, 1.0))
    assert s.factors["similarity"] == pytest.approx(math.sqrt(0.5))


def test_activation_and_rrf_are_normalised_within_the_set_bm25_is_taken_as_given() -> None:
    # the fulltext channel already made BM25 a share of its list's best (or of the floor)
    a = cand(id="a", bm25_score=0.8, rrf_score=0.03, activation_score=0.002)
    b = cand(id="b", bm25_score=0.25, rrf_score=0.015, activation_score=0.004)
    norms = norms_for([a, b])
    assert norms == Norms(activation_max=0.004, rrf_max=0.03)
    sb = score(b, BALANCED, NOW, norms=norms)
    assert (sb.factors["bm25"], sb.factors["rrf"], sb.factors["activation"]) == (0.25, 0.5, 1.0)
    assert norms_for([cand()]) == Norms()


def test_stability_can_be_a_number_or_the_lifecycle_callable() -> None:
    c = cand(last_accessed=NOW - timedelta(days=9), stability=1.0)
    assert score(c, BALANCED, NOW).factors["retention"] == pytest.approx(0.25)
    assert score(c, BALANCED, NOW, stability=9.0).factors["retention"] == pytest.approx(
        (1 + 1 / 9) ** -2
    )
    seen: list[str] = []

    def effective(m: Candidate, at: datetime) -> float:
        seen.append(m.id)
        assert at == NOW
        return math.inf

    assert score(c, BALANCED, NOW, stability=effective).factors["retention"] == 1.0
    assert seen == ["m"]


def test_naive_now_is_refused() -> None:
    with pytest.raises(InvalidInput):
        score(cand(), BALANCED, datetime(2025, 1, 1))


# --- each profile orders crafted pairs the way its weights say ---------------------------------

# Near ties, where the profiles' priors decide. "old": a little more similar, but created and
# last touched 200 days ago (durable: high stability); "new": created yesterday.
OLD = cand(id="old", vector_score=0.9, created_at=NOW - timedelta(days=200), stability=3650.0)
NEW = cand(id="new", vector_score=0.88, created_at=NOW - timedelta(days=1), stability=3650.0)
# "vital": importance 1.0, a little less similar; "close": a little more similar, unimportant.
VITAL = cand(id="vital", vector_score=0.88, importance=1.0)
CLOSE = cand(id="close", vector_score=0.9, importance=0.1)
# Not a near tie: "far" is half as similar as "near" and has every prior in its favour.
NEAR = cand(
    id="near",
    vector_score=0.9,
    created_at=NOW - timedelta(days=400),
    importance=0.0,
    utility=0.0,
    confidence=0.0,
    stability=0.1,
)
FAR = cand(
    id="far",
    vector_score=0.7,
    created_at=NOW - timedelta(days=400),
    last_accessed=NOW - timedelta(minutes=1),
    access_count=500,
    importance=1.0,
    utility=1.0,
    confidence=1.0,
    source_trust=1.0,
    stability=3650.0,
)


def order(profile: str, *items: Candidate) -> list[str]:
    return [s.memory_id for s in rank(items, PROFILES[profile], NOW)]


def test_recent_puts_the_newer_memory_first_and_deep_the_more_similar() -> None:
    assert order("recent", OLD, NEW) == ["new", "old"]
    assert order("deep", OLD, NEW) == ["old", "new"]


def test_important_puts_high_importance_first_and_deep_the_more_similar() -> None:
    assert order("important", CLOSE, VITAL) == ["vital", "close"]
    assert order("deep", CLOSE, VITAL) == ["close", "vital"]


@pytest.mark.parametrize("profile", sorted(PROFILES))
def test_no_profile_lets_priors_beat_a_clearly_more_relevant_memory(profile: str) -> None:
    ranked = rank([FAR, NEAR], PROFILES[profile], NOW)
    assert [s.memory_id for s in ranked] == ["near", "far"]
    near, far = ranked
    assert near.factors["relevance"] > relevance_bound(PROFILES[profile]) * far.factors["relevance"]


@pytest.mark.parametrize("profile", sorted(PROFILES))
@pytest.mark.parametrize(
    "better",
    [
        {"vector_score": 0.9},
        {"importance": 0.9},
        {"utility": 0.9},
        {"confidence": 0.9},
        {"access_count": 50, "last_accessed": NOW - timedelta(hours=1)},
    ],
)
def test_more_of_a_weighted_factor_never_hurts(profile: str, better: dict[str, object]) -> None:
    worse = cand(id="worse", vector_score=0.7, importance=0.4, utility=0.4, confidence=0.4)
    assert order(profile, worse, replace(worse, id="better", **better))[0] == "better"  # type: ignore[arg-type]


# --- boosts and penalties ----------------------------------------------------------------------


def _delta(name: str, **fields: object) -> float:
    return score(cand(**fields), BALANCED, NOW, session_id="s1").contributions[name]


def test_seed_004_additive_boosts() -> None:
    assert _delta("entity_boost", matched_entities=("ann", "acme")) == pytest.approx(0.2)
    assert _delta("episode_boost", session_id="s1") == 0.15
    assert _delta("episode_boost", session_id="s2") == 0.0
    assert _delta("claim_boost", holds_asked_slot=True) == 0.15  # holds the slot asked about
    assert _delta("claim_boost") == 0.0
    assert _delta("time_boost", in_asked_period=True) == 0.2  # said in the period asked about
    assert _delta("time_boost") == 0.0
    assert _delta("answer_boost", states_asked_type=True) == 0.15  # a date for "when"
    assert _delta("answer_boost") == 0.0
    hebbian = score(cand(co_activation=3), BALANCED, NOW)
    assert hebbian.factors["coactivation_boost"] == 1.05  # made by recalls: a bounded multiplier
    assert score(cand(co_activation=2), BALANCED, NOW).factors["coactivation_boost"] == 1.0


def test_multiplicative_boosts_are_recorded_as_deltas() -> None:
    base = score(cand(), BALANCED, NOW)
    assert all(base.contributions[m] == 0.0 for m in MULTIPLIERS)  # neutral candidate
    boosted = score(cand(tier="semantic", content="Always run the tests."), BALANCED, NOW)
    assert boosted.factors["sub_tier_boost"] == 1.1  # schematic
    assert boosted.factors["tier_boost"] == 1.05
    assert boosted.final == pytest.approx(base.final * 1.1 * 1.05)
    assert boosted.contributions["sub_tier_boost"] == pytest.approx(base.final * 0.1)


def test_seed_000_lifecycle_order() -> None:
    def final(**fields: object) -> float:
        return score(cand(**fields), BALANCED, NOW).final

    legacy = final()
    active, validated = final(lifecycle_state="active"), final(lifecycle_state="validated")
    candidate, stale = final(lifecycle_state="candidate"), final(lifecycle_state="stale")
    assert active == validated > legacy > candidate > stale
    assert final(status="stale") == stale  # a stale status is penalised once, like the state
    assert final(verification_state="disputed") < legacy
    assert final(lifecycle_state="active", verification_state="disputed") < active


def test_seed_004_sub_tiers() -> None:
    assert sub_tier(cand(source="human")) == "personal"
    assert sub_tier(cand(source="agent")) == "observed"
    assert sub_tier(cand(source="federation")) == "vicarious"
    assert sub_tier(cand(tier="semantic", category="principle")) == "schematic"
    assert sub_tier(cand(tier="semantic", content="How to deploy: push to main.")) == "procedural"
    assert sub_tier(cand(tier="core", category="skill")) == "procedural"
    assert sub_tier(cand(tier="semantic")) == "factual"
    assert sub_tier(cand(tier="dormant")) is None
    finals = [score(cand(source=s), BALANCED, NOW).final for s in ("human", "agent", "federation")]
    assert finals[0] == pytest.approx(finals[1] * 1.1) and finals[2] == pytest.approx(
        finals[1] * 0.9
    )


def test_low_source_confidence_and_mood() -> None:
    assert score(cand(confidence=0.29), BALANCED, NOW).factors["low_confidence_penalty"] == 0.8
    assert score(cand(confidence=0.3), BALANCED, NOW).factors["low_confidence_penalty"] == 1.0
    happy = cand(valence=0.6)
    assert score(happy, BALANCED, NOW, mood_valence=0.4).factors["mood_boost"] == 1.1
    assert score(happy, BALANCED, NOW, mood_valence=-0.4).factors["mood_boost"] == 1.0
    assert score(happy, BALANCED, NOW).factors["mood_boost"] == 1.0
    assert score(cand(), BALANCED, NOW, mood_valence=0.4).factors["mood_boost"] == 1.0


def test_rank_is_best_first_with_ties_by_id() -> None:
    twins = [cand(id="b"), cand(id="a"), cand(id="c", importance=0.9)]
    assert [s.memory_id for s in rank(twins, BALANCED, NOW)] == ["c", "a", "b"]


def test_entity_boost_counts_a_query_entity_by_its_specificity_in_the_set() -> None:
    # "caroline" is in every candidate, "charlotte" in one of four: only the rare name separates
    cs = [
        cand(id="a", matched_entities=("caroline", "charlotte")),
        cand(id="b", matched_entities=("caroline",)),
        cand(id="c", matched_entities=("caroline",)),
        cand(id="d", matched_entities=("caroline",)),
    ]
    spec = entity_specificity(cs)
    assert spec == {"caroline": 0.0, "charlotte": 0.75}
    by_id = {s.memory_id: s for s in rank(cs, BALANCED, NOW)}
    assert by_id["a"].contributions["entity_boost"] == pytest.approx(0.075)
    assert by_id["b"].contributions["entity_boost"] == 0.0
    assert by_id["a"].factors["entity_boost"] == pytest.approx(0.75)
    # scored alone (no set to compare with) every match counts fully: the +0.1 each
    assert score(cs[0], BALANCED, NOW).contributions["entity_boost"] == pytest.approx(0.2)
    assert entity_specificity(cs[:1]) == {}


@given(st.lists(st.lists(st.sampled_from("xyz"), max_size=3, unique=True), min_size=1, max_size=8))
def test_entity_specificity_is_a_share_and_never_exceeds_the_flat_boost(
    mentions: list[list[str]],
) -> None:
    cs = [cand(id=str(i), matched_entities=tuple(m)) for i, m in enumerate(mentions)]
    spec = entity_specificity(cs)
    assert all(0.0 <= v < 1.0 for v in spec.values())
    for s in rank(cs, BALANCED, NOW):
        c = next(c for c in cs if c.id == s.memory_id)
        assert 0.0 <= s.factors["entity_boost"] <= c.entity_matches
    # an entity mentioned by fewer candidates is at least as specific
    for e, v in spec.items():
        for f, w in spec.items():
            ne = sum(e in c.matched_entities for c in cs)
            nf = sum(f in c.matched_entities for c in cs)
            if ne < nf:
                assert v > w


small_vectors = st.none() | st.lists(st.integers(-3, 3).map(float), min_size=3, max_size=3)


@given(
    st.lists(st.tuples(st.none() | unit, small_vectors), min_size=1, max_size=8),
    small_vectors,
)
def test_rank_scores_each_candidate_as_score_does(
    specs: list[tuple[float | None, list[float] | None]], query: list[float] | None
) -> None:
    """``rank`` computes the similarities of a whole set in one matrix product; each candidate's
    composite still equals the one ``score`` gives it alone (to float rounding)."""
    cands = [
        cand(id=f"m{i}", vector_score=vs, embedding=tuple(e) if e is not None else None)
        for i, (vs, e) in enumerate(specs)
    ]
    ranked = {s.memory_id: s for s in rank(cands, BALANCED, NOW, query_embedding=query)}
    norms = norms_for(cands)
    for c in cands:
        alone = score(c, BALANCED, NOW, norms=norms, query_embedding=query)
        assert ranked[c.id].final == pytest.approx(alone.final, abs=1e-9)
        assert ranked[c.id].factors == pytest.approx(alone.factors, abs=1e-9)
