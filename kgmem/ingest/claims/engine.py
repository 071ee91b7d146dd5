"""The local claim engine: what a memory asserts, as (subject, slot, value, polarity).

``extract_claim(content, speaker=..., names=...)`` reads a memory's third-person text with the
lexicon of :mod:`kgmem.ingest.claims.patterns` and returns a :class:`~kgmem.records.Claim` or None
(no slot the vocabulary knows, a hypothetical, a value that does not parse: the memory is then
stored as a plain memory). The **subject** is the name the wording gives it ("Maya's favourite
colour is"), else the nearest name before the verb in the same clause ("Maya's brother Leo moved"
→ Leo; "Maya's sister lives in Boston" → "maya's sister", another subject than Maya), else the
speaker; who only reports it ("Lucía's GI said ...") is not the subject, nor is a doing that
opens the sentence ("Cutting down to one coffee a day ..."). The **value** is cut,
normalised and folded by :mod:`kgmem.ingest.claims.value_text`, also when it is said before its
slot ("Queen is Ravi's favourite band"). A hedge ("might", "if") keeps a wording from being a
claim unless a clause of fact stands between them ("could you suggest recipes now that Maya is
vegan"). A place slot's value that is a day, an hour or an unnamed part of one's work ("moved to
the sales team") is no place. Whether two values name the same thing is
:mod:`kgmem.ingest.claims.sameness`. Pure, no model.
"""

from __future__ import annotations

import itertools
import re

from kgmem.core.synthesis import STOPWORDS, stem
from kgmem.core.text import normalize_name
from kgmem.ingest.claims.lexicon import (
    ADDITIVE_RE,
    HYPOTHETICAL_RE,
    KIN_RE,
    KIND_WORDS,
    ClaimPattern,
)
from kgmem.ingest.claims.patterns import PATTERNS
from kgmem.ingest.claims.sameness import as_digits
from kgmem.ingest.claims.value_text import (
    BOUNDARY,
    NAME_RE,
    NOT_NAMES,
    VALUE_DROP,
    antecedent,
    canonical,
    trim_value,
    value_before,
)
from kgmem.records import Claim
from kgmem.taxonomy.favourite_kinds import FAVOURITE_KINDS
from kgmem.taxonomy.slots import Polarity, Slot, slot_key

# Confidence of a claim read by the local engine: a wording that names the slot outright
# ("favourite colour is", "moved to") is surer than one inferred from a bare verb.
SURE = 0.8
LOOSE = 0.6
_LOOSE_SLOTS = frozenset({Slot.QUANTITY, Slot.HOBBY, Slot.PREFERENCE, Slot.POSSESSION})

