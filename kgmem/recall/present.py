"""Recall answers the present: a question about how things are now puts the newer statement of a
state above the older one it restates.

The write gate retires a stale fact when it can tell that a new one replaces it (a claim on the
same slot, a replacement said outright). When it cannot ("Lately Fleetwood Mac is Zainab's
absolute favourite" after "Zainab's favourite band is Radiohead": no slot read on one side), both
stay active and the older, often worded closer to the question, ranks first. ``present_first``
is the recall-side fallback: for a present-tense question (``asks_present``) about an attribute
(the engine applies it only when the claim channel's slot guess is sure: on questions about
events, which LoCoMo's mostly are, an older memory restated later is as much the answer, and
moving it cost recall there), a candidate is
placed just below a **newer** candidate that states the same state — the person's own (not a
relative's, not an addition "also ...", not a hypothetical: ``ingest.replacement.states_own``),
same subject (a shared entity; the same claim subject and slot when both were read), both states
rather than dated happenings, mutual cosine at least ``SAME_STATE_SIM``, and the newer at least
``MIN_SHARE`` as relevant (an unrelated newer memory never jumps ahead).
The demotion is one more contribution (``present_first``) so the X-ray's parts still add up,
and a factor (``outdated``) that names it. A question about the past ("When did ...", "What did
... use to ...", "first", "before") is left as scored.

Pure: no I/O, no clock; the candidates' own times and embeddings decide.
"""

from __future__ import annotations

import math
import re
from collections.abc import Mapping, Sequence
from datetime import UTC, datetime

from kgmem.ingest.replacement import says_replacement, states_own
from kgmem.recall.candidates import Candidate, Scored
from kgmem.recall.diversity import cosines
from kgmem.taxonomy import Category
from kgmem.taxonomy.slots import is_multi_valued, parse_slot_key

SAME_STATE_SIM = 0.6  # the write gate's contradiction window: about the same thing
MIN_SHARE = 0.6  # the newer one is at least this share of the older one's score
CLAIM_SURE = 0.5  # the write gate's default claim threshold: a claim read, not a guess
SCAN = 20  # how far down the ranking a newer restatement is looked for
_BELOW = 1.0 - 1e-6

_STATES = frozenset(
    {Category.FACT, Category.PREFERENCE, Category.IDENTITY, Category.RELATIONSHIP,
     Category.SKILL, Category.GOAL, Category.CONTEXT, Category.ACTIVITY}
)  # fmt: skip
_PAST_RE = re.compile(
    r"\b(?:did|was|were|had|ago|last|before|first|originally|initially|used to|previous"
    r"|previously|earlier|former|formerly|history|change|changed|since|until|yesterday"
    r"|back then|at first|in (?:19|20)\d\d|happened|went|got|made|took|gave|saw|met|bought"
    r"|told|said|began|won|lost|felt|found|came)\b",
    re.IGNORECASE,
)
_PRESENT_RE = re.compile(
    r"\b(?:is|are|am|does|do|has|have|now|currently|current|these days|nowadays|still|today"
    r"|latest|at the moment)\b|'s\b|'re\b",
    re.IGNORECASE,
)


def asks_present(query: str) -> bool:
    """A question about how things are now: present-tense, with no word that points back."""
    return bool(_PRESENT_RE.search(query)) and not _PAST_RE.search(query)


def present_first(scored: Sequence[Scored], by_id: Mapping[str, Candidate]) -> list[Scored]:
    """``scored`` (best first) with each older state placed just below its newer restatements.
    The head is visited newest first, so in a chain a → b → c each one's place is settled before
    the older ones are placed below it."""
    out = sorted(scored, key=lambda s: (-s.final, s.memory_id))
    head = [s for s in out[:SCAN] if s.memory_id in by_id]
    original = {s.memory_id: s.final for s in head}
    final = dict(original)
    for s in sorted(head, key=lambda s: (_when(by_id[s.memory_id]), s.memory_id), reverse=True):
        a = by_id[s.memory_id]
        if a.category not in _STATES:
            continue
        caps = [
            final[b.memory_id] * _BELOW
            for b in head
            if original[b.memory_id] >= MIN_SHARE * original[s.memory_id]
            and _restates(a, by_id[b.memory_id])
        ]
        if caps and min(caps) < final[s.memory_id]:
            final[s.memory_id] = min(caps)
    out = [
        _placed_below(s, final[s.memory_id])
        if s.memory_id in final and final[s.memory_id] < s.final
        else s
        for s in out
    ]
    return sorted(out, key=lambda s: (-s.final, s.memory_id))


def _restates(a: Candidate, b: Candidate) -> bool:
    """``b`` is a newer statement of the state ``a`` holds: the person's own state (not a
    relative's, not an addition, not a hypothetical); when both claims were read with confidence,
    the same subject and slot (and on a multi-valued slot, said as a replacement); and close in
    meaning."""
    if b.category not in _STATES or _when(b) <= _when(a) or not states_own(b.content):
        return False
    if a.entities and b.entities and not set(a.entities) & set(b.entities):
        return False
    if min(a.claim_confidence, b.claim_confidence) >= CLAIM_SURE and a.claim_slot and b.claim_slot:
        if (a.claim_subject, a.claim_slot) != (b.claim_subject, b.claim_slot):
            return False  # two attributes ("favourite film", "favourite book")
        parsed = parse_slot_key(b.claim_slot)
        if parsed is not None and is_multi_valued(parsed[0]) and not says_replacement(b.content):
            return False  # an addition: both hold
    if a.embedding is None or b.embedding is None:
        return False
    return cosines([float(x) for x in a.embedding], [b.embedding])[0] >= SAME_STATE_SIM


def _placed_below(s: Scored, value: float) -> Scored:
    contributions = {**s.contributions, "present_first": value - s.final}
    factors = {**s.factors, "outdated": 1.0}
    return Scored(math.fsum(contributions.values()), contributions, factors, s.memory_id)


def _when(c: Candidate) -> datetime:
    when = c.valid_from or c.created_at
    return when if when.tzinfo is not None else when.replace(tzinfo=UTC)
