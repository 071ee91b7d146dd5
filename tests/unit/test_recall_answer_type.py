"""The kind of answer a question asks for (recall/answer_type.py) and whether a memory states one:
a date for "when", a number for "how many", outside the date labels the write path appends."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest
from hypothesis import given
from hypothesis import strategies as st

from kgmem.recall.answer_type import AnswerType, asked_type, states

SAID = datetime(2023, 5, 8, 14, 0, tzinfo=UTC)


@pytest.mark.parametrize(
    ("question", "kind"),
    [
        ("When did Caroline go to the support group?", AnswerType.TIME),
        ("when is the wedding?", AnswerType.TIME),
        ("What year did Jon open the studio?", AnswerType.TIME),
        ("Which month was the race?", AnswerType.TIME),
        ("How long ago did Ana move?", AnswerType.TIME),
        ("How many days passed between the API key and the wireframe?", None),  # a span
        ("How long was it from the move to the new job?", None),
        ("How many weeks do I have until the deadline?", AnswerType.QUANTITY),
        ("How many kids does Melanie have?", AnswerType.QUANTITY),
        ("How much have I set aside for the wedding?", AnswerType.QUANTITY),
        ("How long has Tim been playing the piano?", AnswerType.QUANTITY),
        ("How old is Ana?", AnswerType.QUANTITY),
        ("How often does Maria volunteer?", AnswerType.QUANTITY),
        ("What time does Leila go to bed?", None),  # a time of day, which no date answers
        ("What did Caroline paint?", None),
        ("Where does Maya work?", None),
        ("How did Joanna feel about the movie?", None),
        ("Do you remember when we met?", None),  # a question about something else
        ("", None),
    ],
)
def test_the_question_names_the_kind_of_answer(question: str, kind: AnswerType | None) -> None:
    assert asked_type(question) is kind


@pytest.mark.parametrize(
    ("content", "dated", "expected"),
    [
        ("Caroline went to a LGBTQ support group yesterday (2023-05-07).", False, True),
        ("Melanie ran a charity race last week (week of 2023-05-01).", False, True),
        ("Jon opened the studio on 19 June 2023.", False, True),
        ("Jon opened the studio on June 19th.", False, True),
        ("The studio opened in 2021.", False, True),
        ("Ana moved to Porto last spring.", True, True),  # the write path dated it
        ("The support group has made Caroline feel accepted.", False, False),
        ("Melanie has 2 kids.", False, False),  # a number is no date
    ],
)
def test_a_memory_states_a_date(content: str, dated: bool, expected: bool) -> None:
    valid_from = SAID - timedelta(days=40) if dated else SAID
    assert states(AnswerType.TIME, content, SAID, valid_from) is expected


@pytest.mark.parametrize(
    ("content", "expected"),
    [
        ("Melanie has two kids.", True),
        ("Melanie has 3 kids and a dog.", True),
        ("The user set aside $1,200 for the wedding.", True),
        ("Tim has been playing the piano for a couple of years.", True),
        ("Maria volunteers twice a month.", True),
        ("Caroline went to a support group yesterday (2023-05-07).", False),  # only a date label
        ("Melanie loves her kids.", False),
    ],
)
def test_a_memory_states_a_number(content: str, expected: bool) -> None:
    assert states(AnswerType.QUANTITY, content, SAID, SAID) is expected


@given(st.dates(), st.text(max_size=60))
def test_a_date_label_is_a_date_and_never_a_number(day: object, words: str) -> None:
    label = f"{words.replace('(', ' ').replace(')', ' ')} yesterday ({day})"
    assert states(AnswerType.TIME, label, SAID, None)
    stripped = states(AnswerType.QUANTITY, label, SAID, None)
    assert stripped == states(AnswerType.QUANTITY, label.rsplit(" yesterday", 1)[0], SAID, None)
