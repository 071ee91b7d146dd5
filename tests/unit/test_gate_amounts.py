"""An amount of one measure said again with a new value is a change when the two facts are alike
in meaning, even where their words differ or the claim lexicon read them as two slots; amounts of
different measures, and facts that are not alike, change nothing. A change that names the stored
state it leaves ("transferred from payments to ...") retires that state rather than merging."""

from __future__ import annotations

from dataclasses import replace
from datetime import UTC, datetime

import pytest
from hypothesis import given
from hypothesis import strategies as st

from kgmem.core.text import content_hash
from kgmem.ingest.gate.contradiction import ContradictionKind, detect_contradiction, leaves_stated
from kgmem.ingest.gate.figures import amounts
from kgmem.ingest.gate.records import GateAction, Neighbour
from kgmem.ingest.gate.write_gate import decide
from kgmem.records import Claim, ExtractedFact
from kgmem.taxonomy import ConflictStrategy

NOW = datetime(2024, 6, 1, tzinfo=UTC)
BEFORE = datetime(2024, 4, 1, tzinfo=UTC)


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("Dana's rent is 1,800 dollars a month.", {"1800": "money"}),
        ("cutting the grocery budget to $150 a month", {"150": "money"}),
        ("Dana makes 65k a year", {"65k": "thousands"}),
        ("the standup is at 9:30 every morning", {"9:30": "clock"}),
        ("goes to bed around 1am", {"1:00am": "clock"}),
        ("goes to bed at 10:30 pm", {"10:30pm": "clock"}),
        ("weighs 92 kilos", {"92": "kilo"}),
        ("moved to Lisbon on 3 March 2024", {}),  # a date measures nothing
        ("Dana has 2 of them", {}),  # a number before a stop word counts nothing named
    ],
)
def test_amounts_know_what_they_measure(text: str, expected: dict[str, str]) -> None:
    assert amounts(text) == expected


@pytest.mark.parametrize(
    ("old", "new", "evidence"),
    [
        (
            "Dana's salary is 65k at the moment.",
            "After the review, Dana's salary went up to 78k, which covers the new flat.",
            ("65k", "78k"),
        ),
        (
            "Dana usually goes to bed around 1am.",
            "Dana has been going to bed at 10:30 every night for a month.",
            ("1:00am", "10:30"),
        ),
        (
            "Dana's team standup is at 9:30 every morning.",
            "Heads up, the standup moved to 10:15 from this week on.",
            ("9:30", "10:15"),
        ),
    ],
)
def test_alike_facts_with_a_changed_amount_contradict(
    old: str, new: str, evidence: tuple[str, str]
) -> None:
    assert detect_contradiction(new, old) is None  # the words alone share too little
    check = detect_contradiction(new, old, alike=True)
    assert check is not None
    assert check.kind == ContradictionKind.NUMBER_CHANGE and check.evidence == evidence


@pytest.mark.parametrize(
    ("old", "new"),
    [
        # two measures: money beside a clock time, a count of kilos beside a count of kids
        ("Dana's rent is $1,800 a month.", "Dana's meeting with the landlord is at 3pm."),
        ("Dana weighs 92 kilos.", "Dana has 3 kids."),
        # money for two things: what the words around each amount say differs
        (
            "Dana's cost of living in Toronto is around $1,200 per month excluding rent.",
            "Dana has already allocated $1,500 for relocation expenses.",
        ),
        # how often two amounts come is not what they are of;
        ("Dana has set aside $200 a month for groceries.", "Dana pays $60 a month for the gym."),
        # the old amount is kept: an addition, not a change
        ("Dana pays $1,800 in rent.", "Dana pays $1,800 in rent and $60 for parking."),
    ],
)
def test_other_measures_or_kept_amounts_are_no_change(old: str, new: str) -> None:
    assert detect_contradiction(new, old, alike=True) is None


