"""Which way a date without a year points, read from the words of its sentence (seed 004).

"by March 1" said on 2023-11-20 is a deadline, 2024-03-01; "in March I moved" said the same day
is 2023-03. ``toward(text, start, end)`` reads the sentence around ``text[start:end]`` and says
"future", "past" or None (no cue: the caller keeps the turn's own year). Local cues decide first:
"since" / "back in" point back; a deadline word right before the date ("by", "until", "before",
"due", "the deadline is", "no later than") points forward unless the nearest tense is past ("I had
it done by March 1"). Otherwise the tense marker nearest to the date decides: a plan ("going to",
"will", "planning to", "need to", "I'm moving") is future, a past verb ("moved", "went", "was")
is past; a bare copula before the date ("the party is on June 3") points forward. ``recurring``
says whether the date comes back every year: a birthday or anniversary stated without tense ("my
birthday is June 3"), "born on", "every year". ``PLAN`` is the plan-marker pattern foresight
reads. Pure, standard library only; patterns are compiled once at import.
"""

from __future__ import annotations

import re
from typing import Literal

from kgmem.word_lists import word_set

Direction = Literal["future", "past"]

# Plan markers from seed 004 ("plan to", "will", "going to") plus their everyday variants.
# "was going to" / "planned to" are past and "will always|never" is a standing rule, not a plan.
PLAN = re.compile(
    r"\bplan(?:s|ning)?\s+(?:to|on)\b|(?<!was )(?<!were )\bgoing\s+to\b|\bgonna\b"
    r"|(?<!free )(?<!the )(?<!my )(?<!your )(?<!good )(?:\bwill|\b\w+'ll)\b"
    r"(?!\s+(?:always|never|forever)\b)"
    r"|\bintend(?:s|ing)?\s+to\b|\babout\s+to\b|\bscheduled\s+(?:to|for)\b|\baim(?:s|ing)?\s+to\b"
    r"|\bhop(?:e|es|ing)\s+to\b|\blooking\s+forward\s+to\b",
    re.IGNORECASE,
)
# Beyond plans, words that put a sentence's dates ahead: obligations, goals, deadlines, and the
# present progressive used for arrangements ("I'm moving in May").
_FUTURE = re.compile(
    r"\b(?:wants?|have|has|got|hoping|trying|expects?|expecting|supposed)\s+to\b|\bgotta\b"
    r"|\b(?:goal|goals|deadline|deadlines|due|target|targets|targeting|upcoming|shall|let's"
    r"|need|needs|must|should)\b"
    # a past decision about what comes next: "I signed up for the race in October"
    r"|\b(?:decided|chose|agreed|promised|planned|arranged|committed|signed\s+up|registered"
    r"|booked|scheduled|enrolled)\s+(?:to|for|in)\b"
    r"|\b(?:am|are|is|i'm|we're|you're|they're|he's|she's|it's)\s+"
    r"(?:(?:also|still|just|finally|now|really|currently|actually)\s+)?(?P<ing>[a-z]+ing)\b",
    re.IGNORECASE,
)
# "-ing" words after a copula that are adjectives or nouns, not an arrangement.
_NOT_PROGRESSIVE = word_set(
    """amazing interesting exciting boring annoying surprising confusing relaxing frustrating
    stunning charming overwhelming disappointing refreshing inspiring tiring thing nothing
    something everything anything morning evening during"""
)
_IRREGULAR_PAST = word_set(
    """was were wasn't weren't did didn't had hadn't been went got made said saw met took came
    gave found thought knew felt told left kept brought bought began ran wrote sent spent built
    lost won heard held stood understood taught caught sat became chose drove ate drank fell flew
    forgot grew hung paid rode rose sang slept spoke swam threw woke wore meant broke led fed
    fought sought dealt sold struck tore drew hid bit lent stuck swore shook dug forgave froze"""
)  # participles ("done", "taken") are left out: "I need it done by Friday" is ahead
# Words ending in -ed that are not past tenses.
_NOT_PAST_ED = word_set(
    """need feed seed weed speed breed bleed proceed exceed succeed indeed red bed shed wed
    hundred sacred naked wicked beloved kindred rugged ragged jagged crooked aged based related
    interested excited tired married scheduled supposed used detailed advanced limited unlimited
    dedicated experienced skilled qualified talented focused motivated organized"""
)
_PAST_ED = re.compile(r"\b(?P<w>[a-z]{2,}ed)\b", re.IGNORECASE)
# Before an "-ed" word these make it an adjective or a passive state, not a past event.
_STATE_BEFORE = re.compile(
    r"(?:\b(?:am|is|are|be|being|get|gets|getting|feel|feels|feeling|so|very|really|too|more"
    r"|most|pretty|quite|fully|well)|'m|'re|'s)\s+$",
    re.IGNORECASE,
)
_WORD = re.compile(r"[a-z]+(?:'[a-z]+)?", re.IGNORECASE)

