"""The write gate decides create / reinforce / update / supersede / flag / skip exactly at the
thresholds, resolves contradictions with each of the five strategies without ever deleting,
protects pinned and immutable memories, and is deterministic; synthesis never loses a specific and
is idempotent; batch dedup is idempotent and never loses a source turn."""

from __future__ import annotations

import re
from dataclasses import replace
from datetime import UTC, datetime, timedelta

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from kgmem.core.synthesis import (
    MAX_SYNTHESIS_CHARS,
    STOPWORDS,
    covers,
    specifics,
    synthesize,
    synthesize_conflict,
    tokens,
)
from kgmem.core.text import content_hash
from kgmem.errors import InvalidInput
from kgmem.ingest.gate.batch_dedup import batch_dedup, group_batch
from kgmem.ingest.gate.contradiction import ContradictionKind, detect_contradiction
from kgmem.ingest.gate.records import GateAction, GateDecision, Neighbour
from kgmem.ingest.gate.subject_match import told_of_another
from kgmem.ingest.gate.windows import CONTRADICTION
from kgmem.ingest.gate.write_gate import REINFORCE_SIM, UPDATE_SIM, decide
from kgmem.records import EntityMention, ExtractedFact
from kgmem.taxonomy import ConflictStrategy, MemoryRelation, Status

A, CS, K = GateAction, ConflictStrategy, ContradictionKind
NOW = datetime(2024, 6, 1, tzinfo=UTC)
LAST_YEAR = datetime(2023, 1, 1, tzinfo=UTC)
LAST_MONTH = datetime(2024, 5, 1, tzinfo=UTC)
BLUE = "Caroline's favourite colour is blue"
GREEN = "Caroline's favourite colour is green"


def fact(
    text: str,
    category: str = "fact",
    valid_from: datetime | None = None,
    turns: tuple[str, ...] = ("t1",),
) -> ExtractedFact:
    return ExtractedFact(text, category, 0.8, valid_from=valid_from, source_turn_ids=turns)


def nb(memory_id: str, content: str, sim: float, **kw: object) -> Neighbour:
    kw.setdefault("entities", ("caroline",))
    kw.setdefault("valid_from", LAST_YEAR)
    return Neighbour(memory_id, content, content_hash(content), sim, **kw)  # type: ignore[arg-type]


def gate(
    text: str,
    neighbours: list[Neighbour],
    strategy: ConflictStrategy = CS.TEMPORAL,
    *,
    category: str = "fact",
    valid_from: datetime | None = LAST_MONTH,
    entities: frozenset[str] = frozenset({"caroline"}),
) -> GateDecision:
    f = fact(text, category, valid_from)
    return decide(f, content_hash(text), entities, neighbours, strategy, NOW)


# --- tiers ---------------------------------------------------------------------------------------


def test_exact_hash_match_reinforces_whatever_the_cosine() -> None:
    d = gate("caroline  likes JAZZ.", [nb("m1", "Caroline likes jazz", 0.7)])
    assert (d.action, d.target_id, d.contradiction) == (A.REINFORCE, "m1", False)
    assert "hash" in d.reason


@pytest.mark.parametrize(
    ("sim", "action"),
    [
        (1.0, A.REINFORCE),
        (REINFORCE_SIM, A.REINFORCE),
        (0.9499, A.UPDATE),
        (0.9, A.UPDATE),
        (UPDATE_SIM, A.UPDATE),
        (0.8499, A.CREATE),
        (CONTRADICTION.raw, A.CREATE),
        (0.1, A.CREATE),
    ],
)
def test_each_tier_at_its_threshold(sim: float, action: GateAction) -> None:
    d = gate("Caroline adopted a dog named Max", [nb("m1", "Caroline adopted a dog", sim)])
    assert d.action == action
    assert d.similarity == pytest.approx(sim)
    assert d.target_id == (None if action == A.CREATE else "m1")
    assert d.contradiction is False
    if action == A.UPDATE:
        assert d.merged_content == "Caroline adopted a dog named Max"
    else:
        assert d.merged_content is None


def test_reinforce_threshold_tolerates_float_noise() -> None:
    d = gate("Caroline adopted a dog named Max", [nb("m1", "Caroline adopted a dog", 0.95 - 1e-12)])
    assert d.action == A.REINFORCE
    assert "0.95" in d.reason


def test_update_synthesises_without_losing_a_specific() -> None:
    d = gate(
        "Caroline adopted a dog in 2021.", [nb("m1", "Caroline adopted a dog named Max.", 0.9)]
    )
    assert d.action == A.UPDATE
    assert d.merged_content is not None
    assert "Max" in d.merged_content and "2021" in d.merged_content


