"""The pure rules of the knowledge-building consolidation steps: entity merges by name embedding,
the topic tree and LLM topic names, entity profiles and category summaries (fingerprints,
extractive summaries, faithful LLM answers), session distillation, and resume's topic tree."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest
from hypothesis import given
from hypothesis import strategies as st

from kgmem.errors import InvalidInput
from kgmem.lifecycle.consolidation.policy import STEP_ORDER, StepName, parse_steps
from kgmem.lifecycle.distillation.rules import (
    MIN_NOTES,
    TAKE_LATEST,
    Distillation,
    Note,
    is_session_note,
    parse_llm_snapshot,
    plan_distillations,
    snapshot_content,
)
from kgmem.lifecycle.hygiene.rules import EntityRecord, SimilarEntities, plan_entity_merges
from kgmem.lifecycle.resume import render, topic_tree
from kgmem.lifecycle.summaries.rules import (
    SourceMemory,
    extractive,
    fingerprint,
    keeps_specifics,
    parse_llm_summary,
    rank_sources,
)
from kgmem.lifecycle.topics.names import BATCH, naming_batches, naming_prompt, parse_llm_names
from kgmem.lifecycle.topics.rules import (
    CommunityNode,
    TopicPlan,
    diff_topics,
    plan_parents,
    plan_topics,
)

NOW = datetime(2025, 6, 1, 12, tzinfo=UTC)
MIN = timedelta(minutes=1)


# --- steps ----------------------------------------------------------------------------------------


def test_the_new_steps_run_in_their_place_and_are_named_in_errors() -> None:
    order = [s.value for s in STEP_ORDER]
    assert order.index("distillation") == order.index("entities") + 1
    assert order.index("housekeeping") == order.index("distillation") + 1
    assert order.index("summaries") == order.index("topics") + 1
    assert order.index("centrality") == order.index("summaries") + 1
    assert parse_steps(["summaries", "distillation"]) == (
        StepName.DISTILLATION,
        StepName.SUMMARIES,
    )
    with pytest.raises(InvalidInput, match=r"distillation.*summaries"):
        parse_steps(["profiles"])


# --- entity merges by name embedding --------------------------------------------------------------


def ent(eid: str, name: str, etype: str = "location", mentions: int = 1) -> EntityRecord:
    return EntityRecord(eid, name, name.lower(), etype, (), mentions, NOW)


def test_close_name_embeddings_merge_into_the_most_mentioned() -> None:
    a, b = ent("a", "Mount Everest", mentions=2), ent("b", "Mt. Everest")
    merges, due = plan_entity_merges([], 50, [SimilarEntities(b, a, 0.921)], 0.9)
    assert due == 1 and [(m.canonical, m.loser, m.rule) for m in merges] == [
        ("a", "b", "embedding")
    ]
    assert "cosine 0.921" in merges[0].reason and merges[0].similarity == 0.921


@pytest.mark.parametrize(
    ("a", "b", "similarity"),
    [
        (ent("a", "North Korea"), ent("b", "South Korea"), 0.872),  # below the threshold
        (ent("a", "Mount Everest"), ent("b", "Mt. Everest"), 0.9),  # not above it
        (ent("a", "Paris", "person"), ent("b", "Paris", "location"), 0.99),  # not compatible
        (ent("a", "iPhone 14", "product"), ent("b", "iPhone 15", "product"), 0.95),  # numbers
        (ent("a", "Python 2", "product"), ent("b", "Python", "product"), 0.95),
    ],
)
def test_the_embedding_rule_refuses(a: EntityRecord, b: EntityRecord, similarity: float) -> None:
    assert plan_entity_merges([], 50, [SimilarEntities(a, b, similarity)], 0.9) == ([], 0)


def test_entities_an_undone_merge_set_apart_never_merge_again() -> None:
    a = EntityRecord("a", "Acme", "acme", "organization", (), 3, NOW, ("b",))
    b = EntityRecord("b", "Acme Corp", "acme corp", "organization", ("acme",), 1, NOW)
    assert plan_entity_merges([(a, b)], 50, [SimilarEntities(a, b, 0.99)], 0.9) == ([], 0)


def test_embedding_merges_do_not_chain() -> None:
    # a ~ b and b ~ c, but a and c are not close: c stays apart (and is not merged into b,
    # which itself merges into a)
    a, b, c = ent("a", "A", mentions=3), ent("b", "B", mentions=2), ent("c", "C")
    pairs = [SimilarEntities(a, b, 0.95), SimilarEntities(b, c, 0.93)]
    merges, _ = plan_entity_merges([], 50, pairs, 0.9)
    assert [(m.canonical, m.loser) for m in merges] == [("a", "b")]


def test_a_name_group_joins_by_the_embedding_of_any_of_its_names() -> None:
    nyc = EntityRecord("n1", "New York City", "new york city", "location", ("nyc",), 5, NOW)
    alias = EntityRecord("n2", "NYC", "nyc", "location", (), 1, NOW)
    big_apple = ent("n3", "New York")
    merges, due = plan_entity_merges(
        [(alias, nyc)], 50, [SimilarEntities(big_apple, alias, 0.93)], 0.9
    )
    assert due == 2
    assert [(m.canonical, m.loser, m.rule) for m in merges] == [
        ("n1", "n2", "name"),
        ("n1", "n3", "embedding"),
    ]


@given(
    st.lists(
        st.tuples(st.integers(0, 7), st.integers(0, 7), st.floats(0.85, 1.0)),
        max_size=30,
    )
)
def test_every_embedding_merge_is_directly_close_to_its_canonical(
    edges: list[tuple[int, int, float]],
) -> None:
    ents = {i: ent(f"e{i}", f"E{i}", mentions=8 - i) for i in range(8)}
    pairs = [SimilarEntities(ents[a], ents[b], s) for a, b, s in edges]
    merges, due = plan_entity_merges([], 100, pairs, 0.9)
    close = {(p.a.id, p.b.id) for p in pairs if p.similarity > 0.9 and p.a.id != p.b.id}
    assert due == len(merges)
    losers = [m.loser for m in merges]
    assert len(losers) == len(set(losers))  # each entity merges at most once
    canonicals = {m.canonical for m in merges}
    assert not canonicals & set(losers)  # no chains: a canonical is never merged away
    for m in merges:
        assert (m.canonical, m.loser) in close or (m.loser, m.canonical) in close


# --- topic tree and names -------------------------------------------------------------------------


def leaf(tid: str, members: list[str], terms: tuple[str, ...] = ("x",)) -> TopicPlan:
    return TopicPlan(tid, ", ".join(terms), terms, tuple(members), ())


def test_parents_group_leaves_by_their_coarse_community() -> None:
    leaves = [leaf("g", ["g1", "g2", "g3"]), leaf("c", ["c1", "c2", "c3"]),
              leaf("t", ["t1", "t2", "t3"])]  # fmt: skip
    coarse = {"g1": 1, "g2": 1, "g3": 2, "c1": 1, "c2": 1, "c3": 1, "t1": 3, "t2": 3, "t3": 3}
    nodes = [CommunityNode("memory", m, f"text {m}", 0) for m in coarse]
    parents = plan_parents("ns", leaves, nodes, coarse)
    assert [(p.children, p.size, p.level) for p in parents] == [(("c", "g"), 6, 1)]
    assert parents[0].id == plan_parents("ns", leaves[::-1], nodes, coarse)[0].id  # stable
    # one coarse community over every leaf says nothing: no parent
    assert plan_parents("ns", leaves, nodes, dict.fromkeys(coarse, 1)) == []


def test_an_llm_name_is_kept_while_local_names_follow_their_terms() -> None:
    nodes = [CommunityNode("memory", f"m{i}", "Roses need compost.", 1) for i in range(3)]
    (topic,) = plan_topics("ns", nodes)
    assert diff_topics([topic], {topic.id: "old"}).rename == [topic]
    assert diff_topics([topic], {topic.id: "Gardening"}, frozenset({topic.id})).empty


def test_llm_names_are_parsed_topic_by_topic() -> None:
    data = {"names": ["  Gardening ", "", "x" * 61, 7]}
    assert parse_llm_names(data, 5) == ["Gardening", None, None, None, None]
    assert parse_llm_names({"names": "nope"}, 2) == [None, None]
    topics = [leaf(f"t{i}", [f"m{i}"]) for i in range(BATCH + 1)]
    assert [len(b) for b in naming_batches(topics)] == [BATCH, 1]
    parent = TopicPlan("p", "x", ("x",), ("m0", "m1"), (), ("t0", "t1"), 1)
    prompt = naming_prompt([topics[0], parent], {"m0": "Roses need compost."}, {"t0": "Roses"})
    assert prompt == "1. terms: x\n   - Roses need compost.\n2. terms: x\n   subtopics: Roses; t1"


def test_resume_shows_the_topic_tree_and_never_a_child_without_its_parent() -> None:
    topics = [
        {"id": "p", "name": "Home", "members": 10, "parent": None},
        {"id": "t", "name": "Travel", "members": 4, "parent": None},
        {"id": "g", "name": "Garden", "members": 6, "parent": "p"},
        {"id": "c", "name": "Cooking", "members": 4, "parent": "p"},
    ]
    assert [(d, t["id"]) for d, t in topic_tree(topics)] == [
        (0, "p"), (1, "g"), (1, "c"), (0, "t")
    ]  # fmt: skip
    text, *_rest = render([], [], topics, [], {}, 2000, 24)
    assert text.splitlines()[1:] == [
        'kb1: "Home" [10]',
        '  kb2: "Garden" [6]',
        '  kb3: "Cooking" [4]',
        'kb4: "Travel" [4]',
    ]
    for budget in range(50, 200, 7):
        _text, _core, _recent, shown, _triggers = render([], [], topics, [], {}, budget, 24)
        ids = {t["id"] for t in shown}
        assert all(t["parent"] is None or t["parent"] in ids for t in shown)


# --- profiles and category summaries -------------------------------------------------------------


def src(mid: str, content: str, centrality: float = 0.0, utility: float = 0.5) -> SourceMemory:
    return SourceMemory(mid, content, NOW, centrality, utility)


def test_the_fingerprint_changes_with_the_memories_not_their_order() -> None:
    sig = ["a|h1", "b|h2"]
    assert fingerprint(sig) == fingerprint(sig[::-1])
    assert fingerprint(sig) != fingerprint(["a|h1", "b|h3"])
    assert fingerprint(sig) != fingerprint([*sig, "c|h4"])


def test_sources_rank_by_centrality_then_utility() -> None:
    ranked = rank_sources([src("low", "x", 0.1), src("top", "y", 0.9), src("use", "z", 0.1, 0.9)])
    assert [s.id for s in ranked] == ["top", "use", "low"]


def test_an_extract_takes_whole_sentences_once_within_its_budgets() -> None:
    sources = [
        src("a", "Dana leads the team. Dana likes tea.", 0.9),
        src("b", "Dana likes tea. Dana moved to Lisbon in 2021.", 0.5),
    ]
    ex = extractive(sources, 5, 600)
    assert ex.text == "Dana leads the team. Dana likes tea. Dana moved to Lisbon in 2021."
    assert ex.sources == ("a", "b") and ex.complete
    short = extractive(sources, 2, 600)
    assert short.text == "Dana leads the team. Dana likes tea." and not short.complete
    assert extractive(sources, 5, 25).text == "Dana leads the team."


@given(st.lists(st.text(min_size=1, max_size=80), min_size=1, max_size=12), st.integers(1, 6),
       st.integers(10, 300))  # fmt: skip
def test_an_extract_never_exceeds_its_budgets(texts: list[str], n: int, chars: int) -> None:
    ex = extractive([src(f"m{i}", t, i / 10) for i, t in enumerate(texts)], n, chars)
    assert len(ex.text) <= chars
    assert set(ex.sources) <= {f"m{i}" for i in range(len(texts))}


def test_an_llm_summary_must_keep_the_specifics_and_fit() -> None:
    ex = extractive([src("a", "Dana moved to Lisbon in 2021.")], 5, 600)
    good = {"summary": "dana moved to Lisbon in 2021, and likes it."}
    assert parse_llm_summary(good, ex, 600) == good["summary"]
    assert parse_llm_summary({"summary": "Dana moved abroad."}, ex, 600) is None
    assert parse_llm_summary({"summary": "x" * 601}, ex, 600) is None
    assert parse_llm_summary({"summary": 3}, ex, 600) is None
    assert keeps_specifics(["Rolled back v2.3."], "rolled back v2.3 at noon")


# --- session distillation -------------------------------------------------------------------------


def note(i: int, session: str | None = "s", content: str | None = None) -> Note:
    return Note(f"n{i:02d}", content or f"Note {i}.", NOW + i * MIN, session)


def test_session_notes_are_seed_002s() -> None:
    assert is_session_note(["Session"], "human") and is_session_note([], "session")
    assert not is_session_note(["episode"], "agent")


def test_three_notes_of_a_session_make_a_snapshot_and_two_do_not() -> None:
    notes = [note(1), note(2), note(3), note(4, "t"), note(5, "t"), note(6, None),
             note(7, None), note(8, None)]  # fmt: skip
    plans, due = plan_distillations(notes, 10)
    assert due == 2 and [(d.session_id, len(d.notes)) for d in plans] == [(None, 3), ("s", 3)]
    assert plan_distillations(notes, 1) == (plans[:1], 2)


@given(st.integers(0, 60))
def test_every_undistilled_note_is_covered_once_in_one_run(n: int) -> None:
    plans, due = plan_distillations([note(i) for i in range(n)], 100)
    covered = [x.id for d in plans for x in d.notes]
    assert sorted(covered) == ([f"n{i:02d}" for i in range(n)] if n >= MIN_NOTES else [])
    assert all(MIN_NOTES <= len(d.notes) <= TAKE_LATEST + MIN_NOTES - 1 for d in plans)
    assert due == len(plans)


def test_a_snapshot_keeps_every_specific_locally_and_from_the_llm() -> None:
    d = Distillation("s-1", (note(1, content="Shipped v2.3."), note(2, content="Ticket 77 open.")))
    local = snapshot_content(d)
    assert local.startswith("Status snapshot of session s-1: Shipped v2.3")
    assert "77" in local
    assert parse_llm_snapshot({"snapshot": "shipped v2.3; ticket 77 open"}, d) == (
        "Status snapshot of session s-1: shipped v2.3; ticket 77 open"
    )
    assert parse_llm_snapshot({"snapshot": "Shipped a release."}, d) is None
    assert parse_llm_snapshot({"snapshot": ""}, d) is None
