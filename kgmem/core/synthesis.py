"""Write-time synthesis: merge a stored memory's text with a near-duplicate's, locally.

``synthesize(existing, new)`` never loses a specific: every token that carries a name, a number
or a date (a token with a digit, or a capitalised word that is not a stopword) and every content
word of both texts is in the result. If one text already covers the other, the covering one is
returned (a subset adds nothing; a superset replaces); otherwise the existing text is
kept whole and the sentences of the new one that carry something new are appended after ``"; "``
(the heuristic fallback, appending only what is new instead of the whole text). The result is
idempotent — ``synthesize(x, x) == x`` and ``synthesize(synthesize(a, b), b) == synthesize(a,
b)`` for texts within the cap — and never longer than ``MAX_SYNTHESIS_CHARS``; a merge that would
be longer keeps the existing text (the new statement stays on its episode).
``synthesize_conflict`` is the merge for two statements that contradict: the new one stated as
current, the old one kept as "(previously: ...)". This module also holds the token helpers the
gate and the contradiction detector share. Pure functions, no I/O.
"""

from __future__ import annotations

import re
from functools import lru_cache

MAX_SYNTHESIS_CHARS = 8192
SEPARATOR = "; "

# A token is a run of word characters, optionally joined by in-word punctuation, so "U.S",
# "3.5", "1,000", "2024-05-03", "10:30" and "O'Brien" each stay one token. Tokens never start or
# end with punctuation, which is what lets the merge strip and join clauses without cutting one.
_TOKEN_RE = re.compile(r"\w+(?:[’'.,\-/:]\w+)*")
# Sentence and clause ends the merge splits the new text on.
_CLAUSE_SPLIT_RE = re.compile(r"(?<=[.!?;])\s+")
_TRAILING_PUNCT = " \t\r\n.;,:!?"


def words(text: str) -> tuple[str, ...]:
    """The white-space separated words of a literal (for word tables)."""
    return tuple(text.split())


STOPWORDS: frozenset[str] = frozenset(
    words(
        """a an the and or but so if then than that this these those there here it its it's
    i me my mine we us our you your he him his she her they them their who whom whose which what
    when where why how is are was were am be been being do does did has have had having will
    would shall should can could may might must of to in on at by for with from into onto about
    as up down out over under again also too very just really quite some any each every all
    both either one's s t"""
    )
)

# British/American pairs, so "favourite colour" and "favorite color" compare equal.
_SPELLING: dict[str, str] = {
    "colour": "color",
    "colours": "colors",
    "favourite": "favorite",
    "favourites": "favorites",
    "favour": "favor",
    "behaviour": "behavior",
    "neighbour": "neighbor",
    "neighbours": "neighbors",
    "centre": "center",
    "theatre": "theater",
    "organisation": "organization",
    "travelling": "traveling",
    "travelled": "traveled",
}
_NO_UNDOUBLE = frozenset("lsz")  # "falling" -> "fall", not "fal"


def tokens(text: str) -> list[str]:
    """The surface tokens of ``text``, in order."""
    return _TOKEN_RE.findall(text)


def is_specific(token: str) -> bool:
    """A token that names, counts or dates something: it has a digit, or it starts upper-case
    and is not a stopword (a sentence-initial "The" or "She" names nothing)."""
    if any(ch.isdigit() for ch in token):
        return True
    return token[:1].isupper() and token.casefold() not in STOPWORDS


def specifics(text: str) -> frozenset[str]:
    """The specific tokens (names, numbers, dates, capitalised words) of ``text``, exact case."""
    return frozenset(t for t in tokens(text) if is_specific(t))


