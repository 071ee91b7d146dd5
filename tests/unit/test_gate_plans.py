"""A plan given up closes the plan memory that names its doing, and nothing else (gate/plans)."""

from __future__ import annotations

import pytest

from kgmem.ingest.claims.engine import extract_claim
from kgmem.ingest.gate.claim_rule import ClaimConflict, ClaimSkip, claim_conflict
from kgmem.ingest.gate.records import Neighbour
from kgmem.records import Claim


def _plan(content: str, similarity: float, claim: Claim | None = None) -> Neighbour:
    return Neighbour("old", content, "", similarity, claim=claim)


def _given_up(text: str) -> Claim:
    claim = extract_claim(text, speaker="Felix")
    assert claim is not None and claim.slot == "goal:general" and claim.polarity == "ended"
    return claim


@pytest.mark.parametrize(
    ("new", "old"),
    [
        (
            "Felix has decided not to apply for the PhD after all.",
            "Felix is planning to apply for a PhD this autumn.",
        ),
        ("Felix is no longer planning to move abroad.", "Felix hopes to move abroad next year."),
        ("Felix scrapped their plan to sell the flat.", "Felix is going to sell the flat in May."),
    ],
)
def test_a_plan_given_up_closes_the_plan_it_names(new: str, old: str) -> None:
    found = claim_conflict(_given_up(new), [_plan(old, 0.7)], 0.5)
    assert isinstance(found, ClaimConflict) and found.holder.memory_id == "old"


@pytest.mark.parametrize(
    ("new", "old", "similarity"),
    [
        # another plan of the same person
        (
            "Felix decided not to go to the party.",
            "Felix is planning to go to the gym every morning.",
            0.7,
        ),
        # a statement, not a plan
        (
            "Felix has decided not to apply for the PhD after all.",
            "Felix finished a PhD application workshop.",
            0.7,
        ),
        # too far apart to be one plan
        (
            "Felix has decided not to apply for the PhD after all.",
            "Felix is planning to apply for a PhD this autumn.",
            0.4,
        ),
        # someone else's plan
        (
            "Felix has decided not to apply for the PhD after all.",
            "Ana is planning to apply for a PhD this autumn.",
            0.7,
        ),
    ],
)
def test_a_plan_given_up_leaves_other_memories(new: str, old: str, similarity: float) -> None:
    assert claim_conflict(_given_up(new), [_plan(old, similarity)], 0.5) is None


def test_a_plan_given_up_closes_no_other_kind_of_fact_that_mentions_it() -> None:
    lives = Claim(
        subject="felix", slot="residence", value="denver", polarity="holds", confidence=0.8
    )
    found = claim_conflict(
        _given_up("Felix is no longer planning to move to Denver."),
        [_plan("Felix lives in Denver.", 0.7, lives)],
        0.5,
    )
    assert found is None


def test_a_plan_given_up_below_the_threshold_says_why_it_did_not_act() -> None:
    found = claim_conflict(
        _given_up("Felix has decided not to apply for the PhD after all."),
        [_plan("Felix is planning to apply for a PhD this autumn.", 0.7)],
        0.9,
    )
    assert isinstance(found, ClaimSkip) and "0.80 < 0.90" in found.reason


def test_a_thing_given_up_closes_the_plan_to_do_it() -> None:
    cello = extract_claim(
        "Felix has given up on the cello, the neighbours complained.", speaker="Felix"
    )
    assert cello is not None and (cello.slot, cello.polarity) == ("hobby", "ended")
    plan = _plan("Felix is planning to learn the cello this winter.", 0.7)
    found = claim_conflict(cello, [plan], 0.5)
    assert isinstance(found, ClaimConflict) and found.holder.memory_id == "old"
    # an ending of another kind (a partner gone) closes no plan that names the person
    gone = Claim(subject="felix", slot="partner", value="tom", polarity="ended", confidence=0.8)
    assert claim_conflict(gone, [_plan("Felix is planning a trip with Tom.", 0.7)], 0.5) is None