_CLAUSE_RE = re.compile(r"[,;:.!?]|\b(?:and|but|because|while|whereas)\b")
_REPORTS_RE = re.compile(
    r"\s+(?:said|says|told|tells|thinks|thought|confirmed|mentioned|reckons|explained)\b",
    re.IGNORECASE,
)
# a clause of fact after a hedge: "would love recipes now that she is vegan"
_FACTUAL_RE = re.compile(
    r"\b(?:now that|since|because|given that|seeing that|ever since|considering that)\b",
    re.IGNORECASE,
)
# one can hold two of these at once, and says so: "also", "a side job", "a weekend job" ("another
# job" is most often the next one, not a second)
_SECOND_OK = frozenset({Slot.EMPLOYER, Slot.JOB_TITLE, Slot.RESIDENCE})
_ALSO_RE = re.compile(
    r"\b(?:also|as well|additional|extra|second (?:job|home|place)|side (?:job|gig)"
    r"|weekend job|part-time job|holiday home)\b",
    re.IGNORECASE,
)
_NAMED_PLACES = frozenset({Slot.RESIDENCE, Slot.EMPLOYER})
_SAID_WHEN = re.compile(r"\b(?:these days|lately|at the moment|right now|nowadays|by far)\b")
# words that name no thing a date or amount is for: "pushed the deadline to June 1"
# Words a budget's or a deadline's thing is said with that name no thing: "the full paper", "the
# final draft", "the new sofa" are the paper, the draft, the sofa.
_NO_THING = frozenset(
    {"deadline", "deadlines", "date", "due", "full", "final", "new", "first", "second", "third",
     "next", "last", "main", "whole", "entire", "complete", "initial", "revised", "updated",
     "official", "actual", "big", "small", "current", "original"}
)  # fmt: skip
_KIND_ENDS = BOUNDARY | frozenset({"these", "those", "lately", "nowadays", "days", "by"})
# the kind a favourite's word names ("cuisine", "dish" and "food" are one favourite); a word not
# in the vocabulary keys its own kind
_KIND_OF_WORD = {
    stem(word.split()[-1]): kind for kind, words in FAVOURITE_KINDS.items() for word in words
}
# the qualifier of a favourite whose kind is not said: never stored (``reading`` replaces it)
UNSAID_KIND = "?"
# where the doing of a plan given up ends: "apply for the PhD after all, ..."
_PLAN_END_RE = re.compile(
    r"\b(?:after all|anymore|any more|either|though|for now|this (?:year|autumn|fall|spring|"
    r"summer|winter))\b",
    re.IGNORECASE,
)
_PLAN_WORDS = 6
_ARTICLES = frozenset({"a", "an", "the"})
_BIRTH_WORDS = frozenset({stem("birthday"), stem("bday"), stem("b-day")})
_SOMEONE = frozenset({"someone", "somebody", "someone new", "a guy", "a girl", "new guy"})


def extract_claim(
    content: str, *, speaker: str | None = None, names: frozenset[str] = frozenset()
) -> Claim | None:
    """The claim ``content`` makes (see module doc), or None."""
    # The earliest match wins (the main clause: "switched to almond milk, oat milk stopped
    # agreeing with her" is about milk, not a hobby), then the table's order.
    best: tuple[int, int, Claim] | None = None
    for order, pattern in enumerate(PATTERNS):
        for match in pattern.regex.finditer(content):
            if best is not None and match.start() >= best[0]:
                break
            claim = _claim(content, match, pattern, speaker, names)
            if claim is not None:
                best = (match.start(), order, claim)
                break
    return best[2] if best else None


