"""A new value that ends a value of another slot (gate/implied), and a pastime that took the
place of the others, through the claim rule."""

from __future__ import annotations

import pytest

from kgmem.ingest.claims.engine import extract_claim
from kgmem.ingest.gate.claim_rule import ClaimConflict, claim_conflict
from kgmem.ingest.gate.records import Neighbour
from kgmem.ingest.gate.replacement import says_replacement
from kgmem.records import Claim
from kgmem.taxonomy.slots import holder_families


def _read(text: str) -> Claim:
    claim = extract_claim(text, speaker="Lucía")
    assert claim is not None, text
    return claim


def _holder(text: str) -> Neighbour:
    return Neighbour("old", text, "", 0.3, claim=_read(text))


@pytest.mark.parametrize(
    "new",
    [
        "Lucía's new favourite dinner is chicken tikka, Lucía makes it twice a week.",
        "Lucía's go-to lunch is a bacon sandwich.",
    ],
)
def test_a_favourite_meat_dish_ends_a_diet_without_meat(new: str) -> None:
    found = claim_conflict(_read(new), [_holder("Lucía is a vegetarian.")], 0.5)
    assert isinstance(found, ClaimConflict) and found.holder.memory_id == "old"
    assert "diet" in holder_families(_read(new).slot)  # the graph fetches the diet held


@pytest.mark.parametrize(
    ("new", "held"),
    [
        ("Lucía's new favourite dinner is mushroom risotto.", "Lucía is a vegetarian."),
        ("Lucía's favourite dinner is chicken tikka.", "Lucía is gluten-free."),
        ("Lucía's favourite colour is salmon pink.", "Lucía is vegan."),
    ],
)
def test_other_favourites_leave_the_diet(new: str, held: str) -> None:
    assert claim_conflict(_read(new), [_holder(held)], 0.5) is None


def test_a_pastime_that_took_over_replaces_the_newest_one_held() -> None:
    new = "Pottery has taken over from all Lucía's old crafts, can you find a class?"
    claim = _read(new)
    assert (claim.slot, claim.value) == ("hobby", "pottery")
    found = claim_conflict(
        claim,
        [_holder("Lucía is really into knitting.")],
        0.5,
        replacing=says_replacement(new),
        content=new,
    )
    assert isinstance(found, ClaimConflict) and found.holder.memory_id == "old"
    # said as an addition it is one more pastime
    also = "Lucía also took up pottery."
    assert (
        claim_conflict(_read(also), [_holder("Lucía is really into knitting.")], 0.5, content=also)
        is None
    )
