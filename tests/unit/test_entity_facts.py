"""An entity's facts from claim rows, the pure part: current vs history per slot, slot filters."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from kgmem.errors import InvalidInput
from kgmem.facts import check_slot, entity_facts


def _row(mid: str, slot: str, value: str, status: str = "active", **more: object) -> dict:
    return {
        "id": mid, "content": f"{value}.", "status": status, "claim_slot": slot,
        "claim_value": value, "claim_polarity": "holds", "claim_confidence": 0.6,
        "valid_from": datetime(2024, 4, 14, tzinfo=UTC), "superseded_by": [], **more,
    }  # fmt: skip


def test_current_values_are_the_live_ones_and_history_the_superseded() -> None:
    rows = [
        _row("m3", "preference:milk", "almond milk"),
        _row("m2", "pet", "biscuit"),
        _row("m1", "preference:milk", "oat milk", "superseded", superseded_by=["m3"]),
        _row("m0", "habit", "smoking", "active", claim_polarity="ended"),
        {"id": "m9", "content": "no claim", "status": "active"},
    ]
    facts = entity_facts("maya", {"id": "e1", "name": "Maya"}, rows)
    assert (facts.entity_id, facts.name) == ("e1", "Maya")
    assert [s.slot for s in facts.slots] == ["habit", "pet", "preference:milk"]
    habit, pet, milk = facts.slots
    assert [v.value for v in milk.current] == ["almond milk"]
    assert [(v.value, v.superseded_by) for v in milk.history] == [("oat milk", ("m3",))]
    assert not milk.multi_valued and pet.multi_valued
    assert habit.current[0].polarity == "ended"


def test_a_subject_without_an_entity_node_still_has_facts() -> None:
    facts = entity_facts("user", None, [_row("m1", "residence", "austin")])
    assert facts.entity_id is None and facts.slots[0].current[0].value == "austin"


def test_slot_filters_are_checked_against_the_vocabulary() -> None:
    assert check_slot(None) is None
    assert check_slot(" Preference:milk ") == "preference:milk"
    assert check_slot("residence") == "residence"
    for bad in ("", "colour", "milk:preference"):
        with pytest.raises(InvalidInput):
            check_slot(bad)


def test_a_claim_below_the_gates_confidence_is_no_attribute() -> None:
    rows = [_row("m2", "field_of_study", "st. mary hospital", claim_confidence=0.36)]
    rows.append(_row("m1", "pet", "biscuit"))
    facts = entity_facts("maya", None, rows, min_confidence=0.5)
    assert [s.slot for s in facts.slots] == ["pet"]
    assert [s.slot for s in entity_facts("maya", None, rows).slots] == ["field_of_study", "pet"]
