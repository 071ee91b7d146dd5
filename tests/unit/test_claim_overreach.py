"""Claims that must not retire anything: a person who keeps several plans, amounts and dates
(an assistant's user over weeks) says a new one beside the old, not in its place.

Over-invalidation is as bad as under-invalidation: each case here was a supersede seen in
project conversations (dates for two things, a percentage of two things, a count in another
unit), and each keeps its counterpart that must still act.
"""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from kgmem.ingest.claims.engine import extract_claim
from kgmem.ingest.gate.claim_rule import ClaimConflict, claim_conflict
from kgmem.ingest.gate.measures import counts_a_thing, restated_holders
from kgmem.ingest.gate.records import Neighbour
from kgmem.ingest.gate.replacement import replaces_own_state, retires
from kgmem.records import Claim, ExtractedFact

T0 = datetime(2024, 3, 1, tzinfo=UTC)


def _held(mid: str, content: str, claim: Claim, similarity: float = 0.0) -> Neighbour:
    return Neighbour(mid, content, f"h{mid}", similarity, valid_from=T0, claim=claim)


def test_deadlines_for_two_things_are_two_deadlines() -> None:
    abstract = _held(
        "m1",
        "The user has a submission deadline of June 15 for the conference abstract.",
        Claim("user", "deadline:submission", "june 15"),
        0.80,
    )
    paper = Claim("user", "deadline:submission", "july 20")
    said = "The user has a final submission deadline of July 20 for the user's conference paper."
    assert claim_conflict(paper, [abstract], 0.5, content=said) is None
    # the same thing's deadline moved still changes it
    moved = "The user's submission deadline for the conference abstract moved to July 1."
    verdict = claim_conflict(Claim("user", "deadline:submission", "july 1"), [abstract], 0.5,
                             content=moved)  # fmt: skip
    assert isinstance(verdict, ClaimConflict)


def test_an_unnamed_deadline_among_several_changes_only_the_one_it_restates() -> None:
    statement = _held(
        "m1",
        "The user has got a deadline of May 10 to finalize the personal statement.",
        Claim("user", "deadline:general", "may 10"),
        0.54,
    )
    danielle = _held(
        "m2",
        "The user has a Zoom meeting with Danielle on March 22 at 3 PM.",
        Claim("user", "deadline:zoom-daniell", "march 22 at 3 pm"),
        0.20,
    )
    grants = Claim("user", "deadline:general", "may 25")
    said = "The user is worried about meeting the May 25 deadline for the two grants."
    assert claim_conflict(grants, [statement, danielle], 0.5, content=said) is None
    # said again in near words, it is the one restated
    restated = _held("m1", statement.content, statement.claim, 0.82)  # type: ignore[arg-type]
    verdict = claim_conflict(grants, [restated, danielle], 0.5, content=said)
    assert isinstance(verdict, ClaimConflict) and verdict.holder.memory_id == "m1"
    # with one kept, an unnamed one moves it (the rule for "pushed the deadline to June 1")
    assert restated_holders(grants, [statement]) == [statement]


def test_a_bare_percentage_names_no_measure() -> None:
    assert not counts_a_thing(Claim("user", "quantity:%", "25%"))
    assert counts_a_thing(Claim("user", "quantity:accuracy", "88%"))
    assert counts_a_thing(Claim("user", "residence", "leeds"))
    speed = _held("m1", "retrieval speed improved by 40%", Claim("user", "quantity:%", "40%"))
    assert claim_conflict(Claim("user", "quantity:%", "25%"), [speed], 0.5) is None


def test_a_qualifier_must_name_what_the_amount_measures() -> None:
    examples = _held(
        "m1",
        "The user has been practicing rebuttal writing with 5 examples from feminist film "
        "critiques on May 9.",
        Claim("user", "quantity:exampl", "5"),
    )
    films = Claim("user", "quantity:film", "10")
    said = "The user is analyzing 10 Montserrat films for the user's essay."
    assert claim_conflict(films, [examples], 0.5, content=said) is None
    # "a 500-word section" sizes a section: it is no count of the draft's words
    draft = _held(
        "m2",
        "The user's final draft reached 4,700 words by May 13.",
        Claim("user", "quantity:word", "4,700"),
    )
    section = Claim("user", "quantity:section", "500", confidence=0.63)
    said = "The user is adding a 500-word literature review section to the paper."
    assert claim_conflict(section, [draft], 0.5, content=said) is None
    # the measure named beside the amount in two wordings is one measure
    accuracy = _held(
        "m3",
        "The model's accuracy on the validation set is 82%.",
        Claim("leila", "quantity:set", "82%", confidence=0.6),
    )
    said = "After the data cleanup, validation accuracy is 88%."
    verdict = claim_conflict(Claim("leila", "quantity:accuracy", "88%", confidence=0.6),
                             [accuracy], 0.5, content=said)  # fmt: skip
    assert isinstance(verdict, ClaimConflict)


