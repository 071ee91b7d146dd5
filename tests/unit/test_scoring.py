"""Write-path scoring: the 4-channel importance and priority, prediction error and the
k-NN surprise, confidence tiers split at the 0.40, source trust, the flashbulb rule
at arousal 0.8 exactly, synaptic tagging and capture (4-hour tags, same-session capture), and
novelty measured against the memories about the same subject and slot."""

from __future__ import annotations

from dataclasses import asdict
from datetime import UTC, datetime, timedelta

import pytest
from hypothesis import given
from hypothesis import strategies as st

from kgmem.core.trust import source_trust
from kgmem.errors import InvalidInput
from kgmem.ingest.extractors.emotion import Emotion
from kgmem.ingest.gate.records import Neighbour
from kgmem.ingest.link.tagging import (
    CAPTURE_STABILITY_BOOST,
    TAG_TTL,
    SynapticTag,
    TagCandidate,
    tag_and_capture,
)
from kgmem.ingest.plan.scoring import (
    WriteScores,
    confidence_tier,
    flashbulb,
    importance,
    novelty_from_similarity,
    peer_similarities,
    priority,
    score_candidate,
    surprise,
    surprise_adjustment,
)
from kgmem.records import Claim

T0 = datetime(2025, 1, 1, 12, 0, tzinfo=UTC)
unit = st.floats(min_value=0.0, max_value=1.0, allow_nan=False)


# --- importance and priority -------------------------------------------------------------------


@pytest.mark.parametrize(
    ("channels", "boost", "expected"),
    [
        ((1.0, 0.0, 0.0, 0.0), 1.0, 0.25),  # each channel alone shows its kgmem weight
        ((0.0, 1.0, 0.0, 0.0), 1.0, 0.30),
        ((0.0, 0.0, 1.0, 0.0), 1.0, 0.25),
        ((0.0, 0.0, 0.0, 1.0), 1.0, 0.20),
        ((0.5, 0.5, 0.5, 0.5), 1.0, 0.5),
        ((0.8, 0.6, 0.4, 0.2), 1.0, 0.2 + 0.18 + 0.1 + 0.04),
        ((0.5, 0.5, 0.5, 0.5), 0.7, 0.35),
        ((0.5, 0.5, 0.5, 0.5), 1.3, 0.65),
        ((1.0, 1.0, 1.0, 1.0), 1.3, 1.0),  # clamped
        ((0.0, 0.0, 0.0, 0.0), 1.3, 0.0),
    ],
)
def test_importance_known_values(
    channels: tuple[float, float, float, float], boost: float, expected: float
) -> None:
    assert importance(*channels, encoding_boost=boost) == pytest.approx(expected)


@pytest.mark.parametrize(
    "bad",
    [
        {"novelty": 1.1},
        {"arousal": -0.1},
        {"reward": float("nan")},
        {"attention": float("inf")},
        {"encoding_boost": 0.69},
        {"encoding_boost": 1.31},
    ],
)
def test_importance_rejects_out_of_range(bad: dict[str, float]) -> None:
    args = {"novelty": 0.5, "arousal": 0.5, "reward": 0.5, "attention": 0.5} | bad
    boost = args.pop("encoding_boost", 1.0)
    with pytest.raises(InvalidInput):
        importance(**args, encoding_boost=boost)


@given(
    channels=st.tuples(unit, unit, unit, unit),
    which=st.integers(0, 3),
    bump=unit,
    boost=st.floats(0.7, 1.3),
)
def test_importance_monotone_and_bounded(
    channels: tuple[float, float, float, float], which: int, bump: float, boost: float
) -> None:
    low = importance(*channels, encoding_boost=boost)
    raised = list(channels)
    raised[which] = max(raised[which], bump)
    high = importance(*raised, encoding_boost=boost)
    assert 0.0 <= low <= high <= 1.0


@pytest.mark.parametrize(
    ("value", "level"),
    [
        (1.0, "critical"),
        (0.8, "critical"),
        (0.7999, "high"),
        (0.6, "high"),
        (0.5999, "normal"),
        (0.4, "normal"),
        (0.3999, "low"),
        (0.0, "low"),
    ],
)
def test_priority_levels(value: float, level: str) -> None:
    assert priority(value) == level


# --- prediction error and surprise -------------------------------------------------------------