# Cues right before the date (the match may start at a preposition it swallowed, see find_dates).
_DEADLINE_CUE = re.compile(
    r"\b(?:by|until|till|til|before|due(?:\s+(?:on|by|in))?|no\s+later\s+than"
    r"|deadline(?:\s+(?:is|was|of))?|expires?|ends?\s+on)\s+(?:(?:on|in)\s+)?(?:the\s+)?"
    r"(?:(?:end|middle|start|beginning)\s+of\s+)?$",
    re.IGNORECASE,
)
_SINCE_CUE = re.compile(r"\b(?:since|back\s+in|ago\s+in|ago\s+on)\s+(?:the\s+)?$", re.IGNORECASE)
_COPULA_CUE = re.compile(r"\b(?:is|are|'s|falls?)\s+(?:(?:on|in)\s+)?(?:the\s+)?$", re.IGNORECASE)
_BORN_CUE = re.compile(r"\bborn\s+(?:(?:on|in)\s+)?(?:the\s+)?$", re.IGNORECASE)
_YEARLY = re.compile(r"\b(?:birthday|birthdays|b-?day|anniversary|name\s*day)\b", re.IGNORECASE)
_EVERY_YEAR = re.compile(r"\b(?:every|each)\s+year\b|\bannual(?:ly)?\b|\byearly\b", re.IGNORECASE)
_SENTENCE_END = re.compile(r"[.!?;\n]|:(?!\d)")  # "X said: ..." opens a sentence


def _sentence(text: str, start: int, end: int) -> tuple[int, int]:
    before = [m.end() for m in _SENTENCE_END.finditer(text, 0, start)]
    after = _SENTENCE_END.search(text, end)
    return (before[-1] if before else 0), (after.start() if after else len(text))


def _markers(text: str, lo: int, hi: int) -> list[tuple[int, int, Direction]]:
    """Tense markers in ``text[lo:hi]`` as (start, end, direction); a future reading of a span
    wins over a past one ("scheduled for", "got to")."""
    marks: list[tuple[int, int, Direction]] = []
    for m in PLAN.finditer(text, lo, hi):
        marks.append((m.start(), m.end(), "future"))
    for m in _FUTURE.finditer(text, lo, hi):
        if m["ing"] and m["ing"].lower() in _NOT_PROGRESSIVE:
            continue
        marks.append((m.start(), m.end(), "future"))
    taken = [(s, e) for s, e, _ in marks]
    for m in _WORD.finditer(text, lo, hi):
        low = m[0].lower()
        past = low in _IRREGULAR_PAST
        if not past and _PAST_ED.fullmatch(low) and low not in _NOT_PAST_ED:
            past = _STATE_BEFORE.search(text, lo, m.start()) is None
        if past and all(m.end() <= s or m.start() >= e for s, e in taken):
            marks.append((m.start(), m.end(), "past"))
    return marks


def _nearest(marks: list[tuple[int, int, Direction]], start: int, end: int) -> Direction | None:
    """The nearest marker before the date (its verb usually comes first: "I moved there in
    March"), else the nearest after it (a date that opens its clause: "In March I moved")."""
    best: tuple[int, int, Direction] | None = None
    for s, e, way in marks:
        rank = (0, start - e) if e <= start else (1, max(s - end, 0))
        if best is None or rank < best[:2]:
            best = (*rank, way)
    return best[2] if best else None


def toward(text: str, start: int, end: int) -> Direction | None:
    """Whether the date at ``text[start:end]`` lies ahead of the turn, behind it, or either."""
    lo, hi = _sentence(text, start, end)
    head = text[max(lo, start - 60) : start]
    if _SINCE_CUE.search(head):
        return "past"
    tense = _nearest(_markers(text, lo, hi), start, end)
    if _DEADLINE_CUE.search(head):
        return "past" if tense == "past" else "future"
    if tense is None and _COPULA_CUE.search(head):
        return "future"
    return tense


def recurring(text: str, start: int, end: int) -> bool:
    """Whether the date at ``text[start:end]`` is a yearly one: "born on June 3", "every year in
    May", or a birthday/anniversary stated without tense ("my birthday is June 3")."""
    lo, hi = _sentence(text, start, end)
    if _BORN_CUE.search(text, max(lo, start - 30), start) or _EVERY_YEAR.search(text, lo, hi):
        return True
    return _YEARLY.search(text, lo, hi) is not None and not _markers(text, lo, hi)
