"""Which way a date without a year points, read from the words of its sentence (docs/write-path.md).

"by March 1" said on 2023-11-20 is a deadline, 2024-03-01; "in March I moved" said the same day
is 2023-03. ``toward(text, start, end)`` reads the sentence around ``text[start:end]`` and says
"future", "past", "near" (the occurrence nearest the turn) or None (no cue: the caller keeps the
turn's own year). Local cues decide first: "since" / "back in" point back; a date naming an event
("my March 3 talk") reads only "upcoming"/"next" before it; a deadline word right before the date
("by", "until", "before", "due", "the deadline is") points forward unless the nearest verb before
it is past with no goal noun between ("I had it done by March 1") or a verb of getting done ("I
achieved my goal by June 1"); "starting June 1" reads the same way but softer; "after <event> on
<date>" is past. Otherwise the tense marker nearest before the date (or after it, when the date
opens its clause: "In March I moved") decides: a plan or obligation ("going to", "will", "need
to") is future, a past verb ("moved" after its subject, "went", "was") is past, a booking, a
decision or an arrangement ("I've booked", "I agreed to", "I'm hosting") is near; a bare copula
("the party is on June 3") points forward. ``recurring`` says whether the date comes back every
year: a birthday or anniversary stated without a verb ("my birthday is June 3"), "born on",
"every year". ``year_toward`` places a month-day in the year that direction gives. ``PLAN`` is
the plan-marker pattern foresight reads. Pure, standard library only; compiled once at import.
"""

from __future__ import annotations

import re
from datetime import date, timedelta
from typing import Literal

from kgmem.core.text import GOING_AHEAD, word_set

Direction = Literal["future", "past", "near"]

