"""The closed vocabulary of claim slots: the attributes a memory can assert about a subject.

A claim is (subject, slot, qualifier, value, polarity). The **slot** comes from :class:`Slot`;
some slots are families keyed by a **qualifier** (``favourite`` of *colour*, ``possession`` of
*car*, ``preference`` for *milk*, ``quantity`` of *sources*), and the pair is the claim's key,
written ``slot`` or ``slot:qualifier``. Each slot says whether it is single-valued (a new value
replaces the current one: one residence, one employer) or multi-valued (an addition is not a
conflict, only a removal is: pets, languages, hobbies). Extending the vocabulary is adding a
member here and its spec below; nothing else keys on the list. Pure data, no I/O.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum


class Slot(StrEnum):
    RESIDENCE = "residence"
    EMPLOYER = "employer"
    JOB_TITLE = "job_title"
    SCHOOL = "school"
    FIELD_OF_STUDY = "field_of_study"
    RELATIONSHIP_STATUS = "relationship_status"
    PARTNER = "partner"
    PET = "pet"
    DIET = "diet"
    FAVOURITE = "favourite"  # qualified: favourite colour, favourite band, ...
    PREFERENCE = "preference"  # qualified by the kind of thing: milk, editor, airline, ...
    POSSESSION = "possession"  # qualified by kind: car, phone, laptop, ...
    HABIT = "habit"
    HEALTH = "health"
    ALLERGY = "allergy"
    NAME = "name"
    NICKNAME = "nickname"
    BIRTHDAY = "birthday"
    AGE = "age"
    LANGUAGE = "language"
    HOBBY = "hobby"
    GOAL = "goal"
    DEADLINE = "deadline"  # qualified by what is due
    BUDGET = "budget"  # qualified by what it is for
    QUANTITY = "quantity"  # qualified by the counted or measured thing (sources, ms, pages)


# The value of an ended claim that says no value is held now ("doesn't own a car", "has no
# pets"), as opposed to one value that ended ("sold the Civic").
NONE = "none"


class Polarity(StrEnum):
    HOLDS = "holds"
    ENDED = "ended"  # "no longer holds": quit, sold, left, broke up, passed away, ...


@dataclass(frozen=True)
class SlotSpec:
    multi_valued: bool
    qualified: bool = False  # the claim key carries a qualifier ("possession:car")


SLOT_SPECS: dict[Slot, SlotSpec] = {
    Slot.RESIDENCE: SlotSpec(multi_valued=False),
    Slot.EMPLOYER: SlotSpec(multi_valued=False),
    Slot.JOB_TITLE: SlotSpec(multi_valued=False),
    Slot.SCHOOL: SlotSpec(multi_valued=False),
    Slot.FIELD_OF_STUDY: SlotSpec(multi_valued=False),
    Slot.RELATIONSHIP_STATUS: SlotSpec(multi_valued=False),
    Slot.PARTNER: SlotSpec(multi_valued=False),
    Slot.PET: SlotSpec(multi_valued=True),
    Slot.DIET: SlotSpec(multi_valued=False),
    Slot.FAVOURITE: SlotSpec(multi_valued=False, qualified=True),
    Slot.PREFERENCE: SlotSpec(multi_valued=False, qualified=True),
    # one car, one phone: "my new phone" replaces the old one; "another car" is an addition
    Slot.POSSESSION: SlotSpec(multi_valued=False, qualified=True),
    Slot.HABIT: SlotSpec(multi_valued=True),
    Slot.HEALTH: SlotSpec(multi_valued=True),
    Slot.ALLERGY: SlotSpec(multi_valued=True),
    Slot.NAME: SlotSpec(multi_valued=False),
    Slot.NICKNAME: SlotSpec(multi_valued=False),
    Slot.BIRTHDAY: SlotSpec(multi_valued=False),
    Slot.AGE: SlotSpec(multi_valued=False),
    Slot.LANGUAGE: SlotSpec(multi_valued=True),
    Slot.HOBBY: SlotSpec(multi_valued=True),
    Slot.GOAL: SlotSpec(multi_valued=False, qualified=True),
    Slot.DEADLINE: SlotSpec(multi_valued=False, qualified=True),
    Slot.BUDGET: SlotSpec(multi_valued=False, qualified=True),
    Slot.QUANTITY: SlotSpec(multi_valued=False, qualified=True),
}


def slot_key(slot: Slot, qualifier: str = "") -> str:
    """The stored key of a claim: ``slot`` or ``slot:qualifier`` for a qualified slot."""
    return f"{slot.value}:{qualifier}" if SLOT_SPECS[slot].qualified and qualifier else slot.value


def parse_slot_key(key: str) -> tuple[Slot, str] | None:
    """``slot_key``'s inverse, or None for a key outside the vocabulary (stored as no claim)."""
    name, _, qualifier = key.partition(":")
    try:
        slot = Slot(name)
    except ValueError:
        return None
    return slot, qualifier


