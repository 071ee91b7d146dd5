"""Memory↔memory linking: the relation heuristics at their thresholds, content words and
word overlap, the relationship strength, the capped reinforcement, and the
pruning that never removes supersedes/contradicts/causes."""

from __future__ import annotations

import math
from datetime import UTC, datetime, timedelta

import pytest
from hypothesis import given
from hypothesis import strategies as st

from kgmem.core.text import content_words
from kgmem.errors import InvalidInput
from kgmem.ingest.link.linking import (
    MemoryFeatures,
    MemoryLink,
    dedupe_links,
    detect_relations,
    prune_plan,
    reinforce_confidence,
    relation_strength,
    word_overlap,
)
from kgmem.taxonomy import MemoryRelation
from kgmem.taxonomy.relation_tables import MEMORY_REL_PRUNE_PRIORITY

NOW = datetime(2025, 6, 1, tzinfo=UTC)
NEVER_PRUNED = {MemoryRelation.SUPERSEDES, MemoryRelation.CONTRADICTS, MemoryRelation.CAUSES}


def mem(
    id: str, content: str, category: str = "fact", entities: frozenset[str] = frozenset()
) -> MemoryFeatures:
    return MemoryFeatures(id, content, category, entities)


# --- content words and overlap -----------------------------------------------------------------


def test_content_words_drop_stop_words_possessives_and_single_letters() -> None:
    assert content_words("User's sister Ann moved to Oslo in 2020, and I love it!") == [
        "sister",
        "ann",
        "moved",
        "oslo",
        "2020",
        "love",
    ]
    assert content_words("It's a B") == []


def test_word_overlap_is_jaccard_of_content_words() -> None:
    # {alpha beta gamma} vs {alpha beta delta}: 2 shared of 4 distinct
    assert word_overlap("alpha beta gamma", "the alpha and beta delta") == pytest.approx(0.5)
    assert word_overlap("alpha", "") == 0.0
    assert word_overlap("The the the", "a an") == 0.0


# --- kgmem heuristics at their thresholds ---------------------------------------------------


def test_two_shared_entities_is_same_entity() -> None:
    new = mem("n", "x1", entities=frozenset({"Ann", "Acme Corp"}))
    other = mem("o", "y1", entities=frozenset({"ann", "the Acme Corp.", "Oslo"}))
    [link] = detect_relations(new, [other])
    assert (link.source, link.target) == ("n", "o")
    assert link.type is MemoryRelation.SAME_ENTITY and link.confidence == 0.7
    one = mem("o", "y1", entities=frozenset({"Ann"}))
    assert detect_relations(new, [one]) == []  # 1 shared entity and no word overlap


# Word sets built so Jaccard is exactly known: shared / (|A| + |B| - shared).
def _texts(shared: int, only_a: int, only_b: int) -> tuple[str, str]:
    common = [f"common{i}" for i in range(shared)]
    a = common + [f"left{i}" for i in range(only_a)]
    b = common + [f"right{i}" for i in range(only_b)]
    return " ".join(a), " ".join(b)


def test_elaborates_needs_more_than_thirty_percent_and_an_entity() -> None:
    a, b = _texts(3, 4, 3)  # 3 / 10 = 0.30: not more than 30 %
    assert word_overlap(a, b) == pytest.approx(0.30)
    ents = frozenset({"Ann"})
    assert detect_relations(mem("n", a, "fact", ents), [mem("o", b, "event", ents)]) == []
    a, b = _texts(4, 3, 2)  # 4 / 9 > 0.30
    [link] = detect_relations(mem("n", a, "fact", ents), [mem("o", b, "event", ents)])
    assert link.type is MemoryRelation.ELABORATES and link.confidence == 0.5
    # the same overlap without a shared entity is no elaboration
    assert detect_relations(mem("n", a, "fact"), [mem("o", b, "event")]) == []