# Plan markers ("plan to", "will", "going to") plus their everyday variants.
# "was going to" / "planned to" are past and "will always|never" is a standing rule, not a plan.
PLAN = re.compile(
    rf"\bplan(?:s|ning)?\s+(?:to|on)\b|(?<!was )(?<!were ){GOING_AHEAD}|\bgonna\b"
    r"|(?<!free )(?<!the )(?<!my )(?<!your )(?<!good )(?:\bwill|\b\w+'ll)\b"
    r"(?!\s+(?:always|never|forever)\b)"
    r"|\bintend(?:s|ing)?\s+to\b|\babout\s+to\b|\bscheduled\s+(?:to|for)\b|\baim(?:s|ing)?\s+to\b"
    r"|\b(?:set|slated|planned|booked)\s+for\b"
    r"|\bhop(?:e|es|ing)\s+to\b|\blooking\s+forward\s+to\b",
    re.IGNORECASE,
)
# Beyond plans, words that put a sentence's dates ahead: obligations, modals, a past decision
# about what comes next ("I signed up for the race in October"), and the present progressive
# used for arrangements ("I'm moving in May").
_FUTURE = re.compile(
    r"\b(?:wants?|have|has|got|hoping|trying|expects?|expecting|supposed|aiming)\s+to\b"
    r"|\bgotta\b"
    r"|\b(?:shall|let's|need|needs|must|won't)\b"
    r"|\b(?:planned|arranged|signed\s+up|registered|enrolled|volunteered)\s+(?:to|for|in)\b"
    r"|\b(?:rescheduled|postponed|pushed|delayed|extended)\s+(?:back\s+)?(?:to|until|till"
    r"|through|from)\b"
    # a date something moved to, said right after it ("the defence has been moved to June 2";
    # not "moved to Paris in June")
    # ("the dentist moved my appointment to June 10": what moved may come between)
    r"|\b(?:moved|slipped|shifted|bumped)\s+(?:[\w'’]+\s+){0,3}?(?:back\s+|forward\s+)?"
    r"(?:to|until|till)\s+"
    r"(?=(?:the\s+)?(?:\d|jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec))"
    r"|\b(?:invited|asked|encouraged|reminded|told|convinced)\s+(?:me|us|him|her|them)\s+to\b"
    # the present for a start arranged: "on Monday I start at Diageo"
    r"|\b(?:i|we|you|he|she|they)\s+(?:start|begin)\s+(?:at|with|in|on)\b",
    re.IGNORECASE,
)
# Words that tie a date to the time around the turn without saying which side: an arrangement
# in the progressive ("I'm hosting a webinar on May 10"), a booking, a decision or an obligation
# ("I agreed to send it by May 20", "I had to move the call to April 6"). The nearest
# occurrence to the turn is read: "I've booked a flight on July 30" said on 1 August is two days
# ago, said on 1 June it is ahead.
_NEAR = re.compile(
    r"\b(?:booked|reserved|scheduled|agreed|decided|chose|promised|committed|offered)\b"
    r"|\bhad\s+to\b"
    r"|\b(?:am|are|is|i'm|we're|you're|they're|he's|she's|it's)\s+"
    r"(?:(?:also|still|just|finally|now|really|currently|actually)\s+)?(?P<ing>[a-z]+ing)\b",
    re.IGNORECASE,
)
# Characters a tense marker may stand before its date: farther, it is another clause's verb
# ("I've drafted a letter, offering a call on April 22"). A deadline reaches back further, to
# the verb of getting done ("I've completed a five-module course on ... by July 10").
_REACH = 50
_DEADLINE_REACH = 80
# Nouns that name something ahead. Weaker than a verb: "I extended my goal to 12 books by March 1"
# points ahead, but "I achieved my goal by June 1" is done.
_AHEAD_NOUNS = re.compile(
    r"\b(?:goal|goals|deadline|deadlines|due|target|targets|targeting|upcoming)\b", re.IGNORECASE
)
# "-ing" words after a copula that are adjectives or nouns, not an arrangement.
_NOT_PROGRESSIVE = word_set(
    """amazing interesting exciting boring annoying surprising confusing relaxing frustrating
    stunning charming overwhelming disappointing refreshing inspiring tiring thing nothing
    something everything anything morning evening during feeling wondering thinking worrying
    struggling having kidding"""
)
_IRREGULAR_PAST = word_set(
    """was were wasn't weren't did didn't had hadn't went got made said saw met took came
    gave found thought knew felt told left kept brought bought began ran wrote sent spent built
    lost won heard held stood understood taught caught sat became chose drove ate drank fell flew
    forgot grew hung paid rode rose sang slept spoke swam threw woke wore meant broke led fed
    fought sought dealt sold struck tore drew hid bit lent stuck swore shook dug forgave froze
    rewrote redid overcame underwent withdrew undertook"""
)  # participles ("done", "been") are left out: "I need it done by Friday" is ahead
# Past verbs of getting something done: with "by <date>" they date the result, not a deadline.
_COMPLETED = word_set(
    """achieved completed finished reached hit logged met submitted wrote delivered published
    shipped launched earned saved accomplished passed made"""
)
# "proud of completing 4,200 words by May 9": a gerund of getting done after "for"/"after".
_DONE_ING = re.compile(
    r"\b(?:for|after|since|of)\s+(?:completing|finishing|reaching|hitting|achieving|logging"
    r"|submitting|passing)\b",
    re.IGNORECASE,
)
# Words ending in -ed that are not past tenses.
_NOT_PAST_ED = word_set(
    """need feed seed weed speed breed bleed proceed exceed succeed indeed red bed shed wed
    hundred sacred naked wicked beloved kindred rugged ragged jagged crooked aged based related
    interested excited tired married scheduled supposed used detailed advanced limited unlimited
    dedicated experienced skilled qualified talented focused motivated organized"""
)
_PAST_ED = re.compile(r"[a-z]{2,}ed", re.IGNORECASE)
# A regular "-ed" word is a past verb right after its subject or a perfect's auxiliary ("I
# moved", "Ana finally finished", "I've logged"), not after a noun ("get the pages reviewed") or
# a copula ("I'm excited").
_SUBJECT_BEFORE = re.compile(
    r"(?:\b(?i:i|we|he|she|they|you|it|user|who|that|which|have|has|had|having)|'ve|'d"
    r"|\b[A-Z][a-z]+)\s+(?:(?i:just|finally|already|recently|also|only|actually|then|first"
    r"|never|ever|really|even|successfully|officially)\s+)?$"
)
_HAVE_BEFORE = re.compile(r"(?:'ve|'s|'d|\bhave|\bhas)\s+$", re.IGNORECASE)  # "I've got" = I have
_WORD = re.compile(r"[a-z]+(?:'[a-z]+)?", re.IGNORECASE)

