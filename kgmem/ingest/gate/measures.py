"""Which measure a claim restates: amounts and dates about a thing, said in different words.

``as_held_measure(claim, content, holders)`` puts a quantity, budget or deadline claim on the key
of the measure a holder already keeps when the two name one thing: "p95 down to 120 ms" and "the
API's p95 latency is 180 ms" (a qualifier is a word of the other's text and the units agree);
"pushed the deadline to June 1" (no thing named) moves the person's one deadline, or of several
the one its text restates by cosine. Used by :mod:`kgmem.ingest.gate.claim_rule`. Pure.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import replace

from kgmem.ingest.claims.sameness import overlaps
from kgmem.ingest.gate.records import Neighbour
from kgmem.records import Claim
from kgmem.taxonomy.slots import Polarity

# Amounts and dates about a thing, whose qualifier names the thing in the sentence's own words:
# "p95 down to 120 ms" and "the API's p95 latency is 180 ms" measure one thing; "pushed the
# deadline to June 1" (no thing named) moves the one deadline the person has.
_MEASURED_FAMILIES = frozenset({"quantity", "budget", "deadline"})
_UNNAMED_QUALIFIER = "general"
# The cosine at which a measure that names no thing restates one of several kept (the gate's
# contradiction floor), and its lead over the next.
SAME_MEASURE_SIM = 0.6
SAME_MEASURE_MARGIN = 0.05


def as_held_measure(claim: Claim, content: str, holders: Sequence[Neighbour]) -> Claim:
    """The claim on the key of the measure a holder already keeps, when the two name one thing
    in different words: the candidate's qualifier is a word of the holder's text or the other
    way round, or the candidate names no thing and the subject keeps exactly one of that kind (of
    several, the one its text restates: cosine ``SAME_MEASURE_SIM`` or more, clear of the next).
    Otherwise the claim unchanged."""
    fam, _, qualifier = claim.slot.partition(":")
    if fam not in _MEASURED_FAMILIES or not qualifier:
        return claim
    kept = {
        h.claim.slot: (h.content, h.claim.value)
        for h in holders
        if h.claim is not None
        and h.claim.subject == claim.subject
        and h.claim.slot.partition(":")[0] == fam
        and h.claim.polarity != Polarity.ENDED
    }
    if claim.slot in kept or not kept:
        return claim
    if qualifier == _UNNAMED_QUALIFIER:
        if len(kept) == 1:
            return replace(claim, slot=next(iter(kept)))
        # several kept: the one the candidate restates, by cosine ("it's rescheduled to March 22
        # at 4:30 PM" beside "a Zoom meeting with Professor Danielle on March 22 at 3 PM")
        sims: dict[str, float] = {}
        for h in holders:
            if h.claim is not None and h.claim.slot in kept:
                sims[h.claim.slot] = max(sims.get(h.claim.slot, -1.0), h.similarity)
        ranked = sorted(sims.items(), key=lambda kv: (-kv[1], kv[0]))
        lead = ranked[0][1] - ranked[1][1] if len(ranked) > 1 else 1.0
        if ranked and ranked[0][1] >= SAME_MEASURE_SIM and lead >= SAME_MEASURE_MARGIN:
            return replace(claim, slot=ranked[0][0])
        return claim
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
