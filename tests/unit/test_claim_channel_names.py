"""Whom an attribute question asks about, read from its words for the claim channel."""

from __future__ import annotations

import pytest

from kgmem.recall.claim_channel import asked_about


@pytest.mark.parametrize(
    ("question", "names"),
    [
        ("What pet does Ana have?", {"ana"}),
        ("What is Dmitri's role?", {"dmitri"}),
        ("Who does Priya Shah work for now?", {"priya shah", "priya", "shah"}),
        ("Is Chloé seeing anyone?", {"chloé"}),
        # "the user" is the rewrite's name for a speaker without one, not their relatives
        ("Where does the user live?", {"user"}),
        ("What is the user's budget?", {"user"}),
        ("User's favourite colour?", {"user"}),
        ("How many users signed up?", set()),
        # a question that names no one is about everyone (a one-person namespace)
        ("What is my budget?", set()),
    ],
)
def test_the_names_a_question_asks_about(question: str, names: set[str]) -> None:
    assert asked_about(question) == names