# Cues right before the date (the match may start at a preposition it swallowed, see find_dates).
_DEADLINE_CUE = re.compile(
    r"\b(?:by|until|till|til|through|thru|before|due(?:\s+(?:on|by|in))?|no\s+later\s+than"
    r"|deadline(?:\s+(?:is|was|of))?|expires?|ends?\s+on)\s+(?:(?:on|in)\s+)?(?:the\s+)?"
    r"(?:(?:end|middle|start|beginning)\s+of\s+)?$",
    re.IGNORECASE,
)
# "starting June 1", "departing August 20": read like a deadline ("I took the role starting June 1"
# is past, "the course starting May 3" ahead).
_START_CUE = re.compile(
    r"\b(?:starting|beginning|effective|commencing|departing|leaving|arriving|returning)\s+"
    r"(?:(?:on|in|from)\s+)?(?:the\s+)?$",
    re.IGNORECASE,
)
# "after <an event> on <date>": the event came first; with no plan in the clause, it is past.
_AFTER_CUE = re.compile(r"\bafter\b[^,;:]{0,50}$", re.IGNORECASE)
# A date that modifies a noun ("my July 18 presentation", "Greg's April 2 session"): the clause's
# tense is about something else; only "upcoming"/"next" before it or "deadline" after it count.
_ATTRIBUTIVE_HEAD = re.compile(
    r"(?:\b(?:the|a|an|my|our|his|her|their|your|this|that)|'s)\s+(?P<ahead>(?:upcoming|next|"
    r"coming)\s+)?(?:(?:new|big|final|first|last)\s+)?$",
    re.IGNORECASE,
)
_ATTRIBUTIVE_TAIL = re.compile(r"(?:\s*,?\s*\d{4})?\s+(?P<noun>[a-z][\w-]*)", re.IGNORECASE)
_SINCE_CUE = re.compile(r"\b(?:since|back\s+in|ago\s+in|ago\s+on)\s+(?:the\s+)?$", re.IGNORECASE)
_COPULA_CUE = re.compile(r"\b(?:is|are|'s|falls?)\s+(?:(?:on|in)\s+)?(?:the\s+)?$", re.IGNORECASE)
_BORN_CUE = re.compile(r"\bborn\s+(?:(?:on|in)\s+)?(?:the\s+)?$", re.IGNORECASE)
_YEARLY = re.compile(r"\b(?:birthday|birthdays|b-?day|anniversary|name\s*day)\b", re.IGNORECASE)
_EVERY_YEAR = re.compile(r"\b(?:every|each)\s+year\b|\bannual(?:ly)?\b|\byearly\b", re.IGNORECASE)
# What may stand before a date that opens its clause: "In", "And on", "Back in early".
_OPENS = re.compile(
    r"\W*(?:(?:and|but|so|then|in|on|by|since|until|till|during|early|late|mid|back|around"
    r"|the|of|at|from|starting|before|after)\s+)*",
    re.IGNORECASE,
)
# Words after a date that do not make it a noun modifier ("the May 3 at noon", "the 5th of").
_NOT_NOUNS = word_set("at to and or from through until till in on of by for with at")
_CLAUSE_BREAK = re.compile(r",|\b(?:and|but|so)\b", re.IGNORECASE)
_SENTENCE_END = re.compile(r"[.!?;\n]|:(?!\d)")  # "X said: ..." opens a sentence