def _claim(
    content: str,
    match: re.Match[str],
    pattern: ClaimPattern,
    speaker: str | None,
    names: frozenset[str],
) -> Claim | None:
    clause = _clause_before(content, match.start())
    if not pattern.hypothetical_ok and _hedged(clause, match.group(0)):
        return None  # "might move to Denver", "thinking about going vegan": nothing holds yet
    groups = match.groupdict()
    raw = groups.get("v") or groups.get("v2") or ""
    if pattern.value_before:
        raw = value_before(clause) or antecedent(content, match.start() - len(clause), clause)
        if pattern.slot in _NAMED_PLACES and not raw[:1].isupper():
            return None  # "The house is Ana's home": a home or a work place said first is named
    if pattern.slot is Slot.QUANTITY:
        raw = as_digits(raw.strip())  # "down to one coffee a day": a count, not a word to trim
    value = trim_value(raw)
    if pattern.slot is Slot.GOAL and pattern.polarity is Polarity.ENDED:
        # a plan given up is the whole doing ("apply for the PhD"), not its first word
        doing = _PLAN_END_RE.split(raw)[0].lower().split()[:_PLAN_WORDS]
        value = " ".join(w.strip("'\"’") for w in doing if w not in _ARTICLES)
    if pattern.slot is Slot.DEADLINE and (clock := _AT_CLOCK_RE.match(raw.strip())):
        # "April 21 at 3 PM": the hour is part of the date (the resolved day is not)
        value = re.sub(r" \([\d-]+\)", "", clock.group(0)).lower()
    if pattern.slot in _PLACES and (
        _DATE_VALUE_RE.match(value)
        or _AMOUNT_VALUE_RE.match(value)
        or (_NO_PLACE_RE.search(value) and not (raw.split() or [""])[-1][:1].isupper())
    ):
        # "the defence has been moved to June 2", "the standup moved to 10:15", "moved to the
        # sales team": a day, an hour or a part of one's work (not a named one: "the Manhattan
        # Project") is no place one lives or works at
        return None
    ended = pattern.polarity is Polarity.ENDED
    if not value and not (ended and pattern.slot in (Slot.PARTNER, Slot.RELATIONSHIP_STATUS)):
        return None
    qualifier = _qualifier(pattern, match, value)
    if qualifier is None:
        return None
    if ADDITIVE_RE.search(match.group(0)) and not ended and pattern.slot is Slot.POSSESSION:
        return None  # "another car": an addition, not a replacement
    if (
        pattern.slot is Slot.POSSESSION
        and qualifier == "home"
        and _PLACED_RE.search(content, match.start(), match.end() + 20)
    ):
        return None  # "got their own flat in Sheffield": where one lives, read as a residence
    if pattern.slot in _SECOND_OK and not ended and _ALSO_RE.search(clause + match.group(0)):
        return None  # "also started a weekend job at a bookshop": a second job, not a new one
    subject = _subject(content, match, clause, speaker, names)
    if not subject:
        return None
    if value.endswith(f" {subject}") and pattern.slot in _PLACES:
        value = value[: -len(subject) - 1]  # "since relocating to Montreal Ethan keeps ..."
    slot = pattern.slot
    if slot is Slot.PARTNER and not ended and value in _SOMEONE:
        # "started seeing someone": a status, not a partner named "someone"
        slot, value = Slot.RELATIONSHIP_STATUS, "someone"
    if ended and slot is Slot.PARTNER and not _is_name(raw):
        value = ""
    if ended and slot is Slot.POSSESSION and all(w in KIND_WORDS for w in value.split()[-1:]):
        value = qualifier  # "gave their PS5 away": whichever console was held
    key = slot_key(slot, qualifier)
    value = pattern.value or canonical(key, value)
    return Claim(
        subject=subject,
        slot=key,
        value=value,
        polarity=pattern.polarity.value,
        confidence=LOOSE if slot in _LOOSE_SLOTS else SURE,
    )


def _hedged(clause: str, matched: str) -> bool:
    """A hedge governs the match ("might move to Denver"), unless a clause of fact stands between
    them ("could you suggest recipes now that Maya is vegan": the request is hedged, not the
    diet)."""
    if HYPOTHETICAL_RE.search(matched):
        return True
    hedges = list(HYPOTHETICAL_RE.finditer(clause))
    if not hedges:
        return False
    return not _FACTUAL_RE.search(clause, hedges[-1].end())


