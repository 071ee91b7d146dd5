"""The Lucene query builder's hub-name weighting: weak words boosted or dropped, nothing else."""

from __future__ import annotations

import re

from hypothesis import given
from hypothesis import strategies as st

from kgmem.recall.lucene import QUESTION_WORDS, hub_words, to_lucene
from kgmem.recall.query import word_set

words = st.text(alphabet="abcXYZ'", min_size=1, max_size=6)


def test_hub_words_are_lower_case_name_words_without_possessive() -> None:
    assert hub_words(["Caroline", "Mel", "Matt Patterson's", "", "--"]) == {
        "caroline",
        "mel",
        "matt",
        "patterson",
    }


def test_weak_words_are_boosted_case_and_possessive_blind() -> None:
    q = to_lucene("What did Caroline's friend tell CAROLINE about Oscar?", {"caroline"}, 0.1)
    assert q == (
        "What OR did OR Caroline's^0.1 OR friend OR tell OR CAROLINE^0.1 OR about OR Oscar"
    )


def test_boost_zero_drops_weak_words_and_may_leave_nothing() -> None:
    assert to_lucene("Caroline and Melanie", {"caroline", "melanie"}, 0.0) == "and"
    assert to_lucene("Caroline?", {"caroline"}, 0.0) is None


def test_boost_one_is_the_plain_query() -> None:
    text = "When did Caroline go to the LGBTQ support group?"
    assert to_lucene(text, {"caroline"}, 1.0) == to_lucene(text)


@given(st.lists(words, min_size=1, max_size=12), st.sets(words, max_size=4),
       st.sampled_from([0.0, 0.05, 0.1, 0.5]))  # fmt: skip
def test_only_weak_terms_change(terms: list[str], weak: set[str], boost: float) -> None:
    """Law: the boosted query is the plain one with each weak term boosted (or dropped at 0)
    and every other term untouched, in order."""
    text = " ".join(terms)
    weak_words = hub_words(weak)
    plain = to_lucene(text)
    boosted = to_lucene(text, weak_words, boost)
    if plain is None:
        assert boosted is None
        return
    expected = []
    for term in plain.split(" OR "):
        word = re.sub(r"['’]s$", "", term.lower())
        if word not in weak_words:
            expected.append(term)
        elif boost > 0:
            expected.append(f"{term}^{boost:g}")
    assert boosted == (" OR ".join(expected) if expected else None)


def test_question_words_are_dropped_content_words_kept() -> None:
    q = to_lucene("What kind of pets does Melanie have, and who's Oscar?", drop=QUESTION_WORDS)
    assert q == "of OR pets OR Melanie OR and OR Oscar"
    assert to_lucene("When did you?", drop=QUESTION_WORDS) == "you"
    assert to_lucene("What did they do?", drop=QUESTION_WORDS) == "they"
    assert to_lucene("Where was it?", drop=QUESTION_WORDS | {"was", "it"}) is None


def test_question_words_are_only_function_words() -> None:
    """The list holds no word a memory would be found by: no noun a question asks about."""
    assert QUESTION_WORDS.isdisjoint(word_set("pet pets name first last often time job home"))
    assert {"what", "when", "did", "does", "kind"} <= QUESTION_WORDS


@given(st.lists(words, min_size=1, max_size=12), st.sets(words, max_size=4),
       st.sets(words, max_size=4), st.sampled_from([0.0, 0.3, 1.0]))  # fmt: skip
def test_dropping_removes_exactly_the_dropped_terms(
    terms: list[str], drop: set[str], weak: set[str], boost: float
) -> None:
    """Law: the query with ``drop`` is the query of the text without those words (in their
    compared form), so dropping commutes with the hub weighting and leaves order intact."""
    text = " ".join(terms)
    dropped, hubs = hub_words(drop), hub_words(weak)
    kept = " ".join(
        t for t in terms if re.sub(r"['’]s$", "", t.strip("'’-").lower()) not in dropped
    )
    assert to_lucene(text, hubs, boost, dropped) == to_lucene(kept, hubs, boost)
