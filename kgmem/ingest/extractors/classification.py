"""Fact classification, the local extractor's pure scoring stage: category and confidence.

``classify(text, sig, has_kin_relation)`` picks a fact's category from its signal scan (the
observer classification categories) by a fixed priority of signal kinds, with
plans read as goals and kin phrases ("my wife ...") as relationships, and returns the level bonus
of the deciding signal. ``confidence`` turns the base confidence table into a score in
[0, 1] by the documented boosts; ``is_hedged`` spots the hedges that lower it. ``KIN_GENDER`` is
the kin and social nouns with the gender they imply (coreference reads it too). Pure; no spaCy.
"""

from __future__ import annotations

import re

from kgmem.core.text import GOING_TO
from kgmem.ingest.signals.records import SignalKind, SignalLevel, SignalScan
from kgmem.taxonomy import Category

# Kin and social nouns with the gender they imply (for he/she coreference), or None.
KIN_GENDER: dict[str, str | None] = {
    word: gender
    for words, gender in (
        ("friend buddy pal bestie bff spouse partner fiance kid child parent sibling", None),
        ("boss manager supervisor colleague coworker co-worker mentor cousin roommate", None),
        ("neighbor neighbour", None),
        ("wife girlfriend fiancee daughter mom mother mum mommy sister", "f"),
        ("aunt grandma grandmother niece", "f"),
        ("husband boyfriend son dad father daddy brother", "m"),
        ("uncle grandpa grandfather nephew", "m"),
    )
    for word in words.split()
}
_KIN_RE = "|".join(sorted(KIN_GENDER, key=len, reverse=True))
_GOAL_RE = re.compile(
    rf"\b(?:plan(?:s|ning)?\s+(?:to|on)|{GOING_TO}|gonna|intend(?:s|ing)?\s+to|hop(?:e|es|ing)\s+to"
    r"|wants?\s+to|wanna|aim(?:s|ing)?\s+to|(?:my|our)\s+goal|dream(?:s|ing)?\s+(?:of|to)"
    r"|(?:'d|would)\s+love\s+to|keen\s+on|thinkin[g']?\s+(?:of|about)|looking\s+forward\s+to)\b",
    re.IGNORECASE,
)
_KIN_PHRASE_RE = re.compile(
    rf"\b(?:my|our|his|her|their|your|\w+'s)\s+(?:(?:best|close|old|new|little|big|younger|older)"
    rf"\s+)?(?:{_KIN_RE})s?\b",
    re.IGNORECASE,
)
_HEDGE_RE = re.compile(
    r"\b(?:maybe|perhaps|probably|possibly|might|not\s+sure|i\s+(?:think|guess|suppose)|kinda"
    r"|sort\s+of|kind\s+of)\b",
    re.IGNORECASE,
)


def is_hedged(text: str) -> bool:
    """Whether the speaker hedges ("maybe", "I think"): a weaker claim, a lower confidence."""
    return _HEDGE_RE.search(text) is not None


C = Category
# The observer table gives correction .4, decision .35, preference .3, entity-rich .3 and
# fact .25. Categories it does not name sit beside their nearest row: a commitment or standing
# rule is as firm as a decision, a goal or relationship as a preference, identity, events and
# activities are plain facts ("my name is" is its own fact trigger).
BASE_CONFIDENCE: dict[Category, float] = {
    C.CORRECTION: 0.4, C.DECISION: 0.35, C.PREFERENCE: 0.3, C.FACT: 0.25,
    C.COMMITMENT: 0.35, C.PRINCIPLE: 0.35, C.GOAL: 0.3, C.RELATIONSHIP: 0.3,
    C.IDENTITY: 0.25, C.EVENT: 0.25, C.ACTIVITY: 0.25,
}  # fmt: skip
LEVEL_BONUS = {SignalLevel.HIGH: 0.3, SignalLevel.MEDIUM: 0.2, SignalLevel.LOW: 0.1}
# (category, signal kind, lowest level that counts), highest priority first. A correction must be
# explicit (HIGH): a bare "actually" is chat filler far more often than a correction.
_PRIORITY: tuple[tuple[Category, SignalKind, SignalLevel], ...] = (
    (C.CORRECTION, SignalKind.CORRECTION, SignalLevel.HIGH),
    (C.DECISION, SignalKind.DECISION, SignalLevel.MEDIUM),
    (C.COMMITMENT, SignalKind.COMMITMENT, SignalLevel.MEDIUM),
    (C.PREFERENCE, SignalKind.PREFERENCE, SignalLevel.MEDIUM),
    (C.PRINCIPLE, SignalKind.DIRECTIVE, SignalLevel.MEDIUM),
    (C.IDENTITY, SignalKind.IDENTITY, SignalLevel.MEDIUM),
    (C.ACTIVITY, SignalKind.HABIT, SignalLevel.MEDIUM),
    (C.EVENT, SignalKind.EVENT, SignalLevel.LOW),
)
# Kinds that decide a category; a sentence carrying one at MEDIUM or above is never filler.
CLASSIFIED_KINDS = frozenset(k for _, k, _ in _PRIORITY) | {SignalKind.FACT}