@pytest.mark.parametrize(
    "text",
    [
        "Maya is really inspired by Robert's essay on gender studies that Robert shared.",
        "Maya has been studying the Toulmin model since April 2.",
        "Linguistic studies support the use of similes, Maya said.",
        "Maya decided to pause freelance work for 3 weeks starting April 6.",
        "Maya is not sure how to make it work for academic, visa, and grant applications.",
        "Maya recently joined the Toronto Caribbean Cultural Association on July 29.",
        "Maya is gonna take the assistant's advice and send a thank-you email.",
        "Maya has enrolled in a 4-week online course on academic writing.",
    ],
)
def test_things_studied_joined_or_taken_are_no_field_employer_title_or_school(text: str) -> None:
    assert extract_claim(text, speaker="Maya") is None


@pytest.mark.parametrize(
    ("text", "slot", "value"),
    [
        ("Maya is studying law at Leeds.", "field_of_study", "law"),
        ("Maya works for Monzo now.", "employer", "monzo"),
        ("Maya joined the Guardian as a reporter.", "employer", "guardian"),
        ("Maya is enrolled at Ohio State.", "school", "ohio state"),
        ("Maya is a teaching assistant at a primary school.", "job_title", "teaching assistant"),
    ],
)
def test_the_same_constructions_with_a_value_still_read(text: str, slot: str, value: str) -> None:
    claim = extract_claim(text, speaker="Maya")
    assert claim is not None and (claim.slot, claim.value) == (slot, value)


def test_an_effort_said_with_now_replaces_no_state() -> None:
    assert not replaces_own_state("Now the user is trying to get back into their writing routine.")
    assert not replaces_own_state("Maya is wondering how to pace the essay now.")
    # a state said with "now" still is one
    assert replaces_own_state("Jamal is the sous chef now.")
    assert replaces_own_state("Maya lives in Leeds now.")


def test_a_thing_named_only_by_the_new_text_is_another_deadline() -> None:
    abstract = _held(
        "m1",
        "Maya said: The conference abstract is due on March 1.",
        Claim("maya", "deadline:conferenc", "march 1"),
    )
    said = "Maya said: The full paper for the conference is due on June 30."
    paper = extract_claim(said, speaker="Maya")
    assert paper is not None and paper.slot == "deadline:paper"  # "full" names no thing
    assert claim_conflict(paper, [abstract], 0.5, content=said) is None
    # the abstract's own deadline moved meets it under another wording
    said = "Maya said: The organisers extended the abstract deadline to March 15."
    moved = extract_claim(said, speaker="Maya")
    assert moved is not None
    verdict = claim_conflict(moved, [abstract], 0.5, content=said)
    assert isinstance(verdict, ClaimConflict)


def test_a_count_said_with_now_retires_no_date_of_another_thing() -> None:
    deadline = Neighbour(
        "m1", "Lena's grant report is due on October 15.", "h1", 0.55, valid_from=T0,
        claim=Claim("lena", "deadline:grant", "october 15", confidence=0.8),
    )  # fmt: skip
    said = "Lena's survey has 140 responses now."
    survey = ExtractedFact(content=said, category="fact", confidence=0.9)
    count = Claim("lena", "quantity:respons", "140", confidence=0.6)
    assert not retires(survey, count, deadline, 0.5)
    # nor a state with no claim said in the same breath ("studying the methods chapter")
    studying = Neighbour("m3", "Lena has been studying the methods chapter all week.", "h3", 0.5)
    assert not retires(survey, count, studying, 0.5)
    # a state said as changed still retires the state it replaces
    cook = Neighbour(
        "m2", "Jamal works as a line cook.", "h2", 0.55, valid_from=T0,
        claim=Claim("jamal", "job_title", "line cook", confidence=0.8),
    )  # fmt: skip
    chef = ExtractedFact(content="Jamal is the sous chef now.", category="fact", confidence=0.9)
    assert retires(chef, None, cook, 0.5)


def test_a_plan_and_its_date_are_one_fact_said_again() -> None:
    plan = Neighbour(
        "m1", "Felix would like to finish the kitchen renovation by March.", "h1", 0.62,
        valid_from=T0, claim=Claim("felix", "goal:general", "kitchen renovation", confidence=0.47),
    )  # fmt: skip
    said = "Felix and others have moved the kitchen renovation to the summer."
    moved = ExtractedFact(content=said, category="fact", confidence=0.9)
    assert retires(moved, Claim("felix", "deadline:kitchen", "summer", confidence=0.8), plan, 0.5)
