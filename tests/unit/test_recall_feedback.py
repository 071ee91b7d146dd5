"""Pseudo-relevance feedback's pure stages: which words expand a query, and how they are written."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from kgmem.recall.feedback import expanded_query, expansion_terms

TOP = [
    "Melanie adopted a kitten named Oliver from the shelter.",
    "Melanie's kitten Oliver sleeps on the piano.",
]
POOL = [*TOP, "Melanie painted a lake.", "Melanie ran a charity race.", "The shelter was busy."]


def test_words_the_top_texts_share_beyond_the_query_come_first() -> None:
    terms = expansion_terms(TOP, POOL, skip={"melanie", "pets", "the", "from", "named"})
    words = [w for w, _ in terms]
    assert words[:2] == ["kitten", "oliver"]  # in both top texts, in no other candidate
    assert terms[0][1] == 1.0
    assert "melanie" not in words and "the" not in words
    # "shelter" is also in a text outside the top: rarer words beat it
    assert words.index("shelter") > words.index("kitten")


def test_nothing_to_expand_gives_no_terms() -> None:
    assert expansion_terms([], POOL, skip=set()) == []
    assert expansion_terms(["a to of"], ["a to of"], skip=set()) == []


def test_expanded_query_weighs_each_word_below_the_query() -> None:
    q = expanded_query("kitten OR Melanie^0.3", [("oliver", 1.0), ("piano", 0.5)], 0.3)
    assert q == "kitten OR Melanie^0.3 OR oliver^0.300 OR piano^0.150"
    assert expanded_query("x", [("a:b", 1.0)], 0.3) == "x OR a\\:b^0.300"


texts = st.lists(st.text(alphabet="abcdefg ", max_size=40), max_size=8)


@given(texts, texts, st.sets(st.text(alphabet="abcdefg", min_size=1, max_size=4), max_size=5),
       st.integers(min_value=1, max_value=12))  # fmt: skip
def test_terms_are_few_fresh_and_ranked(
    top: list[str], rest: list[str], skip: set[str], n: int
) -> None:
    """Law: at most n words, none skipped, each from a top text, weights in (0, 1] descending
    with the best at 1."""
    terms = expansion_terms(top, top + rest, skip, n)
    assert len(terms) <= n
    words = " ".join(top).split()
    for word, weight in terms:
        assert word not in skip and word in words and 0.0 < weight <= 1.0
    weights = [w for _, w in terms]
    assert weights == sorted(weights, reverse=True)
    assert not terms or weights[0] == 1.0