def _qualifier(pattern: ClaimPattern, match: re.Match[str], value: str) -> str | None:
    """The qualifier of a qualified slot (None when it cannot be read), "" otherwise."""
    slot = pattern.slot
    if slot not in (Slot.FAVOURITE, Slot.PREFERENCE, Slot.POSSESSION, Slot.GOAL, Slot.DEADLINE,
                    Slot.BUDGET, Slot.QUANTITY):  # fmt: skip
        return ""
    if pattern.qualifier:
        return pattern.qualifier
    given = (match.groupdict().get("q") or "").strip().lower()
    if slot is Slot.FAVOURITE:  # "favourite book now is": "now" is not the kind
        given = _SAID_WHEN.sub("", given).strip()
        # "favourite colour these days": the kind ends where the time words start
        given = " ".join(itertools.takewhile(lambda w: w not in _KIND_ENDS, given.split()))
        if pattern.value_before and given.split()[:1] and given.split()[0] in BOUNDARY:
            given = ""  # "Pavel's favourite after the trip": no kind said
        if not given and pattern.value_before:
            # "Fleetwood Mac is Zainab's absolute favourite": the reader names the kind from
            # the value (``reading``), or keeps no claim
            return UNSAID_KIND
        return favourite_kind(" ".join(w for w in given.split() if w not in BOUNDARY)) or None
    if slot is Slot.POSSESSION:
        if given in KIND_WORDS:  # "Maya's new car is a Polestar": the kind is said
            return KIND_WORDS[given]
        kinds = [KIND_WORDS[w] for w in value.split() if w in KIND_WORDS]
        return kinds[-1] if kinds else (_head(value) or None)
    if slot is Slot.PREFERENCE:
        # "almond milk" and "oat milk" are both milk; a one-word value is its own kind
        return _head(value) or None
    if slot in (Slot.BUDGET, Slot.DEADLINE):
        # "books" and "book purchases" are one budget: the first content word names it; an
        # appointment also by whom it is with ("zoom-director": a call with Ana is not one with Ben)
        thing, _, party = given.partition(" with ")
        first = [w for w in trim_value(thing).split() if w not in STOPWORDS | _NO_THING]
        named = stem(first[0]) if first else "general"
        if slot is Slot.DEADLINE and named in _BIRTH_WORDS and len(first) == 1:
            # "Maya's birthday is on March 3" is a birthday, read by its own pattern ("her
            # birthday party is on March 3" is a party's date)
            return None
        return f"{named}-{stem(party.split()[-1])}" if party.split() else named
    if slot is Slot.QUANTITY:
        head = _head(given)  # "retire at 55 instead": "instead" counts nothing
        ok = head and head not in STOPWORDS and head not in BOUNDARY and len(head) > 2
        return head if ok else None
    return "general"  # a goal: one current goal unless the wording says for what


def favourite_kind(words: str) -> str:
    """The key of a favourite's kind said in ``words`` ("TV show" → "show", "cuisine" →
    "food"): the kind its head word names, else the stem of that word; "" for none. The local
    reader and the LLM engine key favourites alike with it."""
    head = _head(words.lower())
    return _KIND_OF_WORD.get(head, head)


def _head(text: str) -> str:
    words = [w for w in text.split() if w not in VALUE_DROP]
    return stem(words[-1]) if words else ""


def _clause_before(content: str, at: int) -> str:
    """The text of the clause the match sits in, up to the match."""
    before = content[:at]
    cut = max((m.end() for m in _CLAUSE_RE.finditer(before)), default=0)
    return before[cut:]


def subject_before(
    content: str, at: int, *, speaker: str | None, names: frozenset[str] = frozenset()
) -> str:
    """Whom the clause around character ``at`` is about (see module doc), or "" for no one."""
    return _clause_subject(_clause_before(content, at), speaker, names, content[at:])


def _subject(
    content: str, match: re.Match[str], clause: str, speaker: str | None, names: frozenset[str]
) -> str:
    given = match.groupdict().get("s")
    if given:
        words = given.split()
        while len(words) > 1 and (words[0].lower() in NOT_NAMES or _GERUND_RE.match(words[0])):
            words.pop(0)  # "Loving Maya's new Tesla": the name is Maya
        if (
            len(words) == 1
            and match.start("s") == 0
            and _opening_gerund(words[0], content[match.end("s") :])
        ):
            # "Cutting down to one coffee ...": the doing, not a name
            return _clause_subject(clause, speaker, names, content[match.start() :])
        return normalize_name(" ".join(words))
    return _clause_subject(clause, speaker, names, content[match.start() :])