def test_near_duplicate_that_adds_nothing_reinforces() -> None:
    d = gate("Caroline adopted a dog", [nb("m1", "Caroline adopted a dog named Max", 0.9)])
    assert (d.action, d.target_id, d.merged_content) == (A.REINFORCE, "m1", None)
    assert "adds nothing" in d.reason


def test_preference_restated_in_other_words_reinforces() -> None:
    old = nb("m1", "Caroline loves hiking in the mountains", 0.96, category="preference")
    d = gate("Caroline really enjoys mountain hikes", [old], category="preference")
    assert (d.action, d.target_id, d.contradiction) == (A.REINFORCE, "m1", False)


def test_two_dated_occurrences_are_two_memories_however_close() -> None:
    june = nb("m1", "Caroline went to a pride parade last week (week of 2023-06-19).", 0.97)
    d = gate("Caroline went to a pride parade last Friday (2023-08-11).", [june])
    assert (d.action, d.target_id, d.contradiction) == (A.CREATE, None, False)
    assert "another dated occurrence" in d.reason


def test_a_correction_of_a_date_is_still_weighed_against_the_old_date() -> None:
    old = nb("m1", "Caroline's exam is on 2024-06-10.", 0.9)
    d = gate("Actually, Caroline's exam is on 2024-06-12.", [old], category="correction")
    assert d.target_id == "m1"


def test_another_fact_about_the_same_subject_is_not_merged_into_it() -> None:
    # all-MiniLM-L6-v2 puts these two at 0.85+; they share no word but the subject's name
    d = gate("Caroline has got guts", [nb("m1", "Caroline has such a caring heart", 0.88)])
    assert (d.action, d.target_id, d.merged_content) == (A.CREATE, None, None)
    assert "shares 0% of its wording" in d.reason


def test_a_merge_never_grows_past_one_fact() -> None:
    long = "Caroline adopted a dog named Max; " + "; ".join(
        f"Max likes toy number {i}" for i in range(30)
    )
    d = gate("Caroline adopted a dog named Max in 2021", [nb("m1", long, 0.9)])
    assert (d.action, d.target_id, d.relation) == (A.CREATE, "m1", MemoryRelation.ELABORATES)
    assert "merge too long" in d.reason


def test_no_neighbours_creates() -> None:
    d = gate("Caroline adopted a dog", [])
    assert (d.action, d.target_id, d.similarity) == (A.CREATE, None, 0.0)


def test_a_neighbour_about_someone_else_is_never_a_duplicate_nor_a_contradiction() -> None:
    melanie = nb("m1", "Melanie's favourite colour is blue", 0.97, entities=("melanie",))
    for text in (BLUE, GREEN):
        d = gate(text, [melanie])
        assert (d.action, d.contradiction) == (A.CREATE, False)


@pytest.mark.parametrize(
    "neighbour",
    [
        nb("m1", "Caroline adopted a dog", 0.97, status=Status.SUPERSEDED),
        nb("m1", "Caroline adopted a dog", 0.97, status=Status.ARCHIVED),
        nb("m1", "Caroline adopted a dog", 0.97, valid_until=NOW - timedelta(days=1)),
    ],
)
def test_history_is_not_deduplicated_against(neighbour: Neighbour) -> None:
    assert gate("Caroline adopted a dog", [neighbour]).action == A.CREATE


def test_ties_are_broken_by_id() -> None:
    text = "Caroline adopted a dog"
    d = gate("Caroline adopted a dog!", [nb("m2", text + ".", 0.96), nb("m1", text + "?", 0.96)])
    assert d.target_id == "m1"


# --- contradictions and the five strategies -------------------------------------------------------


@pytest.mark.parametrize(
    ("strategy", "action", "relation"),
    [
        (CS.TEMPORAL, A.SUPERSEDE, MemoryRelation.SUPERSEDES),
        (CS.USE_NEW, A.SUPERSEDE, MemoryRelation.SUPERSEDES),
        (CS.KEEP_EXISTING, A.SKIP, None),
        (CS.MERGE, A.UPDATE, None),
        (CS.ASK, A.FLAG, MemoryRelation.CONTRADICTS),
    ],
)
def test_changed_preference_with_each_strategy(
    strategy: ConflictStrategy, action: GateAction, relation: MemoryRelation | None
) -> None:
    old = nb("m1", BLUE, 0.9, category="preference")
    d = gate(GREEN, [old], strategy, category="preference")
    assert (d.action, d.target_id, d.relation, d.strategy) == (action, "m1", relation, strategy)
    assert d.contradiction is True
    assert d.conflict is not None and d.conflict.kind == K.VALUE_CHANGE
    assert d.conflict.evidence == ("blue", "green")
    assert d.candidate_is_history is False
    if action == A.SUPERSEDE:  # never a delete: the old one ends where the new one starts
        assert d.old_valid_until == LAST_MONTH
    else:
        assert d.old_valid_until is None
    if action == A.UPDATE:
        assert d.merged_content is not None
        assert "blue" in d.merged_content and "green" in d.merged_content
    else:
        assert d.merged_content is None


