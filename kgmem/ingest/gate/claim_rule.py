"""The write gate's claim rule: does a candidate's claim change what a stored memory asserts?

``claim_conflict(claim, holders, min_confidence)`` looks at the live memories that assert the
same subject's slot family (found by the graph's claim index and among the batch's earlier facts,
not by cosine) and returns the one the candidate changes, with a ``ContradictionCheck`` saying
how — or a ``ClaimSkip`` saying why it did not act, or None when nothing conflicts:

- a new value on a **single-valued** slot (residence, employer, favourite colour, the milk one
  prefers) changes the current one, whatever the wording and whatever the cosine;
- on a **multi-valued** slot (pets, languages, hobbies) an addition is not a conflict; a new
  value said as a replacement (``replacing``: "now", "these days", "instead", "switched", a
  correction, and no "also"/"another") changes the one it names, else the newest;
- a **transition** (polarity ``ended``: quit, sold, left, passed away, no longer) closes the
  holder of the same value, or of a value it shares a word with ("dropped out of the MBA"
  closes "a part-time MBA"), or of any slot whose text mentions the value it names ("Biscuit
  passed away" closes "has a golden retriever named Biscuit"); without a value, or with only the
  kind's own word ("sold my car", "quit my job"), any value of the same slot ("broke up");
- a relationship status with no partner ("single", "divorced") ends the partner held, and a
  partner ends such a status; a new employer ends a job title said with another work place;
- a value ends a memory that says none is held now ("doesn't own a car", "has no pets");
- a job title that adds a word to the one held, said as a change ("got promoted to charge
  nurse" after "nurse"), is a new title, not a refinement;
- an amount or deadline meets the one a holder keeps when they name one thing in two wordings
  ("p95 down to 120 ms" / "the API's p95 latency is 180 ms": a qualifier is a word beside the
  other's amount, and the units agree), and a deadline that names no thing meets the person's
  only one, or of several the one its text restates (``measures.py``); deadlines or budgets
  "for" two different things, and bare percentages, never meet;
- the same value again (a repetition, or a refinement "Paris" → "Paris, France") is no change,
  except that a value that had ended and holds again ("vegan again") is one;
- a plan given up ("decided not to apply for the PhD after all") closes the plan memory that
  names its doing, stored with or without a claim, and no other kind of fact (``plans.py``);
- a claim below ``min_confidence`` never retires anything; a stored memory only guessed (below
  it) to hold a slot is retired through that slot by a value read from a wording
  (``READ_CONFIDENCE``), not by another guess, and never when it reports a past happening.

Which side wins (newer fact, keep existing, merge, ask) is the gate's conflict strategy, applied
by ``write_gate.decide``. Pure and deterministic: holders are visited newest first, ties by id.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import UTC, datetime

from kgmem.core.tunables import READ_CONFIDENCE
from kgmem.ingest.claims.lexicon import KIND_WORDS
from kgmem.ingest.claims.sameness import overlaps, same_value
from kgmem.ingest.gate.contradiction import ContradictionCheck, ContradictionKind
from kgmem.ingest.gate.implied import ends_across
from kgmem.ingest.gate.measures import (
    as_held_measure,
    counts_a_thing,
    for_other_things,
    restated_holders,
)
from kgmem.ingest.gate.plans import closes_by_name, gives_up
from kgmem.ingest.gate.records import Neighbour
from kgmem.records import Claim
from kgmem.taxonomy.slots import (
    NONE,
    Polarity,
    Slot,
    family,
    is_multi_valued,
    parse_slot_key,
)

_EPOCH = datetime(1970, 1, 1, tzinfo=UTC)


@dataclass(frozen=True)
class ClaimConflict:
    holder: Neighbour
    check: ContradictionCheck


@dataclass(frozen=True)
class ClaimSkip:
    """The candidate's claim would have changed ``holder_id`` but the write path did not act."""

    holder_id: str
    reason: str