def is_multi_valued(slot: Slot) -> bool:
    return SLOT_SPECS[slot].multi_valued


# A question about one slot that another slot's value also answers: "What does Maya do for a
# living?" is answered by "Maya works at St. Mary's Hospital" as well as by "Maya is a nurse";
# "Is Ana seeing anyone?" by her partner as well as her status.
_ANSWERED_ALSO_BY: dict[Slot, tuple[Slot, ...]] = {
    Slot.JOB_TITLE: (Slot.EMPLOYER,),
    Slot.EMPLOYER: (Slot.JOB_TITLE,),  # "Maya is a nurse at St. Mary's" says where she works
    Slot.RELATIONSHIP_STATUS: (Slot.PARTNER,),
    Slot.PARTNER: (Slot.RELATIONSHIP_STATUS,),
    Slot.PET: (Slot.POSSESSION,),
}


def answering_families(slot: Slot) -> tuple[str, ...]:
    """The slot families whose values answer a question about ``slot``, itself first."""
    return (slot.value, *(s.value for s in _ANSWERED_ALSO_BY.get(slot, ())))


def related_families(a: str, b: str) -> bool:
    """Two slot families that speak of one attribute: the same, or one answering the other
    ("engaged to Marco" read as a partner, "got married" as a status)."""
    if a == b:
        return True
    by_value = {s.value: s for s in Slot}
    sa, sb = by_value.get(a), by_value.get(b)
    if sa is None or sb is None:
        return False
    return b in answering_families(sa) or a in answering_families(sb)


# A relationship status that says no partner is held any more: "I'm single" ends "dating Ben".
UNPARTNERED_STATUSES: frozenset[str] = frozenset({"single", "divorced", "separated", "widowed"})


def holder_families(slot_key_: str) -> tuple[str, ...]:
    """The slot families whose holders a claim on ``slot_key_`` can change: its own, and between
    a relationship status and a partner the other (a status with no partner ends the partner
    held; a partner ends such a status), and for an employer the job titles (said with a work
    place), and for a favourite or a preference the diet (a meat dish ends a vegetarian one)."""
    fam = slot_key_.partition(":")[0]
    if fam == Slot.RELATIONSHIP_STATUS.value:
        return (fam, Slot.PARTNER.value)
    if fam == Slot.PARTNER.value:  # a partner ends "single" ("not seeing anyone")
        return (fam, Slot.RELATIONSHIP_STATUS.value)
    if fam == Slot.EMPLOYER.value:  # a new employer ends "a nurse at St. Luke's"
        return (fam, Slot.JOB_TITLE.value)
    if fam in (Slot.FAVOURITE.value, Slot.PREFERENCE.value):  # a meat dish ends "vegetarian"
        return (fam, Slot.DIET.value)
    return (fam,)


def family(slot_key_: str) -> str:
    """The slot family of a stored key: "favourite" of "favourite:colour"."""
    return slot_key_.partition(":")[0]


# Slots whose value is itself a date: a date said in such a claim is the value, not the day the
# fact began to hold ("it's March 14th, not the 4th" corrects a birthday today).
DATE_VALUED: frozenset[str] = frozenset({Slot.BIRTHDAY.value, Slot.DEADLINE.value})