@given(st.integers(1, 99_999), st.integers(1, 99_999))
def test_a_money_amount_changes_exactly_when_its_value_does(a: int, b: int) -> None:
    old, new = f"Dana's rent is ${a:,} a month.", f"Dana's rent went up to ${b:,} a month."
    check = detect_contradiction(new, old, alike=True)
    assert (check is not None) == (a != b)


def _gate(old: str, new: str, sim: float, old_claim: Claim, new_claim: Claim) -> GateAction:
    held = Neighbour(
        "m1",
        old,
        content_hash(old),
        sim,
        valid_from=BEFORE,
        entities=("dana",),
        claim=old_claim,
        subject_similarity=0.3,
    )
    fact = ExtractedFact(new, "fact", 0.8, valid_from=NOW, source_turn_ids=("t2",))
    decision = decide(
        fact,
        content_hash(new),
        frozenset({"dana"}),
        [held],
        ConflictStrategy.TEMPORAL,
        NOW,
        claim=new_claim,
        subject_similarity=0.3,
    )
    return decision.action


RENT = "Dana's rent is 1,800 dollars a month."
RAISED = "The landlord raised Dana's rent to 2,050 dollars starting next month."


def test_a_misread_slot_does_not_hide_a_changed_amount() -> None:
    # the lexicon read the raise as a count of dollars and the rent as a budget: two slots
    held = Claim("dana", "budget:rent", "1,800 dollars", confidence=0.75)
    new = Claim("dana", "quantity:dollar", "2,050", confidence=0.6)
    assert _gate(RENT, RAISED, 0.77, held, new) == GateAction.SUPERSEDE


def test_two_slots_far_apart_in_meaning_stay_two_facts() -> None:
    held = Claim("dana", "budget:rent", "1,800 dollars", confidence=0.75)
    new = Claim("dana", "quantity:dollar", "2,050", confidence=0.6)
    # in the contradiction window (0.56 without the name), not alike enough to overrule the claims
    assert _gate(RENT, RAISED, 0.6, held, new) == GateAction.CREATE


@pytest.mark.parametrize(
    ("new", "old", "left"),
    [
        (
            "Dana transferred from payments to the search team.",
            "Dana works on the payments team.",
            True,
        ),
        (
            "Dana is migrating the backend from Django to FastAPI.",
            "Dana's backend is in Django.",
            True,
        ),
        ("Dana switched from Word to Scrivener.", "Dana is struggling with the essay.", False),
        ("Dana moved to the search team.", "Dana works on the payments team.", False),  # no "from"
    ],
)
def test_a_change_names_the_state_it_leaves(new: str, old: str, left: bool) -> None:
    assert leaves_stated(new, old) is left


def test_a_change_that_names_what_it_leaves_is_not_merged_into_it() -> None:
    old = "Dana works on the payments team at Shopify."
    new = "Dana transferred from payments to the search team at Shopify."
    employer = Claim("dana", "employer", "shopify", confidence=0.8)
    # near-duplicate range (cosine 0.85-0.95): without the leaving it was a write-time synthesis
    assert (
        _gate(old, new, 0.86, employer, replace(employer, confidence=0.6)) == GateAction.SUPERSEDE
    )


def test_an_amount_for_a_named_thing_does_not_restate_the_one_budget_kept() -> None:
    # "set aside $200 a month for groceries" reads as a budget naming no thing; the one budget
    # kept is the rent: the words say what the $200 is for, and it is not the rent
    rent = "Dana's rent is 1,800 dollars a month."
    groceries = "Dana has set aside $200 a month for groceries."
    held = Claim("dana", "budget:rent", "1,800 dollars", confidence=0.75)
    new = Claim("dana", "budget:general", "$200", confidence=0.8)
    assert _gate(rent, groceries, 0.70, held, new) == GateAction.CREATE
    # a raise that names nothing still moves the one budget kept
    raised = "Dana bumped it up to $1,900 a month."
    assert _gate(rent, raised, 0.70, held, replace(new, value="$1,900")) == GateAction.SUPERSEDE