def test_novelty_is_prediction_error() -> None:
    assert novelty_from_similarity(0.9) == pytest.approx(0.1)
    assert novelty_from_similarity(1.0) == 0.0
    assert novelty_from_similarity(None) == 1.0  # nothing stored yet
    assert novelty_from_similarity(-0.4) == 1.0  # clamped to [0, 1]
    assert novelty_from_similarity(1.0000001) == 0.0  # float32 rounding is not an error
    with pytest.raises(InvalidInput):
        novelty_from_similarity(float("nan"))


def test_surprise_is_knn_distance() -> None:
    assert surprise([]) == 1.0
    assert surprise([0.9]) == pytest.approx(0.1)
    # only the top 5 count: mean(0.9, 0.8, 0.7, 0.6, 0.5) = 0.7
    assert surprise([0.1, 0.5, 0.9, 0.6, 0.8, 0.7, 0.2]) == pytest.approx(0.3)
    assert surprise([0.9, 0.5], k=1) == pytest.approx(0.1)
    assert surprise([-1.0, -1.0]) == 1.0
    with pytest.raises(InvalidInput):
        surprise([0.5], k=0)


@given(st.lists(st.floats(-1.0, 1.0), max_size=12), st.integers(1, 8))
def test_surprise_bounded(sims: list[float], k: int) -> None:
    assert 0.0 <= surprise(sims, k) <= 1.0


def test_surprise_adjustment_is_seed_001_plus_minus_point_three() -> None:
    assert surprise_adjustment(1.0) == pytest.approx(0.3)
    assert surprise_adjustment(0.5) == pytest.approx(0.0)
    assert surprise_adjustment(0.0) == pytest.approx(-0.3)


# --- confidence, trust, flashbulb --------------------------------------------------------------


@pytest.mark.parametrize(
    ("conf", "tier"),
    [
        (0.0, "speculative"),
        (0.3999, "speculative"),
        (0.40, "tentative"),
        (0.6999, "tentative"),
        (0.70, "confident"),
        (1.0, "confident"),
    ],
)
def test_confidence_tier(conf: float, tier: str) -> None:
    assert confidence_tier(conf) == tier


def test_confidence_tier_rejects_out_of_range() -> None:
    with pytest.raises(InvalidInput):
        confidence_tier(1.2)


@pytest.mark.parametrize(
    ("source", "trust"),
    [
        ("human", 1.0),
        ("agent", 0.7),
        ("ingest", 0.5),
        ("Human", 1.0),
        ("manual", 1.0),
        ("assistant", 0.7),
        ("extraction", 0.5),
        ("somebody-else", 0.5),
    ],
)
def test_source_trust(source: str, trust: float) -> None:
    assert source_trust(source) == trust


def test_flashbulb_at_exactly_point_eight() -> None:
    assert flashbulb(Emotion(arousal=0.8)).flashbulb
    assert not flashbulb(Emotion(arousal=0.7999)).flashbulb
    at = score_candidate(confidence=0.9, emotion=Emotion(arousal=0.8), reward=0, attention=0)
    assert at.flashbulb and at.pinned
    assert at.importance >= 0.9
    assert at.stability_multiplier == 1.5
    below = score_candidate(confidence=0.9, emotion=Emotion(arousal=0.7999), reward=0, attention=0)
    assert not below.flashbulb and not below.pinned
    assert below.stability_multiplier == 1.0


# --- score_candidate ---------------------------------------------------------------------------


def test_score_candidate_combines_the_parts() -> None:
    scores = score_candidate(
        confidence=0.35,
        neighbour_similarities=[0.5, 0.5],
        reward=0.5,
        attention=0.5,
        source="human",
    )
    # novelty = PE = 0.5; composite = 0.125 + 0 + 0.125 + 0.1; surprise 0.5 → no nudge
    assert asdict(scores) == pytest.approx(
        asdict(
            WriteScores(
                importance=0.35,
                base_importance=0.35,
                priority="low",
                novelty=0.5,
                surprise=0.5,
                confidence=0.35,
                confidence_tier="speculative",
                pinned=False,
                flashbulb=False,
                stability_multiplier=1.0,
                source_trust=1.0,
                utility=0.5,
            )
        )
    )


