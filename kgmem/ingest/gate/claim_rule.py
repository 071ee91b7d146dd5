"""The write gate's claim rule: does a candidate's claim change what a stored memory asserts?

``claim_conflict(claim, holders, min_confidence)`` looks at the live memories that assert the
same subject's slot family (found by the graph's claim index and among the batch's earlier facts,
not by cosine) and returns the one the candidate changes, with a ``ContradictionCheck`` saying
how — or a ``ClaimSkip`` saying why it did not act, or None when nothing conflicts:

- a new value on a **single-valued** slot (residence, employer, favourite colour, the milk one
  prefers) changes the current one, whatever the wording and whatever the cosine;
- on a **multi-valued** slot (pets, languages, hobbies) an addition is not a conflict; a new
  value said as a replacement (``replacing``: "now", "these days", "instead", "switched",
  and no "also"/"another") changes the current one all the same;
- a **transition** (polarity ``ended``: quit, sold, left, passed away, no longer) closes the
  holder of the same value, or of a value it shares a word with ("dropped out of the MBA"
  closes "a part-time MBA"), or of any slot whose text mentions the value it names ("Biscuit
  passed away" closes "has a golden retriever named Biscuit"); without a value, or with only the
  kind's own word ("sold my car", "quit my job"), any value of the same slot ("broke up");
- the same value again (a repetition, or a refinement "Paris" → "Paris, France") is no change,
  except that a value that had ended and holds again ("vegan again") is one;
- a claim below ``min_confidence`` never retires anything, and a stored memory that reports a
  past happening and was only guessed (below it) to hold a slot is not retired through that slot.

Which side wins (newer fact, keep existing, merge, ask) is the gate's conflict strategy, applied
by ``write_gate.decide``. Pure and deterministic: holders are visited newest first, ties by id.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import UTC, datetime

from kgmem.ingest.claims.sameness import overlaps, same_value
from kgmem.ingest.gate.contradiction import ContradictionCheck, ContradictionKind
from kgmem.ingest.gate.records import Neighbour
from kgmem.records import Claim
from kgmem.taxonomy.slots import Polarity, is_multi_valued, parse_slot_key

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
) -> ClaimConflict | ClaimSkip | None:
    if claim is None:
        return None
    parsed = parse_slot_key(claim.slot)
    if parsed is None:
        return None
    slot, _ = parsed
    ended = claim.polarity == Polarity.ENDED
    for h in sorted(holders, key=_newest_first):
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
        if family(hc.slot) != family(claim.slot) and not named:
            continue
        check = _change(claim, hc, ended, is_multi_valued(slot) and not replacing, named)
        if check is None:
            continue
        if claim.confidence < min_confidence:
            why = f"claim confidence {claim.confidence:.2f} < {min_confidence:.2f}"
            return ClaimSkip(h.memory_id, f"would change {h.memory_id} ({check.describe()}), {why}")
        return ClaimConflict(h, check)
    return None


def _change(
    claim: Claim, held: Claim, ended: bool, multi: bool, mentioned: bool = False
) -> ContradictionCheck | None:
    cue = f"claim {claim.slot}"
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
_GENERIC_VALUES = frozenset({"job", "work", "position", "role"})


def _names(claim: Claim) -> bool:
    return bool(claim.value) and not _generic(claim)


def _generic(claim: Claim) -> bool:
    qualifier = claim.slot.partition(":")[2]
    return claim.value == qualifier or claim.value in _GENERIC_VALUES


def _newest_first(n: Neighbour) -> tuple[float, str]:
    when = n.valid_from or n.created_at or _EPOCH
    when = when if when.tzinfo is not None else when.replace(tzinfo=UTC)
    return (-when.timestamp(), n.memory_id)