def test_temporal_without_a_date_supersedes_now() -> None:
    d = gate(GREEN, [nb("m1", BLUE, 0.9)], valid_from=None)
    assert (d.action, d.old_valid_until) == (A.SUPERSEDE, NOW)


def test_temporal_stores_an_older_candidate_as_history() -> None:
    old = nb("m1", BLUE, 0.9, valid_from=LAST_MONTH)
    d = gate(GREEN, [old], valid_from=LAST_YEAR)
    assert (d.action, d.candidate_is_history, d.target_id) == (A.SUPERSEDE, True, "m1")
    assert d.new_valid_until == LAST_MONTH
    assert d.old_valid_until is None  # the stored, newer fact is untouched


def test_an_older_date_said_after_the_stored_fact_is_the_newer_word() -> None:
    # "Caroline's favourite colour is blue" said now; then "... switched to green last month"
    # said a moment later: a dated change told after the state, not an older fact arriving late
    old = nb("m1", BLUE, 0.9, valid_from=NOW, created_at=NOW)
    f = fact(GREEN, "fact", LAST_MONTH)
    later = decide(f, content_hash(GREEN), frozenset({"caroline"}), [old], CS.TEMPORAL, NOW,
                   said_at=NOW + timedelta(microseconds=1))  # fmt: skip
    assert (later.action, later.candidate_is_history) == (A.SUPERSEDE, False)
    # said in the same turn, or before it: the dates decide, the candidate is history
    for when in (NOW, NOW - timedelta(days=1)):
        d = decide(f, content_hash(GREEN), frozenset({"caroline"}), [old], CS.TEMPORAL, NOW,
                   said_at=when)  # fmt: skip
        assert (d.action, d.candidate_is_history) == (A.SUPERSEDE, True)


def test_use_new_supersedes_even_a_newer_fact_without_an_inverted_interval() -> None:
    old = nb("m1", BLUE, 0.9, valid_from=LAST_MONTH)
    d = gate(GREEN, [old], CS.USE_NEW, valid_from=LAST_YEAR)
    assert (d.action, d.candidate_is_history) == (A.SUPERSEDE, False)
    assert d.old_valid_until is not None and d.old_valid_until >= LAST_MONTH


def test_supersede_never_extends_an_existing_end() -> None:
    end = NOW + timedelta(days=10)
    d = gate(GREEN, [nb("m1", BLUE, 0.9, valid_until=end)], valid_from=NOW + timedelta(days=20))
    assert (d.action, d.old_valid_until) == (A.SUPERSEDE, end)


def test_contradiction_wins_over_a_high_cosine() -> None:
    d = gate(GREEN, [nb("m1", BLUE, 0.97)])
    assert (d.action, d.contradiction) == (A.SUPERSEDE, True)


def test_contradictions_below_the_window_are_not_looked_for() -> None:
    d = gate(GREEN, [nb("m1", BLUE, CONTRADICTION.raw - 0.01)])
    assert (d.action, d.contradiction) == (A.CREATE, False)


def test_correction_category_counts_as_a_correction_signal() -> None:
    old = nb("m1", "Caroline drives a red Toyota", 0.9)
    plain = gate("Caroline drives a blue Toyota", [old])
    assert plain.contradiction is False  # no cue: just a near-duplicate
    d = gate("Caroline drives a blue Toyota", [old], category="correction")
    assert d.action == A.SUPERSEDE
    assert d.conflict is not None and d.conflict.kind == K.CORRECTION


def test_strategy_accepts_seed_spellings_and_rejects_unknown() -> None:
    d = gate(GREEN, [nb("m1", BLUE, 0.9)], "use-new")  # type: ignore[arg-type]
    assert d.strategy == CS.USE_NEW
    with pytest.raises(InvalidInput):
        gate(GREEN, [nb("m1", BLUE, 0.9)], "newest")  # type: ignore[arg-type]


# --- truth anchors -----------------------------------------------------------------


