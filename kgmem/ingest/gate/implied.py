"""What a new value ends in another slot of the same person.

``ends_across(claim, held, held_content)`` says whether a candidate's claim ends a held claim of
another slot family, which the claim rule (``claim_rule``) then treats as a transition:

- a relationship status with no partner ("single for the first time in six years") ends the
  partner held, and a partner ("dating a guy called Sam") ends such a status;
- a partner gone ("Tom and I split up") ends a status that has one ("married to Tom");
- a new employer ("started at Mercy General") ends a job title said with another work place ("a
  nurse at St. Luke's Hospital");
- a favourite or a preference of a meat dish ("my new favourite dinner is chicken tikka") ends a
  vegetarian or vegan diet.

Pure.
"""

from __future__ import annotations

import re

from kgmem.core.synthesis import tokens
from kgmem.ingest.claims.lexicon import MEAT_WORDS
from kgmem.ingest.claims.sameness import overlaps
from kgmem.records import Claim
from kgmem.taxonomy.slots import UNPARTNERED_STATUSES, Polarity, Slot, family


def ends_across(claim: Claim, held: Claim, held_content: str) -> bool:
    return (
        _ends_partner(claim, held)
        or _partnered_again(claim, held)
        or _split_up(claim, held)
        or _works_elsewhere(claim, held, held_content)
        or _eats_meat(claim, held)
    )


def _ends_partner(claim: Claim, held: Claim) -> bool:
    """A status with no partner ("single for the first time in six years") ends the partner
    held ("dating Ben since college")."""
    return (
        family(claim.slot) == Slot.RELATIONSHIP_STATUS.value
        and claim.polarity == Polarity.HOLDS
        and claim.value in UNPARTNERED_STATUSES
        and family(held.slot) == Slot.PARTNER.value
        and held.polarity == Polarity.HOLDS
    )


def _partnered_again(claim: Claim, held: Claim) -> bool:
    """A partner ("dating a guy called Sam") ends a status with no partner ("not seeing
    anyone", "single")."""
    return (
        family(claim.slot) == Slot.PARTNER.value
        and claim.polarity == Polarity.HOLDS
        and family(held.slot) == Slot.RELATIONSHIP_STATUS.value
        and held.polarity == Polarity.HOLDS
        and held.value in UNPARTNERED_STATUSES
    )


# a work place named after a job title: "a nurse at St. Luke's Hospital", "an analyst for Aviva"
# a work place named after "at" or "for", or after its kind: "a barista at a small cafe called
# Bean There"
_AT_PLACE_RE = re.compile(
    r"\b(?:at|for) (?:(?:the |a |an )?(?:[\w'’-]+ ){1,3}?(?:called|named) )?(?:the )?"
    r"((?:St\. )?[A-Z][\w'’&-]*(?: [A-Z][\w'’&-]*)*)"
)


def _split_up(claim: Claim, held: Claim) -> bool:
    """A partner gone ("Tom and I split up") ends a status that has one ("married to Tom",
    "engaged")."""
    return (
        family(claim.slot) == Slot.PARTNER.value
        and claim.polarity == Polarity.ENDED
        and family(held.slot) == Slot.RELATIONSHIP_STATUS.value
        and held.polarity == Polarity.HOLDS
        and held.value not in UNPARTNERED_STATUSES
    )


def _works_elsewhere(claim: Claim, held: Claim, content: str) -> bool:
    """A new employer ("started at Mercy General") changes a job title said with another work
    place ("a nurse at St. Luke's Hospital"): the memory as a whole no longer holds."""
    if not (
        family(claim.slot) == Slot.EMPLOYER.value
        and claim.polarity == Polarity.HOLDS
        and claim.value
        and family(held.slot) == Slot.JOB_TITLE.value
        and held.polarity == Polarity.HOLDS
    ):
        return False
    places = [m.group(1) for m in _AT_PLACE_RE.finditer(content)]
    return bool(places) and not any(overlaps(claim.value, p) for p in places)


_MEAT = frozenset(MEAT_WORDS)
_NO_MEAT_DIETS = frozenset({"vegetarian", "vegan"})


def _eats_meat(claim: Claim, held: Claim) -> bool:
    """A favourite or a preference of a meat dish ("chicken tikka") ends a diet without meat."""
    return (
        family(claim.slot) in (Slot.FAVOURITE.value, Slot.PREFERENCE.value)
        and claim.polarity == Polarity.HOLDS
        and bool(_MEAT & {t.lower() for t in tokens(claim.value)})
        and family(held.slot) == Slot.DIET.value
        and held.polarity == Polarity.HOLDS
        and held.value in _NO_MEAT_DIETS
    )