def claim_conflict(
    claim: Claim | None,
    holders: Sequence[Neighbour],
    min_confidence: float,
    *,
    replacing: bool = False,
    content: str = "",
    own: float | None = None,
) -> ClaimConflict | ClaimSkip | None:
    if claim is None:
        return None
    parsed = parse_slot_key(claim.slot)
    if parsed is None:
        return None
    slot, _ = parsed
    ended = claim.polarity == Polarity.ENDED
    if not counts_a_thing(claim):
        return None
    claim = as_held_measure(claim, content, holders)
    order = sorted(restated_holders(claim, holders), key=_newest_first)
    if replacing and is_multi_valued(slot):
        # a replacement on a slot of several values takes the place of the one it names ("swapped
        # climbing for bouldering", "actually dust mites, not cats"), else of the newest
        order.sort(key=lambda h: h.claim is None or not overlaps(h.claim.value, content))
    for h in order:
        hc = h.claim
        if hc is None and gives_up(claim, h, own):
            # "decided not to apply for the PhD after all" closes "planning to apply for a PhD"
            gave_up = ContradictionCheck(
                ContradictionKind.TRANSITION, ("plan", "ended"), _cue(claim)
            )
            return _acted(claim, h, gave_up, min_confidence)
        if hc is None or hc.subject != claim.subject:
            continue
        # An ending that names its thing closes the memory that mentions it, whatever slot that
        # memory was read as: "Biscuit passed away" ends "has a golden retriever named Biscuit",
        # "sold Duchess" ends "keeps a horse called Duchess" (read as a pet, sold as a thing).
        named = (
            ended
            and _names(claim)
            and overlaps(claim.value, h.content)
            and closes_by_name(claim, family(hc.slot))
        )
        if not named and hc.confidence < min_confidence and _REPORTS_PAST_RE.match(h.content):
            # a one-off happening only guessed to hold a slot ("Ibrahim watched a documentary
            # about bees the other night" as a diet) is no value a new one replaces
            continue
        unpartnered = ends_across(claim, hc, h.content)
        if family(hc.slot) != family(claim.slot) and not named and not unpartnered:
            continue
        if not ended and for_other_things(claim, content, h.content):
            continue  # "the deadline for the conference abstract" / "... for the paper"
        if not ended and hc.confidence < min_confidence and claim.confidence < READ_CONFIDENCE:
            # two guesses of one slot ("Melanie can feel the serenity" / "Melanie is an
            # inspiration", both read as a partner) are no value replaced: a memory only
            # guessed to hold a slot yields to a value the lexicon read, not to another guess
            continue
        check = (
            ContradictionCheck(ContradictionKind.TRANSITION, (hc.value, claim.value), _cue(claim))
            if unpartnered
            else _change(
                claim,
                hc,
                ended,
                is_multi_valued(slot) and not replacing,
                named,
                none_held=_none_held(hc),
            )
        )
        if check is None and _promoted(claim, hc, content, replacing):
            check = ContradictionCheck(
                ContradictionKind.VALUE_CHANGE, (hc.value, claim.value), _cue(claim)
            )
        if check is None:
            continue
        return _acted(claim, h, check, min_confidence)
    return None


def _acted(
    claim: Claim, holder: Neighbour, check: ContradictionCheck, min_confidence: float
) -> ClaimConflict | ClaimSkip:
    if claim.confidence < min_confidence:
        why = f"claim confidence {claim.confidence:.2f} < {min_confidence:.2f}"
        return ClaimSkip(
            holder.memory_id, f"would change {holder.memory_id} ({check.describe()}), {why}"
        )
    return ClaimConflict(holder, check)