def test_score_candidate_surprise_moves_importance() -> None:
    novel = score_candidate(confidence=0.8, neighbour_similarities=[0.0])
    redundant = score_candidate(confidence=0.8, neighbour_similarities=[0.9])
    assert novel.importance == pytest.approx(novel.base_importance + 0.3)
    assert redundant.importance < redundant.base_importance
    off = score_candidate(confidence=0.8, neighbour_similarities=[0.0], surprise_boost=0.0)
    assert off.importance == off.base_importance


def test_score_candidate_pins_on_request_without_flashbulb() -> None:
    scores = score_candidate(confidence=0.8, pinned=True)
    assert scores.pinned and not scores.flashbulb and scores.stability_multiplier == 1.0


@given(
    conf=unit,
    arousal=unit,
    reward=unit,
    attention=unit,
    sims=st.lists(st.floats(-1.0, 1.0), max_size=8),
)
def test_score_candidate_bounded(
    conf: float, arousal: float, reward: float, attention: float, sims: list[float]
) -> None:
    s = score_candidate(
        confidence=conf,
        emotion=Emotion(arousal=arousal),
        neighbour_similarities=sims,
        reward=reward,
        attention=attention,
    )
    assert 0.0 <= s.importance <= 1.0
    assert s.flashbulb == (arousal >= 0.8)
    assert not s.flashbulb or s.importance >= 0.9


# --- synaptic tagging and capture --------------------------------------------------------------


def test_weak_memory_gets_a_four_hour_tag() -> None:
    tags, captured = tag_and_capture(("m1", 0.49, "s1", T0), [])
    assert captured == ()
    assert tags == (SynapticTag("m1", "s1", T0, TAG_TTL),)
    assert tags[0].expires_at == T0 + timedelta(hours=4)


def test_middling_memory_neither_tags_nor_captures() -> None:
    open_tags = [SynapticTag("m1", "s1", T0)]
    tags, captured = tag_and_capture(("m2", 0.5, "s1", T0 + timedelta(minutes=5)), open_tags)
    assert captured == ()
    assert [t.memory_id for t in tags] == ["m1"]
    tags, captured = tag_and_capture(("m2", 0.6999, "s1", T0 + timedelta(minutes=5)), open_tags)
    assert captured == ()


def test_strong_memory_captures_live_tags_of_its_session() -> None:
    open_tags = [
        SynapticTag("m1", "s1", T0),
        SynapticTag("m2", "s1", T0 + timedelta(hours=1)),
        SynapticTag("other", "s2", T0),
    ]
    tags, captured = tag_and_capture(
        TagCandidate("strong", 0.7, "s1", T0 + timedelta(hours=2)), open_tags
    )
    assert captured == ("m1", "m2")
    assert {t.memory_id: t.captured for t in tags} == {"m1": True, "m2": True, "other": False}
    assert CAPTURE_STABILITY_BOOST == 1.3
    # a captured tag is never captured twice
    _, again = tag_and_capture(("strong2", 0.9, "s1", T0 + timedelta(hours=3)), tags)
    assert again == ()


def test_capture_stops_at_the_ttl_and_expired_tags_are_dropped() -> None:
    open_tags = [SynapticTag("m1", "s1", T0)]
    just_inside = T0 + TAG_TTL - timedelta(microseconds=1)
    _, captured = tag_and_capture(("s", 0.9, "s1", just_inside), open_tags)
    assert captured == ("m1",)
    tags, captured = tag_and_capture(("s", 0.9, "s1", T0 + TAG_TTL), open_tags)
    assert captured == () and tags == ()


def test_no_session_means_no_tag_and_no_capture() -> None:
    tags, captured = tag_and_capture(("m1", 0.1, None, T0), [])
    assert tags == () and captured == ()
    _, captured = tag_and_capture(("m2", 0.9, None, T0), [SynapticTag("m1", "s1", T0)])
    assert captured == ()


def test_retagging_a_memory_replaces_its_tag() -> None:
    first, _ = tag_and_capture(("m1", 0.1, "s1", T0), [])
    later = T0 + timedelta(hours=1)
    tags, _ = tag_and_capture(("m1", 0.2, "s1", later), first)
    assert tags == (SynapticTag("m1", "s1", later),)


def test_tagging_rejects_naive_times() -> None:
    with pytest.raises(InvalidInput):
        tag_and_capture(("m1", 0.1, "s1", datetime(2025, 1, 1)), [])