@pytest.mark.parametrize("strategy", [CS.TEMPORAL, CS.USE_NEW, CS.MERGE, CS.ASK])
def test_immutable_memory_is_never_changed_by_a_contradiction(strategy: ConflictStrategy) -> None:
    d = gate(GREEN, [nb("m1", BLUE, 0.9, immutable=True)], strategy)
    assert (d.action, d.relation, d.old_valid_until) == (
        A.FLAG,
        MemoryRelation.CONTRADICTS,
        None,
    )
    assert d.merged_content is None


def test_immutable_memory_is_never_rewritten_by_an_update() -> None:
    old = nb("m1", "Caroline adopted a dog", 0.9, immutable=True)
    d = gate("Caroline adopted a dog named Max", [old])
    assert (d.action, d.target_id, d.relation) == (A.CREATE, "m1", MemoryRelation.ELABORATES)
    assert d.merged_content is None
    # reinforcing changes no content, so it is allowed
    assert gate("Caroline adopted a dog", [old]).action == A.REINFORCE


@pytest.mark.parametrize("strategy", [CS.TEMPORAL, CS.USE_NEW])
def test_pinned_memory_is_not_superseded_silently(strategy: ConflictStrategy) -> None:
    d = gate(GREEN, [nb("m1", BLUE, 0.9, pinned=True)], strategy)
    assert (d.action, d.relation, d.old_valid_until) == (A.FLAG, MemoryRelation.CONTRADICTS, None)
    assert "pinned" in d.reason


def test_pinned_memory_may_still_be_merged_or_updated() -> None:
    assert gate(GREEN, [nb("m1", BLUE, 0.9, pinned=True)], CS.MERGE).action == A.UPDATE
    old = nb("m1", "Caroline adopted a dog", 0.9, pinned=True)
    assert gate("Caroline adopted a dog named Max", [old]).action == A.UPDATE


def test_keep_existing_skips_even_for_anchored_memories() -> None:
    d = gate(GREEN, [nb("m1", BLUE, 0.9, immutable=True, pinned=True)], CS.KEEP_EXISTING)
    assert (d.action, d.target_id) == (A.SKIP, "m1")


# --- contradiction detection ------------------------------------------------------------------


@pytest.mark.parametrize(
    ("new", "old", "kind", "evidence"),
    [
        (GREEN, BLUE, K.VALUE_CHANGE, ("blue", "green")),
        ("Actually, Caroline's favorite color is green now", BLUE, K.VALUE_CHANGE, None),
        (
            "Caroline moved to Berlin",
            "Caroline lives in Paris",
            K.VALUE_CHANGE,
            ("Paris", "Berlin"),
        ),
        ("Caroline works at Acme Berlin", "Caroline works at Acme Zurich", K.VALUE_CHANGE, None),
        ("Caroline doesn't like jazz", "Caroline likes jazz", K.NEGATION, None),
        ("Caroline likes jazz", "Caroline does not like jazz", K.NEGATION, None),
        ("Caroline hates jazz", "Caroline loves jazz", K.NEGATION, None),
        ("Caroline stopped playing guitar", "Caroline plays guitar", K.NEGATION, None),
        ("Caroline has 3 kids", "Caroline has 2 kids", K.NUMBER_CHANGE, ("2", "3")),
        ("Caroline has three kids", "Caroline has 2 kids", K.NUMBER_CHANGE, ("2", "3")),
        ("Caroline is 31 years old", "Caroline is 30 years old", K.NUMBER_CHANGE, ("30", "31")),
        (
            "Caroline's birthday is on June 3",
            "Caroline's birthday is on May 3",
            K.DATE_CHANGE,
            ("may-3", "jun-3"),
        ),
        ("The launch is on 2024-05-04", "The launch is on 2024-05-03", K.DATE_CHANGE, None),
        (
            "Caroline went to Rome in May 2023",
            "Caroline went to Rome in March 2023",
            K.DATE_CHANGE,
            None,
        ),
        # two aims (or two levels) of one thing are compared as usual
        (
            "Caroline's reading goal is 40 books this year",
            "Caroline's reading goal is 30 books this year",
            K.NUMBER_CHANGE,
            None,
        ),
        (
            "Actually the launch slipped to next sprint",
            "The launch is planned for this sprint",
            K.CORRECTION,
            None,
        ),
    ],
)
def test_detects_contradictions(
    new: str, old: str, kind: ContradictionKind, evidence: tuple[str, str] | None
) -> None:
    check = detect_contradiction(new, old)
    assert check is not None and check.kind == kind
    if evidence is not None:
        assert check.evidence == evidence
    assert check.describe().startswith(kind.value)