def _sentence(text: str, start: int, end: int) -> tuple[int, int]:
    before = [m.end() for m in _SENTENCE_END.finditer(text, 0, start)]
    after = _SENTENCE_END.search(text, end)
    return (before[-1] if before else 0), (after.start() if after else len(text))


# A tense marker: (start, end, direction, kind); kind is "verb", "noun" (_AHEAD_NOUNS) or
# "done" (a past verb of _COMPLETED).
Marker = tuple[int, int, Direction, str]


def _markers(text: str, lo: int, hi: int) -> list[Marker]:
    """Tense markers in ``text[lo:hi]``; a future reading of a span wins over a past one
    ("scheduled for", "got to")."""
    marks: list[Marker] = [
        (m.start(), m.end(), "future", "verb") for m in PLAN.finditer(text, lo, hi)
    ]
    marks += [(m.start(), m.end(), "future", "verb") for m in _FUTURE.finditer(text, lo, hi)]
    for m in _NEAR.finditer(text, lo, hi):
        if not (m["ing"] and m["ing"].lower() in _NOT_PROGRESSIVE):
            marks.append((m.start(), m.end(), "near", "verb"))
    marks += [(m.start(), m.end(), "future", "noun") for m in _AHEAD_NOUNS.finditer(text, lo, hi)]
    marks += [(m.start(), m.end(), "past", "done") for m in _DONE_ING.finditer(text, lo, hi)]
    taken = [(s, e) for s, e, _, _ in marks]
    for m in _WORD.finditer(text, lo, hi):
        low = m[0].lower()
        past = low in _IRREGULAR_PAST and not (
            low == "got" and _HAVE_BEFORE.search(text, lo, m.start())
        )
        if not past and _PAST_ED.fullmatch(low) and low not in _NOT_PAST_ED:
            past = _SUBJECT_BEFORE.search(text, lo, m.start()) is not None
        if past and all(m.end() <= s or m.start() >= e for s, e in taken):
            marks.append((m.start(), m.end(), "past", "done" if low in _COMPLETED else "verb"))
    return marks


def _nearest(marks: list[Marker], start: int, end: int, opens: bool) -> Direction | None:
    """The nearest marker before the date (its verb usually comes first: "I moved there in
    March"), else, when the date opens its clause ("In March I moved"), the nearest after it. A
    verb after a date inside its clause belongs elsewhere ("... on April 9, should I have")."""
    best: tuple[int, int, Direction] | None = None
    for s, e, way, _ in marks:
        if (e > start and not opens) or e < start - _REACH:
            continue
        rank = (0, start - e) if e <= start else (1, max(s - end, 0))
        if best is None or rank < best[:2]:
            best = (*rank, way)
    return best[2] if best else None


def _deadline(marks: list[Marker], start: int, strong: bool, opens: bool) -> Direction:
    """ "by <date>": ahead, unless the nearest verb before it is past and no goal noun stands
    between them ("I had it done by March 1"), or it is a verb of getting done ("I achieved my
    goal by June 1")."""
    near = [m for m in marks if start - _DEADLINE_REACH <= m[1] <= start]
    before = sorted(near, key=lambda m: m[1])
    verbs = [m for m in before if m[3] != "noun"]
    if not verbs:  # a date opening its clause: "By March I had moved" reads its verb after it
        after = [m for m in marks if opens and m[0] >= start and m[3] != "noun"]
        return min(after)[2] if after and min(after)[2] == "past" else "future"
    if verbs[-1][2] != "past":  # "I'm staying until June": a deadline word makes "near" ahead
        return "future" if strong else verbs[-1][2]
    if not strong:  # "I accepted the role starting June 1": the start is near the acceptance
        return "near"
    last = verbs[-1]
    if last[3] == "done":
        return "past"
    return "future" if any(m[3] == "noun" and m[0] >= last[1] for m in before) else "past"