def _clause_subject(clause: str, speaker: str | None, names: frozenset[str], rest: str = "") -> str:
    """Whom ``clause`` (followed in the text by ``rest``) is about."""
    found = list(NAME_RE.finditer(clause))
    for m in reversed(found):
        words = m.group(0).split()
        while words and words[0].lower() in NOT_NAMES:
            words.pop(0)  # "On Monday Maya starts at Diageo": the name is Maya
        if words and m.start() == 0 and _opening_gerund(words[0], clause[m.end() :] + rest):
            words.pop(0)  # "Cutting down to one coffee a day ...": the doing, not a name
        name = " ".join(words)
        if not name:
            continue
        if re.search(r"['’]s\s+$", clause[: m.start()]):
            continue  # "the user's Zotero library has 45 sources": a name in what someone owns
        after = clause[m.end() :]
        rel = re.match(r"['’]s\s+(\w+)(?:\s+(" + NAME_RE.pattern + r"))?", after)
        if rel and KIN_RE.match(rel.group(1)):
            if rel.group(2):  # "Maya's brother Leo"
                return normalize_name(rel.group(2))
            return f"{normalize_name(name)}'s {rel.group(1).lower()}"  # "maya's sister"
        if rel:
            continue  # "Maya's coffee ...": the possessor is not the subject of this verb
        if _REPORTS_RE.match(after):
            continue  # "Lucía's GI said ...": who reports it is not whom it is about
        if _OBJECT_RE.search(clause[: m.start()]):
            continue  # "pushed to the GitHub repository with 150 commits": a name in an object
        return normalize_name(name)
    if re.search(r"\b(?:he|she|they|it)\b", clause, re.IGNORECASE) and not names:
        return ""  # an unresolved pronoun names no one we know
    return normalize_name(speaker) if speaker else ""


def _opening_gerund(word: str, after: str) -> bool:
    """A clause that opens with a doing ("Cutting down ...", "Living with ...", "Taking the bus
    ..."): an -ing word followed by a particle, a preposition or an article is no name ("Irving
    said ..." keeps its name)."""
    return bool(_GERUND_RE.match(word)) and _GERUND_NEXT_RE.match(after) is not None


_GERUND_NEXT_RE = re.compile(
    r"\s+(?:down|up|out|off|back|over|away|to|with|in|at|on|for|from|into|the|a|an|my|our"
    r"|his|her|their|fully|more|less)\b"
)
_PLACES = frozenset({Slot.RESIDENCE, Slot.EMPLOYER, Slot.SCHOOL})
_DATE_VALUE_RE = re.compile(
    r"(?:january|february|march|april|may|june|july|august|september|october|november|december"
    r"|monday|tuesday|wednesday|thursday|friday|saturday|sunday|tomorrow|today|tonight|next"
    r" (?:week|month|year))\b(?:\s+\d|$)|\d{1,2}(?:st|nd|rd|th)?(?: of)? (?:jan|feb|mar|apr|may"
    r"|jun|jul|aug|sep|oct|nov|dec)"
)
# a time of day or a bare amount: no place ("moved to 10:15", "moved to 3pm", "moved to 20")
_AMOUNT_VALUE_RE = re.compile(r"\d[\d:.,]*\s?(?:am|pm|a\.m\.|p\.m\.|k)?$", re.IGNORECASE)
_AT_CLOCK_RE = re.compile(
    r"\w+\.? \d{1,2}(?:st|nd|rd|th)?(?: \([\d-]+\))?,? at \d{1,2}(?::\d{2})?\s?(?:am|pm)?",
    re.IGNORECASE,
)
_NO_PLACE_RE = re.compile(
    r"\b(?:team|project|role|position|department|squad|shift|meeting|sessions?|class(?:es)?"
    r"|standup|rotation|desk)$"
)
_GERUND_RE = re.compile(r"^[A-Z][a-z]+ing$")
# a dwelling's place said right after it ("... flat in Sheffield")
_PLACED_RE = re.compile(r"\s(?:in|near) (?-i:[A-Z])", re.IGNORECASE)
# the words before a name that is the object of a verb or a preposition, not the clause's subject
_OBJECT_RE = re.compile(
    r"\b(?:the|a|an|to|with|on|in|at|from|for|into|onto|of|by|via|about|like)\s+$", re.IGNORECASE
)


def _is_name(raw: str) -> bool:
    return bool(NAME_RE.match(raw.strip()))
