"""The write gate's rule for a plan given up: which stored memory it closes.

A plan is most often stored as plain words, with no claim ("Felix is planning to apply for a PhD
this autumn"): people say plans in too many ways for a slot key to name each one. When the person
later gives it up ("decided not to apply for the PhD after all", "no longer planning to move
abroad", "given up on the cello"), the claim engine reads a goal, a pastime, a language, a habit,
a thing or a course that ended, with the doing as its value.
``gives_up(claim, holder, own)`` says whether that ending closes ``holder``: a live memory of
the same person that states a plan (``_PLAN_RE``), close to the candidate (the ``PLAN`` window,
with the person's name taken out when ``own`` is known), and names the same doing by a word
that is not a light verb ("go", "get", "do" name no plan).
``closes_by_name(claim, held_family)`` keeps a given-up plan from closing another kind of fact
that only mentions its words ("not planning to move to Denver" says nothing of living there).
Pure.
"""

from __future__ import annotations

import re

from kgmem.core.synthesis import STOPWORDS, stem, tokens
from kgmem.ingest.gate.records import Neighbour
from kgmem.ingest.gate.windows import CONTRADICTION, within
from kgmem.records import Claim
from kgmem.taxonomy.slots import Polarity, Slot, family

# A plan given up and the plan it gives up are said of one doing: their texts are close. Below
# this, two plans of one person that share a word ("apply for a visa" / "apply for the PhD")
# are not told apart by the words alone.
PLAN = CONTRADICTION
_PLAN_RE = re.compile(
    r"\b(?:plan|plans|planning|planned|hopes? to|hoping to|going to|gonna|wants? to|intends? to"
    r"|intending to|aims? to|aiming to|thinking (?:of|about)|considering|saving (?:up )?for"
    r"|applying (?:to|for)|about to|set on|preparing to|getting ready to)\b",
    re.IGNORECASE,
)
# verbs too light to name a doing: "go to the party" is named by "party"
_LIGHT = frozenset(
    stem(w) for w in ("go", "going", "get", "getting", "do", "doing", "make", "making", "try")
)
_PLAN_FAMILIES = frozenset({Slot.GOAL.value, Slot.DEADLINE.value})
# what a plan is of: a doing, a pastime, a language, a habit, a thing to get, a course
_DOINGS = frozenset(
    s.value
    for s in (Slot.GOAL, Slot.HOBBY, Slot.LANGUAGE, Slot.HABIT, Slot.POSSESSION, Slot.SCHOOL,
              Slot.FIELD_OF_STUDY)
)  # fmt: skip


def _ended_plan(claim: Claim) -> bool:
    return family(claim.slot) == Slot.GOAL.value and claim.polarity == Polarity.ENDED


def _gives_up_a_doing(claim: Claim) -> bool:
    """A plan ended, or a thing one might plan to do, learn or get given up ("given up on the
    cello" ends "planning to learn the cello this winter")."""
    return claim.polarity == Polarity.ENDED and bool(claim.value) and family(claim.slot) in _DOINGS


def _doing(text: str) -> frozenset[str]:
    return frozenset(
        stem(t) for t in tokens(text) if t.lower() not in STOPWORDS and stem(t) not in _LIGHT
    )


def gives_up(claim: Claim, holder: Neighbour, own: float | None = None) -> bool:
    """The ended plan ``claim`` closes ``holder``, a memory with no claim (see module doc);
    ``own`` is the candidate's cosine to its subject's name (``windows.within``)."""
    if not _gives_up_a_doing(claim) or holder.claim is not None or not within(holder, own, PLAN):
        return False
    if claim.subject not in holder.content.lower() or not _PLAN_RE.search(holder.content):
        return False
    return bool(_doing(claim.value) & _doing(holder.content))


def closes_by_name(claim: Claim, held_family: str) -> bool:
    """Whether a claim that names what ended may close a memory of ``held_family`` that only
    mentions it: a plan given up closes plans and their dates, anything else any family."""
    return not _ended_plan(claim) or held_family in _PLAN_FAMILIES
