"""``turns_by_relevance``: a memory's turns, most query word stems first, ties by rarity, then
provenance order.

``get_recall_candidates`` sends a turn's text only when the memory has several turns; these
laws are why that cannot change a hit's turn ids: with one turn the text never matters, and with
several the order depends on the texts (so they must be sent).
"""

from __future__ import annotations

from itertools import pairwise

from hypothesis import given
from hypothesis import strategies as st

from kgmem.core.text import content_words
from kgmem.graph.rows import CandidateTurn
from kgmem.recall.turns import turn_word_rarity, turns_by_relevance

WORDS = st.sampled_from(["pepper", "beagle", "shelter", "berlin", "ramen", "the", "a", "hiking"])
TEXT = st.lists(WORDS, max_size=8).map(" ".join)


@given(TEXT, st.text(min_size=1, max_size=12), TEXT)
def test_one_turn_is_returned_whatever_its_text(query: str, turn: str, text: str) -> None:
    assert turns_by_relevance(query, [CandidateTurn(turn, text)]) == (turn,)
    assert turns_by_relevance(query, [CandidateTurn(turn)]) == (turn,)


@given(TEXT, st.lists(TEXT, min_size=2, max_size=6))
def test_several_turns_are_ordered_by_shared_words_then_provenance(
    query: str, texts: list[str]
) -> None:
    turns = [CandidateTurn(f"t{i}", t) for i, t in enumerate(texts)]
    got = turns_by_relevance(query, turns)
    assert sorted(got) == sorted(t.turn for t in turns)
    asked = set(content_words(query))
    shared = [len(asked & set(content_words(texts[int(t[1:])]))) for t in got]
    assert shared == sorted(shared, reverse=True)
    for (a, sa), (b, sb) in pairwise(zip(got, shared, strict=True)):
        if sa == sb:  # equal overlap keeps provenance order
            assert int(a[1:]) < int(b[1:])


def test_a_turn_without_text_sorts_after_one_that_shares_words() -> None:
    turns = [CandidateTurn("t0"), CandidateTurn("t1", "Pepper the beagle")]
    assert turns_by_relevance("Where is Pepper the beagle?", turns) == ("t1", "t0")


def test_turns_match_on_word_stems() -> None:
    turns = [CandidateTurn("t0", "We went to the beach"), CandidateTurn("t1", "She paints")]
    assert turns_by_relevance("What did Melanie paint?", turns) == ("t1", "t0")


def test_equal_stem_counts_go_to_the_rarer_shared_word() -> None:
    turns = [
        CandidateTurn("t0", "Hey Caroline, how are you?"),
        CandidateTurn("t1", "I adopted two turtles"),
    ]
    query = "Caroline turtles"
    others = [CandidateTurn(f"x{i}", "Caroline said hi") for i in range(5)]
    rarity = turn_word_rarity(turns + others)
    assert rarity["turtles"] > rarity["caroline"]
    assert turns_by_relevance(query, turns) == ("t0", "t1")  # a tie: provenance order
    assert turns_by_relevance(query, turns, rarity) == ("t1", "t0")


@given(st.lists(TEXT, min_size=1, max_size=8))
def test_rarity_is_positive_and_falls_with_document_frequency(texts: list[str]) -> None:
    turns = [CandidateTurn(f"t{i}", t) for i, t in enumerate(texts)]
    rarity = turn_word_rarity(turns)
    df = {w: sum(w in set(content_words(t)) for t in texts) for w in rarity}
    assert all(v > 0 for v in rarity.values())
    for a in rarity:
        for b in rarity:
            if df[a] < df[b]:
                assert rarity[a] > rarity[b]
