"""Whether two claim values name the same thing, or share a word.

``same_value(a, b)``: equal stems, or one refines the other ("Paris" / "Paris, France"), numbers
compared as numbers ("eighteen" is 18, "22nd" is 22, 36 is in "thirties"). ``overlaps(a, b)``:
the two share a content word ("the MBA programme" names the "part-time MBA"). Used by the gate's
claim rule to tell a repetition or refinement from a change. Pure.
"""

from __future__ import annotations

import re

from kgmem.core.synthesis import STOPWORDS, stem, tokens


def same_value(a: str, b: str) -> bool:
    """Whether two claim values name the same thing: equal stems, or one refines the other
    (numbers compared as numbers: "eighteen" is 18, "22nd" is 22, 36 is in "thirties")."""
    sa, sb = _stems(a), _stems(b)
    if not sa or not sb:
        return sa == sb
    return sa <= sb or sb <= sa or _in_decade(sa, sb) or _in_decade(sb, sa)


def overlaps(a: str, b: str) -> bool:
    """Whether two values share a word: "the MBA programme" names the "part-time MBA"."""
    return bool(_stems(a) & _stems(b))


_UNITS = [
    "zero",
    "one",
    "two",
    "three",
    "four",
    "five",
    "six",
    "seven",
    "eight",
    "nine",
    "ten",
    "eleven",
    "twelve",
    "thirteen",
    "fourteen",
    "fifteen",
    "sixteen",
    "seventeen",
    "eighteen",
    "nineteen",
]
_TENS = ["twenty", "thirty", "forty", "fifty", "sixty", "seventy", "eighty", "ninety"]
_NUMBER_WORDS = {w: i for i, w in enumerate(_UNITS)} | {w: 20 + 10 * i for i, w in enumerate(_TENS)}
_DECADES = {f"{w[:-1]}ies": 20 + 10 * i for i, w in enumerate(_TENS)}  # "thirties" -> 30
_ORDINAL_RE = re.compile(r"^(\d+)(?:st|nd|rd|th)$")


def _stems(value: str) -> frozenset[str]:
    return frozenset(_number(t.lower()) for t in tokens(value) if t.lower() not in STOPWORDS)


def as_digits(word: str) -> str:
    """A number word as its digits ("four" -> "4"); any other word unchanged."""
    n = _NUMBER_WORDS.get(word.lower())
    return word if n is None else str(n)


def _number(word: str) -> str:
    """A number word or ordinal as its digits ("eighteen" -> "18"), else the word's stem."""
    if word in _NUMBER_WORDS:
        return str(_NUMBER_WORDS[word])
    if m := _ORDINAL_RE.match(word):
        return m.group(1)
    return word if word in _DECADES else stem(word)


def _in_decade(decades: frozenset[str], numbers: frozenset[str]) -> bool:
    starts = [_DECADES[w] for w in decades if w in _DECADES]
    values = [int(n) for n in numbers if n.isdigit()]
    return bool(starts) and any(s <= v < s + 10 for s in starts for v in values)
