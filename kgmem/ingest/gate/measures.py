"""Which measure a claim restates: amounts and dates about a thing, said in different words.

``as_held_measure(claim, content, holders)`` puts a quantity, budget or deadline claim on the key
of the measure a holder already keeps when the two name one thing: "p95 down to 120 ms" and "the
API's p95 latency is 180 ms" (a qualifier is a word beside the other's amount, and the units agree);
"pushed the deadline to June 1" (no thing named) moves the person's one deadline, or of several
the one its text restates by cosine, unless its words say what it is for and the kept one's do
not ("set aside $200 a month for groceries" is not the rent). ``restated_holders`` applies
that rule to unnamed goals and deadlines that the claims keep on one key; ``counts_a_thing``
says whether an amount names what it measures, ``for_other_things`` whether two dates or
amounts are "for" two things. Used by :mod:`kgmem.ingest.gate.claim_rule`. Pure.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import replace

from kgmem.core.synthesis import stem, words
from kgmem.ingest.claims.sameness import overlaps
from kgmem.ingest.gate.records import Neighbour
from kgmem.records import Claim
from kgmem.taxonomy.slots import Polarity

# Amounts and dates about a thing, whose qualifier names the thing in the sentence's own words:
# "p95 down to 120 ms" and "the API's p95 latency is 180 ms" measure one thing; "pushed the
# deadline to June 1" (no thing named) moves the one deadline the person has.
MEASURED_FAMILIES = frozenset({"quantity", "budget", "deadline"})
_UNNAMED_QUALIFIER = "general"
# Families whose unnamed key ("general") stands for one of several things the person keeps.
_UNNAMED_FAMILIES = frozenset({"deadline", "goal"})
# The cosine at which a measure that names no thing restates one of several kept (the gate's
# contradiction floor), and its lead over the next.
SAME_MEASURE_SIM = 0.6
SAME_MEASURE_MARGIN = 0.05


# "for groceries", "on the new laptop": what an amount is for; not "for now", "for the month"
_PURPOSE_RE = re.compile(
    r"\b(?:for|on|towards?)\s+(?:(?:my|the|our|their|his|her|a|an|some|new)\s+)*"
    r"(?P<thing>[a-z][a-z-]{2,})",
    re.IGNORECASE,
)
_NOT_PURPOSE = frozenset(
    words(
        "now while time month months week weeks year years day days next today tomorrow tonight "
        "weekend sure example instance good real once then"
    )
)


def _purpose(content: str) -> str:
    """The words naming what an amount is for ("for groceries" → "groceries"), or ""."""
    found = [m["thing"] for m in _PURPOSE_RE.finditer(content)]
    return " ".join(t for t in found if t.lower() not in _NOT_PURPOSE)


def as_held_measure(claim: Claim, content: str, holders: Sequence[Neighbour]) -> Claim:
    """The claim on the key of the measure a holder already keeps, when the two name one thing
    in different words: the candidate's qualifier is a word beside the holder's amount, or the
    holder's is a word of the candidate's text and the candidate's one of the holder's (below),
    or the candidate names no thing and the subject keeps exactly one of that kind (of
    several, the one its text restates: cosine ``SAME_MEASURE_SIM`` or more, clear of the next).
    Otherwise the claim unchanged."""
    fam, _, qualifier = claim.slot.partition(":")
    if fam not in MEASURED_FAMILIES or not qualifier:
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
        purpose = _purpose(content)
        if purpose:
            # "set aside $200 a month for groceries" names what the amount is for, in words the
            # claim did not read: it restates only a measure whose text says that thing, not
            # the one budget kept (the rent)
            kept = {k: v for k, v in kept.items() if overlaps(purpose, v[0])}
            if not kept:
                return claim
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
        # and the held memory names the thing beside its amount: "5 examples from feminist film
        # critiques" counts no films ("analyzing 10 Montserrat films"). What is said now may name
        # the held thing anywhere ("the growth of commits merged into the main branch, which has
        # now reached 165" after "150 commits and 12 branches"), though not as the unit joined to
        # its own amount ("a 500-word section"), when its own thing is no stranger to the held
        # text ("the full paper for the conference" names a paper, which "the conference
        # abstract is due on March 1" never mentions)
        if overlaps(qualifier, _beside(held_content, held_value)) or (
            overlaps(held_qualifier, _without_unit(content, claim.value))
            and overlaps(qualifier, held_content)
        ):
            return replace(claim, slot=slot)
    return claim


# Words before and after an amount that can name what it measures: "accuracy on the validation
# set is 82%", "the API's p95 latency is 180 ms", "52 sources in the literature review".
_BEFORE, _AFTER = 6, 3


def _without_unit(content: str, value: str) -> str:
    """``content`` without the word joined to ``value`` ("500-word" -> "500")."""
    at = content.lower().find(value.lower()) if value else -1
    if at < 0:
        return content
    end = at + len(value)
    return content[:end] + re.sub(r"^-[\w-]+", "", content[end:])


def _beside(content: str, value: str) -> str:
    """The words around ``value`` in ``content`` (all of it when the value is not found as
    written there)."""
    # "a 500-word literature review section": the word joined to the amount is its unit; the
    # amount sizes the section, it counts no words of another text's count of words
    text = _without_unit(content, value)
    at = text.lower().find(value.lower()) if value else -1
    if at < 0:
        return text
    before = text[:at].split()[-_BEFORE:]
    after = text[at + len(value) :].split()[:_AFTER]
    return " ".join([*before, value, *after])


def restated_holders(claim: Claim, holders: Sequence[Neighbour]) -> list[Neighbour]:
    """The holders an unnamed goal or deadline can change. A person who keeps several (named or
    not: "a deadline of May 10 to finalize the statement", "the May 25 deadline for the grants")
    has an unnamed one changed only where its text is restated (cosine ``SAME_MEASURE_SIM`` or
    more, clear of the next); with one kept, that one."""
    fam, _, qualifier = claim.slot.partition(":")
    if qualifier != _UNNAMED_QUALIFIER or fam not in _UNNAMED_FAMILIES:
        return list(holders)
    kept: dict[str, Neighbour] = {}  # every live one of the family, named or not
    for h in holders:
        if (
            h.claim is not None
            and h.claim.subject == claim.subject
            and h.claim.slot.partition(":")[0] == fam
            and h.claim.polarity != Polarity.ENDED
        ):
            best = kept.get(h.memory_id)
            if best is None or h.similarity > best.similarity:
                kept[h.memory_id] = h
    if len(kept) < 2:
        return list(holders)
    ranked = sorted(kept.values(), key=lambda h: (-h.similarity, h.memory_id))
    lead = ranked[0].similarity - ranked[1].similarity
    restated = (
        ranked[0].memory_id
        if ranked[0].similarity >= SAME_MEASURE_SIM and lead >= SAME_MEASURE_MARGIN
        else None
    )
    return [
        h
        for h in holders
        if h.memory_id not in kept
        or h.claim is None
        or h.claim.slot != claim.slot
        or h.memory_id == restated
    ]


def counts_a_thing(claim: Claim) -> bool:
    """A quantity or budget names what it measures by a word: "40%" alone ("improved retrieval
    by 40%", "sped up citations by 25%") names nothing, so no two such amounts are one measure."""
    fam, _, qualifier = claim.slot.partition(":")
    return fam not in ("quantity", "budget") or any(c.isalpha() for c in qualifier)


_UNIT_RE = re.compile(r"\d\s*([^\d\s.,]+)\s*$")


def _unit(value: str) -> str:
    """The unit an amount is said in ("120 ms" -> "ms", "88%" -> "%"), "" for a bare number."""
    m = _UNIT_RE.search(value)
    return m.group(1).lower() if m else ""


# A date or an amount "for" a thing: the thing's head word ("for the conference abstract",
# "for the user's conference paper", "for a new desk chair").
_FOR_THING_RE = re.compile(
    r"\bfor (?:(?:the|a|an|my|her|his|their|our|this|that|those|these|[\w-]+['’]s) ){0,2}"
    r"(?:[\w-]+ ){0,3}?([a-z][\w-]*)(?=[,.;:!?)]|\s+(?:on|by|in|at|to|and|but|so|which|that|with"
    r"|from|before|after|due|is|are|was|were|has|have|had|been|will|would|starting|until|moved"
    r"|changed|pushed|slipped|shifted|got)\b|\s*$)"
)


def for_other_things(claim: Claim, content: str, held: str) -> bool:
    """Two deadlines or budgets said "for" two different things: each text names what its date
    or amount is for, and no head word is shared."""
    if claim.slot.partition(":")[0] not in ("deadline", "budget"):
        return False
    mine = {stem(m.group(1).lower()) for m in _FOR_THING_RE.finditer(content)}
    theirs = {stem(m.group(1).lower()) for m in _FOR_THING_RE.finditer(held)}
    return bool(mine) and bool(theirs) and not mine & theirs