_sessions = st.sampled_from(["s1", "s2", "s3"])
_tag = st.builds(
    SynapticTag,
    memory_id=st.text("abcdef", min_size=1, max_size=3),
    session_id=_sessions,
    tagged_at=st.integers(0, 10 * 3600).map(lambda s: T0 + timedelta(seconds=s)),
    ttl=st.integers(60, 6 * 3600).map(lambda s: timedelta(seconds=s)),
    captured=st.booleans(),
)


@given(
    tags=st.lists(_tag, max_size=10),
    strength=unit,
    session=st.one_of(st.none(), _sessions),
    offset=st.integers(0, 12 * 3600),
)
def test_capture_never_crosses_sessions_or_the_ttl(
    tags: list[SynapticTag], strength: float, session: str | None, offset: int
) -> None:
    at = T0 + timedelta(seconds=offset)
    after, captured = tag_and_capture(("new", strength, session, at), tags)
    for memory_id in captured:
        sources = [t for t in tags if t.memory_id == memory_id and not t.captured]
        assert any(t.session_id == session and t.tagged_at <= at < t.expires_at for t in sources)
    assert not captured or strength >= 0.7
    assert all(at < t.expires_at for t in after)  # expired tags are gone


# --- novelty against peers: the same subject and slot -------------------------------------------


def _nb(
    mid: str, sim: float, claim: Claim | None = None, entities: tuple[str, ...] = ()
) -> Neighbour:
    return Neighbour(mid, mid, mid, sim, entities=entities, claim=claim)


ALICE_PHONE = Claim("alice", "phone", "555-1234")
BOB_PHONE = Claim("bob", "phone", "555-9876")


def test_parallel_facts_about_two_people_get_the_same_importance() -> None:
    """Bob's phone number stored after Alice's (cosine 0.9 between them) is as novel as hers was:
    the only stored memory near it is about someone else."""
    alice_first = score_candidate(
        confidence=0.9, neighbour_similarities=peer_similarities([], ALICE_PHONE, {"alice"})
    )
    stored = [_nb("a", 0.9, ALICE_PHONE, ("alice",))]
    bob_second = score_candidate(
        confidence=0.9, neighbour_similarities=peer_similarities(stored, BOB_PHONE, {"bob"})
    )
    assert bob_second.importance == alice_first.importance
    assert bob_second.novelty == 1.0
    # against everything stored before, the second would have looked redundant
    assert score_candidate(confidence=0.9, neighbour_similarities=[0.9]).importance < (
        bob_second.importance
    )


def test_peers_are_the_same_subject_and_slot_or_an_unclaimed_mention_of_the_subject() -> None:
    neighbours = [
        _nb("same", 0.95, Claim("bob", "phone", "555-0000"), ("bob",)),
        _nb("other-slot", 0.8, Claim("bob", "residence", "Paris"), ("bob",)),
        _nb("other-subject", 0.9, ALICE_PHONE, ("alice", "bob")),
        _nb("unclaimed-bob", 0.7, None, ("bob",)),
        _nb("unclaimed-other", 0.85, None, ("carol",)),
    ]
    assert peer_similarities(neighbours, BOB_PHONE, {"bob"}) == [0.95, 0.7]
    # no claim: the neighbours sharing an entity; no entity either: every neighbour
    assert peer_similarities(neighbours, None, {"carol"}) == [0.85]
    assert peer_similarities(neighbours, None, set()) == [0.95, 0.8, 0.9, 0.7, 0.85]
    # a repeated statement about the same subject and slot is still redundant
    again = score_candidate(
        confidence=0.9, neighbour_similarities=peer_similarities(neighbours, BOB_PHONE, {"bob"})
    )
    assert again.novelty == pytest.approx(0.05)


@given(st.lists(st.tuples(unit, st.sampled_from(["alice", "bob", "carol"])), max_size=8))
def test_a_memory_about_someone_else_never_lowers_novelty(stored: list[tuple[float, str]]) -> None:
    """Whatever is stored about other people, and in whatever order, a memory's peers are only its
    own subject's: novelty is the same as with those memories absent."""
    neighbours = [
        _nb(f"m{i}", sim, Claim(who, "phone", "x"), (who,)) for i, (sim, who) in enumerate(stored)
    ]
    own = [n for n in neighbours if n.claim is not None and n.claim.subject == "bob"]
    assert peer_similarities(neighbours, BOB_PHONE, {"bob"}) == peer_similarities(
        own, BOB_PHONE, {"bob"}
    )