def _promoted(claim: Claim, held: Claim, content: str, replacing: bool) -> bool:
    """A title that adds a word to the one held, said as a change ("nurse", then "got promoted
    to charge nurse", "is a senior engineer now"), is a new title, not a refinement."""
    return (
        family(claim.slot) == Slot.JOB_TITLE.value == family(held.slot)
        and claim.polarity == held.polarity == Polarity.HOLDS
        and claim.value != held.value
        and same_value(claim.value, held.value)
        and (replacing or _PROMOTED_RE.search(content) is not None)
    )


_PROMOTED_RE = re.compile(r"\b(?:promot(?:ed|ion)|stepped up|moved up)\b", re.IGNORECASE)


def _none_held(held: Claim) -> bool:
    """The memory says the subject holds no value of the slot, now: "doesn't own a car", "has no
    pets" (not a past happening like "sold my car", which ended one value)."""
    return held.polarity == Polarity.ENDED and held.value == NONE


def _cue(claim: Claim) -> str:
    return f"claim {claim.slot}"


def _change(
    claim: Claim,
    held: Claim,
    ended: bool,
    multi: bool,
    mentioned: bool = False,
    *,
    none_held: bool = False,
) -> ContradictionCheck | None:
    cue = _cue(claim)
    if ended:
        if held.polarity == Polarity.ENDED:
            return None  # already closed: a repetition
        if mentioned:
            return ContradictionCheck(ContradictionKind.TRANSITION, (held.value, "ended"), cue)
        named = _names(claim)
        if named and held.value and not overlaps(claim.value, held.value):
            return None  # "left Google" says nothing of Stripe
        if not named and held.slot != claim.slot:
            return None
        return ContradictionCheck(ContradictionKind.TRANSITION, (held.value, "ended"), cue)
    if held.slot != claim.slot:
        return None
    if none_held:  # "bought a Corolla" after "doesn't own a car", a puppy after "no pets"
        return ContradictionCheck(ContradictionKind.TRANSITION, ("ended", claim.value), cue)
    if same_value(claim.value, held.value):
        if held.polarity == Polarity.ENDED:  # "vegan again" after "not vegan anymore"
            return ContradictionCheck(ContradictionKind.TRANSITION, ("ended", claim.value), cue)
        return None  # a repetition or a refinement
    if multi or held.polarity == Polarity.ENDED:
        return None  # an addition; or "quit Google" stays true beside "works at Stripe"
    return ContradictionCheck(ContradictionKind.VALUE_CHANGE, (held.value, claim.value), cue)


# A memory that reports a past happening: its subject (a name, "The user", "A parcel Pavel"),
# then a verb in the simple past within its first words; after "Pavel said:", the words said.
_REPORTS_PAST_RE = re.compile(
    r"^\W*(?:[^:]{1,60}\b(?:said|says|wrote)\s*:\s*)?(?:[\w'’-]+\s+){1,4}?(?:\w+ed|went|got|had|made|took|saw|ate|ran|bought|came|met"
    r"|found|was|were|did|felt|heard|spent|gave|left|won|lost|broke|caught|wrote|read|drove|sold"
    r"|quit)\b",
    re.IGNORECASE,
)
# What a transition calls the thing when it names no instance: "sold my car" ends whichever car
# was held ("an old Fiat Panda"), "quit my job" whichever employer.
_GENERIC_VALUES = (
    frozenset({"job", "work", "position", "role", "nickname", NONE}) | KIND_WORDS.keys()
)


def _names(claim: Claim) -> bool:
    return bool(claim.value) and not _generic(claim)


def _generic(claim: Claim) -> bool:
    # A possession read without a kind takes its value as the qualifier ("sold Duchess" is
    # possession:duchess=duchess): that names a thing; "sold my car" (car=car) does not.
    return claim.value in _GENERIC_VALUES


def _newest_first(n: Neighbour) -> tuple[float, str]:
    when = n.valid_from or n.created_at or _EPOCH
    when = when if when.tzinfo is not None else when.replace(tzinfo=UTC)
    return (-when.timestamp(), n.memory_id)
