"""A memory that says nothing but names (``recall/coverage.py``) loses relevance for a question
that asks something else, and keeps it for a question about names."""

from __future__ import annotations

import math
from dataclasses import replace
from datetime import UTC, datetime

import pytest
from hypothesis import given
from hypothesis import strategies as st

from kgmem.recall.candidates import Candidate
from kgmem.recall.coverage import records_a_question, says_only_names
from kgmem.recall.hydration import _covered
from kgmem.recall.profiles import PROFILES
from kgmem.recall.scoring import NAMES_ONLY_FACTOR, score

NOW = datetime(2025, 6, 1, 12, 0, tzinfo=UTC)


@pytest.mark.parametrize(
    ("content", "names", "query", "query_names", "only"),
    [
        ("User is Tomas.", ("user", "tomas"), "Where does the user live?", (), True),
        ("User is Tomas.", ("user", "tomas"), "Where does Tomas live?", ("tomas",), True),
        ("Caroline and Melanie!", ("caroline", "melanie"), "What did Caroline paint?",
         ("caroline",), True),
        # a question about names: the memory answers it
        ("User is Tomas.", ("user", "tomas"), "Who is the user?", (), False),
        ("User is Tomas.", ("user", "tomas"), "Who is Tomas?", ("tomas",), False),
        ("User is Tomas.", ("user", "tomas"), "What is the user's name?", (), False),
        ("Maya is Mai.", ("maya", "mai"), "What do friends call Maya?", ("maya",), False),
        # a memory that says something besides its names
        ("User moved to Lisbon.", ("user",), "Where does the user live?", (), False),
        # a thing's name is what the memory says, only people's names say nothing asked
        ("Diego has a Kindle.", ("diego",), "What e-reader does Diego use?", ("diego",), False),
        ("Caroline's sister is Anna.", ("caroline", "anna"), "Who is Caroline's sister?",
         ("caroline",), False),
    ],
)  # fmt: skip
def test_says_only_names(
    content: str, names: tuple[str, ...], query: str, query_names: tuple[str, ...], only: bool
) -> None:
    assert says_only_names(content, names, query, query_names) is only


word = st.sampled_from(["lives", "paints", "coffee", "sister", "Lisbon", "guitar", "moved"])


@given(st.lists(word, min_size=1, max_size=5), st.sampled_from(["Tomas", "Ana", "Caroline"]))
def test_a_memory_with_a_word_of_its_own_is_never_names_only(words: list[str], name: str) -> None:
    content = f"{name} {' '.join(words)}."
    # the memory's own words are not names: it says something
    assert not says_only_names(content, (name.lower(),), f"What about {name}'s day?", ())


def test_the_score_scales_relevance_and_still_adds_up() -> None:
    base = Candidate("m1", "User is Tomas.", NOW, vector_score=0.9, bm25_score=1.0, rrf_score=0.03)
    plain = score(base, PROFILES["balanced"], NOW)
    marked = score(
        Candidate("m1", "User is Tomas.", NOW, vector_score=0.9, bm25_score=1.0,
                  rrf_score=0.03, names_only=True),
        PROFILES["balanced"], NOW,
    )  # fmt: skip
    assert math.isclose(marked.factors["relevance"], plain.factors["relevance"] * NAMES_ONLY_FACTOR)
    assert math.isclose(marked.final, plain.final * NAMES_ONLY_FACTOR)
    assert marked.final == math.fsum(marked.contributions.values())
    assert marked.contributions["names_only"] < 0.0 and "names_only" not in plain.contributions


def test_a_question_kept_as_asked_is_recognised() -> None:
    assert records_a_question("The user asked: how do I get a coffee stain out of a shirt?")
    assert records_a_question("Maya asked: what if the debounce delay isn't enough?")
    assert not records_a_question("Maya drinks about four coffees a day.")
    assert not records_a_question("Maya asked the assistant about her plan.")  # no words kept


def test_a_question_kept_as_asked_is_lowered_for_an_attribute_question_only() -> None:
    asked = Candidate("m1", "The user asked: how do I get a coffee stain out?", NOW)
    lowered = _covered(asked, (), "How much coffee does the user drink?", frozenset(), True)
    assert lowered.names_only
    # a question about what was asked, or one the claim channel answered, keeps it whole
    assert not _covered(
        asked, (), "What did the user ask about stains?", frozenset(), False
    ).names_only
    held = replace(asked, holds_asked_slot=True)
    assert not _covered(held, (), "How much coffee?", frozenset(), True).names_only