def toward(text: str, start: int, end: int) -> Direction | None:
    """Whether the date at ``text[start:end]`` lies ahead of the turn, behind it, or either."""
    lo, hi = _sentence(text, start, end)
    head = text[max(lo, start - 60) : start]
    if _SINCE_CUE.search(head):
        return "past"
    att, noun = _ATTRIBUTIVE_HEAD.search(head), _ATTRIBUTIVE_TAIL.match(text, end)
    if att and noun and noun["noun"].lower() not in _NOT_NOUNS:
        ahead = att["ahead"] or noun["noun"].lower() in ("deadline", "deadlines", "due")
        return "future" if ahead else None
    marks, opens = _markers(text, lo, hi), _OPENS.fullmatch(text, lo, start) is not None
    if _DEADLINE_CUE.search(head):
        return _deadline(marks, start, True, opens)
    if _START_CUE.search(head):
        return _deadline(marks, start, False, opens)
    if _AFTER_CUE.search(head) and not PLAN.search(text, lo, start):
        return "past"
    tense = _nearest(marks, start, end, opens)
    if tense is None and _COPULA_CUE.search(head):
        return "future"
    return tense


def recurring(text: str, start: int, end: int) -> bool:
    """Whether the date at ``text[start:end]`` is a yearly one: "born on June 3", "every year in
    May", or a birthday/anniversary stated without tense ("my birthday is June 3")."""
    lo, hi = _sentence(text, start, end)
    if _BORN_CUE.search(text, max(lo, start - 30), start) or _EVERY_YEAR.search(text, lo, hi):
        return True
    if _YEARLY.search(text, lo, hi) is None:
        return False
    # a verb before the date, or in its own clause after it, makes it one occurrence ("I
    # celebrated my birthday on June 3", "On June 3 I celebrated"); "..., can you remind me" not
    stop = _CLAUSE_BREAK.search(text, end, hi)
    clause_end = stop.start() if stop else hi
    return not any(
        kind != "noun" and (e <= start or s < clause_end)
        for s, e, _, kind in _markers(text, lo, hi)
    )


_MAX_LEAP_GAP = 8  # years between two 29 Februaries, at most


def year_toward(month: int, day: int, ref: date, way: Direction | None) -> int:
    """The year of a yearless ``month``/``day`` (day 0: the whole month) seen from ``ref``: the
    next occurrence (``ref`` included) for "future", the last one for "past" (up to the day after
    ``ref``), the nearest for "near", else ``ref``'s."""
    if way == "near":  # the occurrence nearest the turn (a tie goes ahead)
        mid = day or 15
        years = [y for y in (ref.year + 1, ref.year, ref.year - 1) if valid_day(y, month, mid)]
        return min(years, key=lambda y: abs((date(y, month, mid) - ref).days))
    step = {"future": 1, "past": -1, None: 0}[way]
    if step == 0:
        return ref.year
    # A day said in the past may be the turn's next UTC day: the speaker's clock runs ahead of
    # UTC east of Greenwich, so "I arrived on May 3" stamped 2 May 23:00 UTC is this May 3.
    local = ref
    if step < 0 and day and (ref.month, ref.day) != (12, 31):
        local = ref + timedelta(days=1)
    when, now = (month, day), (local.month, local.day if day else 0)
    year = ref.year if (when >= now if step > 0 else when <= now) else ref.year + step
    for _ in range(_MAX_LEAP_GAP):
        try:
            date(year, month, day or 1)
            return year
        except ValueError:  # 29 February outside a leap year: the nearest leap year that way
            year += step
    raise ValueError(f"no {month}/{day} within {_MAX_LEAP_GAP} years")


def valid_day(year: int, month: int, day: int) -> bool:
    """Whether the day exists (29 February only in a leap year)."""
    try:
        date(year, month, day)
    except ValueError:
        return False
    return True