def test_related_to_needs_same_category_and_more_than_fifteen_percent() -> None:
    a, b = _texts(3, 10, 7)  # 3 / 20 = 0.15: not more than 15 %
    assert word_overlap(a, b) == pytest.approx(0.15)
    assert detect_relations(mem("n", a, "goal"), [mem("o", b, "goal")]) == []
    a, b = _texts(3, 10, 6)  # 3 / 19 > 0.15
    [link] = detect_relations(mem("n", a, "goal"), [mem("o", b, "goal")])
    assert link.type is MemoryRelation.RELATED_TO and link.confidence == 0.4
    assert detect_relations(mem("n", a, "goal"), [mem("o", b, "fact")]) == []


def test_first_rule_wins_and_results_are_sorted() -> None:
    ents = frozenset({"Ann", "Oslo"})
    new = mem("n", "Ann moved to Oslo for a new job", "event", ents)
    others = [
        mem("n", "itself", "event", ents),  # never linked to itself
        mem("r", "Started a new job in Bergen", "event"),
        mem("s", "Ann loves Oslo", "fact", ents),
        mem("e", "Ann moved for the job", "fact", frozenset({"Ann"})),
        mem("s", "duplicate id is ignored", "fact", ents),
    ]
    links = detect_relations(new, others)
    assert [(link.target, link.type) for link in links] == [
        ("s", MemoryRelation.SAME_ENTITY),
        ("e", MemoryRelation.ELABORATES),
        ("r", MemoryRelation.RELATED_TO),
    ]


def test_links_take_only_closed_vocabulary_types() -> None:
    assert MemoryLink("a", "b", "related_to", 0.4).type is MemoryRelation.RELATED_TO  # type: ignore[arg-type]
    with pytest.raises(InvalidInput):
        MemoryLink("a", "b", "DETACH DELETE", 0.4)  # type: ignore[arg-type]
    with pytest.raises(InvalidInput):
        MemoryLink("a", "b", MemoryRelation.CAUSES, 1.5)


def test_dedupe_keeps_the_most_confident_and_ignores_direction_for_symmetric_types() -> None:
    links = [
        MemoryLink("a", "b", MemoryRelation.RELATED_TO, 0.4),
        MemoryLink("b", "a", MemoryRelation.RELATED_TO, 0.6),
        MemoryLink("a", "b", MemoryRelation.ELABORATES, 0.5),
        MemoryLink("b", "a", MemoryRelation.ELABORATES, 0.5),
    ]
    kept = dedupe_links(links)
    assert len(kept) == 3
    assert max(k.confidence for k in kept if k.type is MemoryRelation.RELATED_TO) == 0.6


# --- strength and reinforcement ----------------------------------------------------------------


@pytest.mark.parametrize(
    ("count", "days", "conf", "expected"),
    [
        (5, 0, 1.0, 1.0),
        (0, 0, 0.0, 0.3),  # just seen: recency 1
        (1, 0, 0.5, 0.08 + 0.3 + 0.15),
        (10, 30, 0.6, 0.4 + 0.3 * math.exp(-1) + 0.18),  # count saturates at 5
        (2, 60, 0.0, 0.16 + 0.3 * math.exp(-2)),
    ],
)
def test_relation_strength_values(count: int, days: int, conf: float, expected: float) -> None:
    last_seen = NOW - timedelta(days=days)
    assert relation_strength(count, last_seen, NOW, conf) == pytest.approx(expected)


def test_relation_strength_horizon_and_future_last_seen() -> None:
    week_ago = NOW - timedelta(days=7)
    assert relation_strength(0, week_ago, NOW, 0.0, horizon_days=7) == pytest.approx(
        0.3 * math.exp(-1)
    )
    assert relation_strength(0, NOW + timedelta(days=1), NOW, 0.0) == pytest.approx(0.3)
    with pytest.raises(InvalidInput):
        relation_strength(-1, NOW, NOW, 0.5)
    with pytest.raises(InvalidInput):
        relation_strength(1, datetime(2025, 1, 1), NOW, 0.5)