@pytest.mark.parametrize(
    ("new", "old"),
    [
        (BLUE, BLUE),
        ("Caroline lives in Paris, France", "Caroline lives in Paris"),  # a refinement
        ("Caroline is a mother", "Caroline is a nurse"),  # roles are many-valued
        # a person is no attribute, named or not: two activities of one user are both true
        ("The user is trying to set up Flask debug mode.", "The user is using Python 3.11."),
        ("She is feeling encouraged.", "She is worried about the deadline."),
        ("Caroline also plays piano now", "Caroline plays guitar"),  # an addition
        ("Melanie's favourite colour is green", BLUE),  # someone else
        ("Caroline adopted a dog named Max in 2021", "Caroline adopted a dog named Max"),
        ("Caroline likes jazz and blues", "Caroline likes jazz"),
        ("Caroline really enjoys mountain hikes", "Caroline loves hiking in the mountains"),
        ("Caroline drives a blue Toyota", "Caroline drives a red Toyota"),  # no cue, no predicate
        # a correction cue beside a statement that shares only the person
        (
            "Arjun hung up his boots, his knees can't take it anymore.",
            "The train was so packed Arjun had to stand the whole way.",
        ),
        ("Jamal switched from Word to Scrivener.", "Jamal is struggling with drafting his essay."),
    ],
)
def test_does_not_see_contradictions_where_there_are_none(new: str, old: str) -> None:
    assert detect_contradiction(new, old) is None


def test_correction_flag_needs_something_replaced() -> None:
    assert (
        detect_contradiction(
            "Caroline drives a Toyota", "Caroline drives a Toyota", new_is_correction=True
        )
        is None
    )
    check = detect_contradiction(
        "Caroline drives a blue Toyota", "Caroline drives a red Toyota", new_is_correction=True
    )
    assert check is not None and check.evidence == ("red", "blue")


# --- synthesis --------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("existing", "new", "merged"),
    [
        (
            "Caroline adopted a dog",
            "Caroline adopted a dog named Max",
            "Caroline adopted a dog named Max",
        ),
        (
            "Caroline adopted a dog named Max",
            "Caroline adopted a dog",
            "Caroline adopted a dog named Max",
        ),
        (
            "Caroline adopted a dog named Max.",
            "Caroline adopted a dog in 2021.",
            "Caroline adopted a dog named Max; Caroline adopted a dog in 2021.",
        ),
        (
            "Caroline lives in Paris. She works at Acme.",
            "Caroline lives in Paris. She has a cat called Oscar.",
            "Caroline lives in Paris. She works at Acme; She has a cat called Oscar.",
        ),
        ("", "Caroline adopted a dog", "Caroline adopted a dog"),
        ("Caroline adopted a dog", "", "Caroline adopted a dog"),
    ],
)
def test_synthesize_examples(existing: str, new: str, merged: str) -> None:
    assert synthesize(existing, new) == merged


def test_synthesize_conflict_states_the_new_value_and_keeps_the_old() -> None:
    merged = synthesize_conflict(BLUE + ".", GREEN)
    assert merged == f"{GREEN} (previously: {BLUE}.)"
    assert synthesize_conflict(merged, GREEN) == merged


def test_synthesize_is_bounded() -> None:
    long = " ".join(f"Item{i}" for i in range(2000))
    assert len(synthesize(long, "Caroline adopted a dog")) <= MAX_SYNTHESIS_CHARS
    assert len(synthesize("Caroline adopted a dog", long)) <= MAX_SYNTHESIS_CHARS
    assert synthesize(long[:5000], long[5000:] + " Zed") == long[:5000]  # over the cap: kept


_WORDS = [
    "Caroline", "Melanie", "Max", "Paris", "LGBTQ", "dog", "cat", "adopted", "likes", "the",
    "a", "in", "and", "not", "jazz", "2021", "3", "12.5", "May", "June", "3rd", "she", "The",
    "O'Brien", "U.S", "2024-05-03", "10:30", "1,000", "café", "Zoë", "hiking", "often",
]  # fmt: skip
sentence = st.lists(st.sampled_from(_WORDS), min_size=1, max_size=12).map(" ".join)
_SEPS = st.sampled_from([". ", "; ", ", ", " ", "! ", "? "])
text = st.lists(st.tuples(sentence, _SEPS), max_size=4).map(
    lambda parts: "".join(s + sep for s, sep in parts).strip()
)
_SPECIFIC_RE = re.compile(r"\d+|\b[A-Z]\w*")


@settings(max_examples=300)
@given(text, text)
def test_synthesize_keeps_every_number_and_capitalised_word(a: str, b: str) -> None:
    merged = synthesize(a, b)
    for source in (a, b):
        assert specifics(source) <= set(tokens(merged))
        for match in _SPECIFIC_RE.findall(source):
            if match.casefold() not in STOPWORDS:
                assert match in merged
    assert covers(merged, a) and covers(merged, b)


