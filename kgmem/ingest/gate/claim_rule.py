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
- a relationship status with no partner ("single", "divorced") ends the partner held;
- a job title that adds a word to the one held, said as a change ("got promoted to charge
  nurse" after "nurse"), is a new title, not a refinement;
- an amount or deadline meets the one a holder keeps when they name one thing in two wordings
  ("p95 down to 120 ms" / "the API's p95 latency is 180 ms": a qualifier is a word of the other
  text, and the units agree), and a deadline that names no thing meets the person's only one;
- the same value again (a repetition, or a refinement "Paris" → "Paris, France") is no change,
  except that a value that had ended and holds again ("vegan again") is one;
- a claim below ``min_confidence`` never retires anything; a stored memory only guessed (below
  it) to hold a slot is retired through that slot by a value read from a wording
  (``READ_CONFIDENCE``), not by another guess, and never when it reports a past happening.

Which side wins (newer fact, keep existing, merge, ask) is the gate's conflict strategy, applied
by ``write_gate.decide``. Pure and deterministic: holders are visited newest first, ties by id.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass, replace
from datetime import UTC, datetime

from kgmem.core.tunables import READ_CONFIDENCE
from kgmem.ingest.claims.lexicon import KIND_WORDS
from kgmem.ingest.claims.sameness import overlaps, same_value
from kgmem.ingest.gate.contradiction import ContradictionCheck, ContradictionKind
from kgmem.ingest.gate.records import Neighbour
from kgmem.records import Claim
from kgmem.taxonomy.slots import (
    UNPARTNERED_STATUSES,
    Polarity,
    Slot,
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


def family(slot: str) -> str:
    return slot.partition(":")[0]


def claim_conflict(
    claim: Claim | None,
    holders: Sequence[Neighbour],
    min_confidence: float,
    *,
    replacing: bool = False,
    content: str = "",
) -> ClaimConflict | ClaimSkip | None:
    if claim is None:
        return None
    parsed = parse_slot_key(claim.slot)
    if parsed is None:
        return None
    slot, _ = parsed
    ended = claim.polarity == Polarity.ENDED
    claim = _as_held_measure(claim, content, holders)
    order = sorted(holders, key=_newest_first)
    if replacing and is_multi_valued(slot):
        # a replacement on a slot of several values takes the place of the one it names ("swapped
        # climbing for bouldering", "actually dust mites, not cats"), else of the newest
        order.sort(key=lambda h: h.claim is None or not overlaps(h.claim.value, content))
    for h in order:
        hc = h.claim
        if hc is None or hc.subject != claim.subject:
            continue
        # An ending that names its thing closes the memory that mentions it, whatever slot that
        # memory was read as: "Biscuit passed away" ends "has a golden retriever named Biscuit",
        # "sold Duchess" ends "keeps a horse called Duchess" (read as a pet, sold as a thing).
        named = ended and _names(claim) and overlaps(claim.value, h.content)
        if not named and hc.confidence < min_confidence and _REPORTS_PAST_RE.match(h.content):
            # a one-off happening only guessed to hold a slot ("Ibrahim watched a documentary
            # about bees the other night" as a diet) is no value a new one replaces
            continue
        unpartnered = _ends_partner(claim, hc)
        if family(hc.slot) != family(claim.slot) and not named and not unpartnered:
            continue
        if not ended and hc.confidence < min_confidence and claim.confidence < READ_CONFIDENCE:
            # two guesses of one slot ("Melanie can feel the serenity" / "Melanie is an
            # inspiration", both read as a partner) are no value replaced: a memory only
            # guessed to hold a slot yields to a value the lexicon read, not to another guess
            continue
        check = (
            ContradictionCheck(ContradictionKind.TRANSITION, (hc.value, claim.value), _cue(claim))
            if unpartnered
            else _change(claim, hc, ended, is_multi_valued(slot) and not replacing, named)
        )
        if check is None and _promoted(claim, hc, content, replacing):
            check = ContradictionCheck(
                ContradictionKind.VALUE_CHANGE, (hc.value, claim.value), _cue(claim)
            )
        if check is None:
            continue
        if claim.confidence < min_confidence:
            why = f"claim confidence {claim.confidence:.2f} < {min_confidence:.2f}"
            return ClaimSkip(h.memory_id, f"would change {h.memory_id} ({check.describe()}), {why}")
        return ClaimConflict(h, check)
    return None


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


def _cue(claim: Claim) -> str:
    return f"claim {claim.slot}"


def _change(
    claim: Claim, held: Claim, ended: bool, multi: bool, mentioned: bool = False
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
    r"|found|was|were|did|felt|heard|spent|gave|left|won|lost|broke|caught|wrote|read|drove)\b",
    re.IGNORECASE,
)
# What a transition calls the thing when it names no instance: "sold my car" ends whichever car
# was held ("an old Fiat Panda"), "quit my job" whichever employer.
_GENERIC_VALUES = frozenset({"job", "work", "position", "role"}) | KIND_WORDS.keys()


# Amounts and dates about a thing, whose qualifier names the thing in the sentence's own words:
# "p95 down to 120 ms" and "the API's p95 latency is 180 ms" measure one thing; "pushed the
# deadline to June 1" (no thing named) moves the one deadline the person has.
_MEASURED_FAMILIES = frozenset({"quantity", "budget", "deadline"})
_UNNAMED_QUALIFIER = "general"


def _as_held_measure(claim: Claim, content: str, holders: Sequence[Neighbour]) -> Claim:
    """The claim on the key of the measure a holder already keeps, when the two name one thing
    in different words: the candidate's qualifier is a word of the holder's text or the other
    way round, or the candidate names no thing and the subject keeps exactly one of that kind.
    Otherwise the claim unchanged."""
    fam, _, qualifier = claim.slot.partition(":")
    if fam not in _MEASURED_FAMILIES or not qualifier:
        return claim
    kept = {
        h.claim.slot: (h.content, h.claim.value)
        for h in holders
        if h.claim is not None
        and h.claim.subject == claim.subject
        and family(h.claim.slot) == fam
        and h.claim.polarity != Polarity.ENDED
    }
    if claim.slot in kept or not kept:
        return claim
    if qualifier == _UNNAMED_QUALIFIER:
        return replace(claim, slot=next(iter(kept))) if len(kept) == 1 else claim
    unit = _unit(claim.value)
    for slot, (held_content, held_value) in sorted(kept.items()):
        held_qualifier = slot.partition(":")[2]
        # a word in common is not enough in a long sentence ("15 problems with 95% accuracy" /
        # "12 problems"): the two amounts must also be in one unit (or both bare numbers)
        if _unit(held_value) != unit or held_qualifier == _UNNAMED_QUALIFIER:
            continue
        if overlaps(qualifier, held_content) or overlaps(held_qualifier, content):
            return replace(claim, slot=slot)
    return claim


_UNIT_RE = re.compile(r"\d\s*([^\d\s.,]+)\s*$")


def _unit(value: str) -> str:
    """The unit an amount is said in ("120 ms" -> "ms", "88%" -> "%"), "" for a bare number."""
    m = _UNIT_RE.search(value)
    return m.group(1).lower() if m else ""


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