@given(st.integers(0, 100), st.floats(0, 3650), st.floats(0, 1))
def test_relation_strength_bounded(count: int, days: float, conf: float) -> None:
    s = relation_strength(count, NOW - timedelta(days=days), NOW, conf)
    assert 0.0 <= s <= 1.0


def test_reinforce_confidence_is_capped() -> None:
    assert reinforce_confidence(0.5) == pytest.approx(0.6)
    assert reinforce_confidence(0.95) == 1.0
    assert reinforce_confidence(1.0) == 1.0
    assert reinforce_confidence(0.2, delta=0.25) == pytest.approx(0.45)
    with pytest.raises(InvalidInput):
        reinforce_confidence(0.5, delta=-0.1)


# --- pruning -----------------------------------------------------------------------------------


def _links(spec: list[tuple[MemoryRelation, float]]) -> list[MemoryLink]:
    return [MemoryLink(f"m{i}", f"t{i}", rel, conf) for i, (rel, conf) in enumerate(spec)]


def test_nothing_pruned_at_or_below_the_cap() -> None:
    links = _links([(MemoryRelation.RELATED_TO, 0.1)] * 10)
    assert prune_plan(links, cap=10, target=5) == []


def test_prunes_by_priority_then_confidence() -> None:
    links = _links(
        [
            (MemoryRelation.ELABORATES, 0.1),
            (MemoryRelation.SAME_ENTITY, 0.2),
            (MemoryRelation.RELATED_TO, 0.9),
            (MemoryRelation.RELATED_TO, 0.3),
            (MemoryRelation.SUPERSEDES, 0.0),
            (MemoryRelation.CONTRADICTS, 0.0),
            (MemoryRelation.CAUSES, 0.0),
        ]
    )
    plan = prune_plan(links, cap=6, target=3)
    assert [(link.type, link.confidence) for link in plan] == [
        (MemoryRelation.RELATED_TO, 0.3),
        (MemoryRelation.RELATED_TO, 0.9),
        (MemoryRelation.SAME_ENTITY, 0.2),
        (MemoryRelation.ELABORATES, 0.1),
    ]


def test_seed_004_defaults_trim_1001_to_900() -> None:
    links = _links([(MemoryRelation.RELATED_TO, (i % 10) / 10) for i in range(1001)])
    plan = prune_plan(links)
    assert len(plan) == 101
    assert max(link.confidence for link in plan) <= min(
        link.confidence for link in links if link not in plan
    )
    assert prune_plan(links[:1000]) == []


def test_prune_plan_rejects_target_above_cap() -> None:
    with pytest.raises(InvalidInput):
        prune_plan([], cap=10, target=11)


_link = st.builds(
    MemoryLink,
    source=st.text("abc", min_size=1, max_size=2),
    target=st.text("xyz", min_size=1, max_size=2),
    type=st.sampled_from(list(MemoryRelation)),
    confidence=st.floats(0, 1),
)


@given(st.lists(_link, max_size=60), st.integers(0, 40), st.integers(0, 40))
def test_prune_plan_never_removes_protected_and_reaches_target_when_possible(
    links: list[MemoryLink], a: int, b: int
) -> None:
    target, cap = min(a, b), max(a, b)
    plan = prune_plan(links, cap=cap, target=target)
    assert not any(link.type in NEVER_PRUNED for link in plan)
    assert len({id(link) for link in plan}) == len(plan)  # each link planned once
    left = len(links) - len(plan)
    if len(links) <= cap:
        assert plan == []
    else:
        # merged_into and depends_on are kept too (provenance, invalidation paths)
        unprunable = sum(1 for link in links if MEMORY_REL_PRUNE_PRIORITY[link.type] is None)
        assert left == max(target, unprunable)  # ≤ target whenever the prunable links allow it