@settings(max_examples=300)
@given(st.one_of(text, st.text(max_size=200)), st.one_of(text, st.text(max_size=200)))
def test_synthesize_is_idempotent(a: str, b: str) -> None:
    assert synthesize(a, a) == a
    once = synthesize(a, b)
    assert synthesize(once, b) == once
    assert len(once) <= MAX_SYNTHESIS_CHARS
    conflict = synthesize_conflict(a, b)
    assert synthesize_conflict(conflict, b) == conflict


# --- batch dedup ------------------------------------------------------------------------------


def test_batch_dedup_collapses_exact_and_inflected_duplicates_keeping_every_turn() -> None:
    batch = [
        fact("Caroline likes jazz.", turns=("t1",)),
        fact("Caroline adopted a dog", turns=("t2",)),
        fact("caroline  likes JAZZ", turns=("t3", "t1")),
        fact("Caroline like the jazz!", turns=("t4",)),
    ]
    out = batch_dedup(batch)
    assert [f.content for f in out] == ["Caroline likes jazz.", "Caroline adopted a dog"]
    assert out[0].source_turn_ids == ("t1", "t3", "t4")


def test_batch_dedup_with_embeddings_keeps_the_richer_text_and_merges_provenance() -> None:
    dog = ExtractedFact(
        "Caroline adopted a dog",
        "fact",
        0.6,
        entities=(EntityMention("Caroline", "person", 0, 8),),
        source_turn_ids=("t1",),
    )
    max_ = ExtractedFact(
        "Caroline adopted a dog named Max",
        "fact",
        0.9,
        entities=(EntityMention("Caroline", "person", 0, 8), EntityMention("Max", "other", 28, 31)),
        source_turn_ids=("t2",),
        valid_from=LAST_MONTH,
    )
    green = fact(GREEN, turns=("t3",))
    blue = fact(BLUE, turns=("t4",))
    vectors = [[1.0, 0.0], [0.99, 0.05], [0.0, 1.0], [0.0, 1.0]]
    groups = group_batch([dog, max_, green, blue], embeddings=vectors)
    assert [g.members for g in groups] == [(0, 1), (2,), (3,)]  # blue/green contradict: both kept
    merged = groups[0]
    assert merged.representative == 1
    assert merged.fact.content == "Caroline adopted a dog named Max"
    assert merged.fact.source_turn_ids == ("t2", "t1")
    assert merged.fact.confidence == 0.9
    assert [e.name for e in merged.fact.entities] == ["Caroline", "Max"]
    with pytest.raises(InvalidInput):
        group_batch([dog], embeddings=[])


_FACT_TEXTS = [
    "Caroline likes jazz",
    "caroline likes jazz.",
    "Caroline like the jazz",
    "Caroline adopted a dog",
    "Caroline adopted a dog named Max",
    BLUE,
    GREEN,
    "Melanie paints",
    "",
    "!!!",
]
facts = st.builds(
    lambda t, turns: fact(t, turns=tuple(turns)),
    st.sampled_from(_FACT_TEXTS),
    st.lists(st.sampled_from(["t1", "t2", "t3", "t4", "t5"]), max_size=3, unique=True),
)


@settings(max_examples=300)
@given(st.lists(facts, max_size=10))
def test_batch_dedup_is_idempotent_and_loses_no_turn(batch: list[ExtractedFact]) -> None:
    once = batch_dedup(batch)
    assert batch_dedup(once) == once
    assert len(once) <= len(batch)
    assert {t for f in batch for t in f.source_turn_ids} == {
        t for f in once for t in f.source_turn_ids
    }
    hashes = [content_hash(f.content) for f in once]
    assert len(hashes) == len(set(hashes))


# --- determinism ------------------------------------------------------------------------------

_CONTENTS = [
    BLUE,
    GREEN,
    "Caroline adopted a dog",
    "Caroline adopted a dog named Max",
    "Caroline likes jazz",
    "Caroline doesn't like jazz",
    "Caroline has 2 kids",
]
neighbour_specs = st.lists(
    st.tuples(
        st.sampled_from(_CONTENTS),
        st.sampled_from([0.3, 0.6, 0.84, 0.85, 0.9, 0.95, 0.99]),
        st.sampled_from([Status.ACTIVE, Status.STALE, Status.SUPERSEDED]),
        st.booleans(),
        st.booleans(),
        st.sampled_from([None, LAST_YEAR, LAST_MONTH, NOW + timedelta(days=3)]),
    ),
    max_size=6,
)