@lru_cache(maxsize=8192)
def stem(token: str) -> str:
    """A crude, deterministic English stem (casefolded), enough to match inflections.

    "likes"/"liked"/"liking"/"like" -> "lik"; "stopped" -> "stop"; possessives dropped.
    """
    word = token.casefold()
    for suffix in ("'s", "’s"):
        if word.endswith(suffix):
            word = word[: -len(suffix)]
    word = _SPELLING.get(word, word)
    if not word.isalpha() or len(word) < 4:
        return word
    undouble = False
    if word.endswith("ies") and len(word) > 4:
        word = word[:-3] + "y"
    elif word.endswith("ing") and len(word) > 5:
        word, undouble = word[:-3], True
    elif word.endswith("ed") and len(word) > 4:
        word, undouble = word[:-2], True
    elif word.endswith("s") and not word.endswith(("ss", "us", "is")):
        word = word[:-1]
    if undouble and len(word) > 3 and word[-1] == word[-2] and word[-1] not in _NO_UNDOUBLE:
        word = word[:-1]
    if word.endswith("e") and len(word) > 3:
        word = word[:-1]
    return word


def content_stems(text: str) -> frozenset[str]:
    """Stems of the non-stopword tokens of ``text`` (what the text is about, case-folded)."""
    return frozenset(_content_stem_list(tokens(text)))


def _content_stem_list(toks: list[str]) -> list[str]:
    return [stem(t) for t in toks if t.casefold() not in STOPWORDS]


def covers(text: str, other: str) -> bool:
    """True if ``text`` already says everything ``other`` says, token-wise: every specific token
    of ``other`` appears in ``text`` exactly and every content word of ``other`` by stem."""
    return _covers(tokens(text), tokens(other))


def _covers(have: list[str], want: list[str]) -> bool:
    exact = set(have)
    stems = set(_content_stem_list(have))
    return all(_known(t, exact, stems) for t in want)


def _known(token: str, exact: set[str], stems: set[str]) -> bool:
    if is_specific(token):
        return token in exact
    return token.casefold() in STOPWORDS or stem(token) in stems


def synthesize(existing: str, new: str) -> str:
    """Merge ``new`` into ``existing`` without losing any specific of either (see module doc)."""
    if existing == new:
        return _bound(existing)
    have, want = tokens(existing), tokens(new)
    if _covers(have, want):  # the new text is a subset: nothing to add (docs/write-path.md)
        return _bound(existing)
    if _covers(want, have):  # the new text is a superset: it says everything, and more
        return _bound(new) if len(new) <= MAX_SYNTHESIS_CHARS else _bound(existing)
    exact, stems = set(have), set(_content_stem_list(have))
    fresh = [
        clause.strip(_TRAILING_PUNCT)
        for clause in _CLAUSE_SPLIT_RE.split(new.strip())
        if not all(_known(t, exact, stems) for t in tokens(clause))
    ]
    base = existing.strip()
    end = "." if base.endswith(".") else ""
    merged = SEPARATOR.join([base.rstrip(_TRAILING_PUNCT), *fresh]) + end
    # Over the cap, keep the stored text rather than cut a specific out of the middle of it.
    return merged if len(merged) <= MAX_SYNTHESIS_CHARS else _bound(existing)


def synthesize_conflict(existing: str, new: str) -> str:
    """The merge for two statements that contradict (the ``merge`` strategy): the new one
    is stated as current and the old one kept beside it as history — "X is green (previously: X
    is blue)" — so every specific of both survives. Idempotent like ``synthesize``."""
    if covers(existing, new) or covers(new, existing):
        return synthesize(existing, new)
    merged = f"{new.strip().rstrip(_TRAILING_PUNCT)} (previously: {existing.strip()})"
    return merged if len(merged) <= MAX_SYNTHESIS_CHARS else _bound(existing)


def _bound(text: str) -> str:
    if len(text) <= MAX_SYNTHESIS_CHARS:
        return text
    cut = text[:MAX_SYNTHESIS_CHARS]
    space = cut.rfind(" ", MAX_SYNTHESIS_CHARS - 200)
    return (cut[:space] if space > 0 else cut).rstrip()