def _wants(sig: SignalScan) -> bool:
    prefs = [s.text.lower() for s in sig.signals if s.kind is SignalKind.PREFERENCE]
    return bool(prefs) and all(re.search(r"\b(?:want|need)", p) for p in prefs)


def classify(text: str, sig: SignalScan, has_kin_relation: bool = False) -> tuple[Category, float]:
    """The category of one fact and the level bonus of the signal that decided it.

    ``text`` is the fact before third-person rewriting and ``sig`` its signal scan (the patterns
    key on "I"); ``has_kin_relation`` says a kin relation ("my wife Sarah") was found in it.
    """
    levels = {k: max(s.level for s in sig.signals if s.kind is k) for k in sig.kinds}
    goal = _GOAL_RE.search(text) is not None
    for category, kind, least in _PRIORITY:
        level = levels.get(kind, SignalLevel.NONE)
        if level < least:
            continue
        if goal and (kind is SignalKind.COMMITMENT or _wants(sig)):
            # "I'm going to / plan to / want to ..." is a plan, not a promise or a taste
            return C.GOAL, LEVEL_BONUS[level]
        if category is C.IDENTITY and (has_kin_relation or _KIN_PHRASE_RE.search(text)):
            return C.RELATIONSHIP, LEVEL_BONUS[level]  # "my wife ..." is about a relationship
        return category, LEVEL_BONUS[level]
    # no classified signal: a plan or a named relationship still says what the fact is about
    if goal:
        return C.GOAL, LEVEL_BONUS[SignalLevel.MEDIUM]
    if has_kin_relation or _KIN_PHRASE_RE.search(text):
        return C.RELATIONSHIP, LEVEL_BONUS[SignalLevel.MEDIUM]
    fact_level = levels.get(SignalKind.FACT, SignalLevel.NONE)
    return C.FACT, LEVEL_BONUS.get(fact_level, 0.0)


def confidence(
    category: Category,
    level_bonus: float,
    *,
    named_entities: int,
    first_hand: bool,
    anchored: bool,
    relations: int,
    hedged: bool,
    role: str,
) -> float:
    """The base confidence for the category, boosted by the evidence, clamped to [0, 1].

    + the deciding signal's level (HIGH .3, MEDIUM .2, LOW .1); + .1 when entity-rich (2+ named
    entities, its own row), + .05 for one named entity; + .1 when first-hand (the speaker
    about themself: nobody knows better); + .05 when anchored by a date or number; + .05 per
    typed relation (at most .1); - .15 when hedged ("maybe", "I think"); - .05 when the
    assistant said it (second-hand).
    """
    score = BASE_CONFIDENCE.get(category, 0.25) + level_bonus
    score += 0.1 if named_entities >= 2 else 0.05 * named_entities
    score += 0.1 * first_hand + 0.05 * anchored
    score += min(0.1, 0.05 * relations) - 0.15 * hedged - 0.05 * (role == "assistant")
    return round(min(1.0, max(0.0, score)), 3)