@settings(max_examples=300)
@given(
    st.sampled_from(_CONTENTS),
    neighbour_specs,
    st.sampled_from(list(CS)),
    st.sampled_from([None, LAST_YEAR, LAST_MONTH]),
    st.randoms(use_true_random=False),
)
def test_decide_is_deterministic_and_order_invariant(
    candidate: str,
    specs: list[tuple[str, float, Status, bool, bool, datetime | None]],
    strategy: ConflictStrategy,
    valid_from: datetime | None,
    rnd: object,
) -> None:
    neighbours = [
        nb(f"m{i}", c, sim, status=st_, pinned=p, immutable=im, valid_from=vf)
        for i, (c, sim, st_, p, im, vf) in enumerate(specs)
    ]
    first = gate(candidate, neighbours, strategy, valid_from=valid_from)
    assert gate(candidate, list(neighbours), strategy, valid_from=valid_from) == first
    shuffled = list(neighbours)
    rnd.shuffle(shuffled)  # type: ignore[attr-defined]
    assert gate(candidate, shuffled, strategy, valid_from=valid_from) == first
    assert gate(candidate, list(reversed(neighbours)), strategy, valid_from=valid_from) == first
    changes_target = first.action == A.UPDATE or (
        first.action == A.SUPERSEDE and not first.candidate_is_history
    )
    if changes_target:  # truth anchors are never changed (history beside them is fine)
        target = next(n for n in neighbours if n.memory_id == first.target_id)
        assert not target.immutable
        assert not (target.pinned and first.action == A.SUPERSEDE)
    if first.candidate_is_history:
        assert first.old_valid_until is None and first.new_valid_until is not None


_vectors = st.lists(
    st.lists(st.floats(-1, 1, allow_nan=False), min_size=4, max_size=4), min_size=1, max_size=6
)


@given(_vectors)
@settings(max_examples=60, deadline=None)
def test_the_batch_cosine_matrix_is_the_pairwise_cosine(vectors: list[list[float]]) -> None:
    from kgmem.ingest.gate.batch_dedup import _cosine_matrix

    sims = _cosine_matrix(vectors)
    for i, u in enumerate(vectors):
        for j, v in enumerate(vectors):
            nu = sum(a * a for a in u) ** 0.5
            nv = sum(b * b for b in v) ** 0.5
            want = sum(a * b for a, b in zip(u, v, strict=True)) / (nu * nv) if nu * nv else 0.0
            assert abs(float(sims[i, j]) - want) < 1e-9


def test_batch_grouping_uses_each_pair_cosine_at_the_reinforce_threshold() -> None:
    # Three facts with no shared wording: only the embeddings can group them. a~b sit exactly at
    # REINFORCE_SIM (grouped), a~c just below it (kept apart).
    a, b, c = (
        ExtractedFact(content=text, category="fact", confidence=0.8)
        for text in (
            "Ana adopted a dog named Rex.",
            "Ana adopted a dog named Rex in May.",
            "Bruno sold his red bicycle.",
        )
    )
    s = 0.95
    below = 0.949
    vecs = [[1.0, 0.0, 0.0], [s, (1 - s * s) ** 0.5, 0.0], [below, 0.0, (1 - below * below) ** 0.5]]
    groups = group_batch([a, b, c], embeddings=vecs)
    assert [g.members for g in groups] == [(0, 1), (2,)]


# --- who the fact is about ------------------------------------------------------------------


def test_the_same_words_said_by_the_other_speaker_are_not_merged() -> None:
    # conv-26: "Thanks, Melanie! Your kind words mean a lot" and Melanie's "Thanks, Caroline! Your
    # words mean a lot" share a name and most words; merged, one thanked the other both ways
    stored = nb(
        "m1", "Melanie's words mean a lot to Caroline", 0.9, entities=("melanie", "caroline")
    )
    for sim in (0.9, 0.97):
        d = gate("Caroline's kind words mean a lot", [replace(stored, similarity=sim)])
        assert (d.action, d.target_id, d.merged_content) == (A.CREATE, None, None)
        assert d.reason == "no live neighbour on the same subject"


def test_one_recommendation_is_not_attributed_to_the_other_speaker() -> None:
    stored = nb(
        "m1", "Caroline recommended Becoming Nicole", 0.96, entities=("caroline", "becoming nicole")
    )
    d = gate(
        "Melanie recommended Becoming Nicole",
        [stored],
        entities=frozenset({"melanie", "becoming nicole"}),
    )
    assert (d.action, d.target_id) == (A.CREATE, None)


def test_a_reordered_sentence_about_the_same_names_is_still_one_subject() -> None:
    stored = nb("m1", "Berlin is where Priya lives", 0.96, entities=("berlin", "priya"))
    d = gate("Priya lives in Berlin", [stored], entities=frozenset({"priya", "berlin"}))
    assert (d.action, d.target_id) == (A.REINFORCE, "m1")


def test_a_possessive_lead_is_the_same_subject_as_the_plain_name() -> None:
    stored = nb("m1", "Caroline's favourite colour is blue", 0.97)
    d = gate("Caroline loves the colour blue, her favourite", [stored])
    assert d.target_id == "m1"


@given(
    a=st.sampled_from(["Caroline", "Melanie", "Berlin", "Glad", "Priya"]),
    b=st.sampled_from(["Caroline", "Melanie", "Berlin", "Glad", "Priya"]),
    sim=st.floats(min_value=0.6, max_value=0.999),
)
def test_the_other_speaker_rule_is_symmetric(a: str, b: str, sim: float) -> None:
    names = {"Caroline": "caroline", "Melanie": "melanie", "Berlin": "berlin", "Priya": "priya"}
    ea = frozenset({names[a]}) if a in names else frozenset({"caroline"})
    eb = frozenset({names[b]}) if b in names else frozenset({"caroline"})
    one = decide(
        fact(f"{a} talked about the lake"), "h1", ea,
        [Neighbour("m1", f"{b} talked about the lake", "h2", sim, entities=tuple(eb))],
        CS.TEMPORAL, NOW,
    )  # fmt: skip
    two = decide(
        fact(f"{b} talked about the lake"), "h2", eb,
        [Neighbour("m1", f"{a} talked about the lake", "h1", sim, entities=tuple(ea))],
        CS.TEMPORAL, NOW,
    )  # fmt: skip
    assert (one.target_id is None) == (two.target_id is None)


def test_a_neighbour_is_live_as_of_when_the_candidate_was_said() -> None:
    # importing a history: a plan current when the turn was said ("is scheduled for May 12")
    # still meets the candidate, though its date has passed by the time of the import
    expired = nb("m1", "Caroline adopted a dog", 0.97, valid_until=NOW - timedelta(days=10))
    said = NOW - timedelta(days=20)
    d = decide(fact("Caroline adopted a dog"), content_hash("Caroline adopted a dog"),
               frozenset({"caroline"}), [expired], CS.TEMPORAL, NOW, said_at=said)  # fmt: skip
    assert (d.action, d.target_id) == (A.REINFORCE, "m1")
    d = decide(fact("Caroline adopted a dog"), content_hash("Caroline adopted a dog"),
               frozenset({"caroline"}), [expired], CS.TEMPORAL, NOW, said_at=NOW)  # fmt: skip
    assert d.action == A.CREATE


@pytest.mark.parametrize(
    ("new", "old"),
    [
        (
            "Caroline's partner drinks one coffee a day.",
            "Caroline drinks about four coffees a day.",
        ),
        ("Caroline drinks one coffee a day.", "Caroline's partner drinks one coffee a day."),
        ("Caroline's sister lives in Boston.", "Caroline's brother lives in Boston."),
    ],
)
def test_a_relatives_fact_is_never_merged_into_the_persons_own(new: str, old: str) -> None:
    for sim in (0.8, 0.9, REINFORCE_SIM):
        d = gate(new, [nb("m1", old, sim)])
        assert d.action == A.CREATE, (sim, d.reason)
    # the same kin on both sides is one subject
    d = gate(
        "Caroline's sister lives in Boston now.",
        [nb("m1", "Caroline's sister lives in Boston.", REINFORCE_SIM)],
    )
    assert d.action != A.CREATE


@pytest.mark.parametrize(
    ("a", "b", "another"),
    [
        ("Maya's partner drinks one coffee a day.", "Maya drinks four coffees a day.", True),
        ("Maya's sister lives in Boston.", "Maya's brother lives in Boston.", True),
        ("Maya's sister lives in Boston.", "Maya's sister moved to Denver.", False),
        # a fact that names the person again is about the person
        ("Maya's friends call Maya Bex.", "Nobody calls Maya Bex anymore.", False),
        # a team's or a family's facts are often the person's own
        ("Maya's team is 6 developers.", "Maya and others are 8 developers now.", False),
        # the relative as what the other acts on: both are about the son
        ("Maya's son goes to Oakwood Elementary.", "Maya moved Maya's son to Riverside.", False),
        ("Maya's son goes to Oakwood Elementary.", "We moved my son to Riverside.", False),
        # a relative named beside a comparison is not what the fact is about
        ("Maya's partner drinks one coffee.", "Maya drinks four, unlike Maya's partner.", True),
    ],
)
def test_told_of_another(a: str, b: str, another: bool) -> None:
    assert told_of_another(a, b) is another and told_of_another(b, a) is another
