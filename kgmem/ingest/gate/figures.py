"""The figures a fact states: its dates, its numbers and its amounts with what each measures.

``dates(text)`` are canonical day / month / year keys ("2024-mar-3"), ``numbers(text)`` the
numbers outside them (digits, "65k", number words), ``amounts(text)`` each amount with its
measure (money, thousands, a clock time, or the word it counts), and ``measure_changed(old,
new)`` the amounts of one measure about one thing that a new fact changed. The contradiction
check (``contradiction.py``) compares two facts by these. Pure regex and token logic, no model.
"""

from __future__ import annotations

import re
from collections.abc import Iterable

from kgmem.core.synthesis import STOPWORDS, stem, tokens, words

_FULL_MONTHS = words(
    "January February March April May June July August September October November December"
)
_MONTH_KEY = {m.casefold(): m[:3].casefold() for m in _FULL_MONTHS} | {"sept": "sep"}
_FULL = "|".join(_FULL_MONTHS)
_ABBR = "Jan|Feb|Mar|Apr|Jun|Jul|Aug|Sept|Sep|Oct|Nov|Dec"
_DAY = r"\d{1,2}(?:st|nd|rd|th)?"
# Month names only in title case ("may" is a verb, "Jan" a name unless a day number follows).
DATE_RE = re.compile(
    r"\b\d{4}-\d{1,2}-\d{1,2}\b"
    r"|\b\d{1,2}/\d{1,2}/\d{2,4}\b"
    rf"|\b(?:{_FULL}|(?:{_ABBR})\.?)\s+{_DAY}(?:,?\s+\d{{4}})?\b"
    rf"|\b{_DAY}\s+(?:of\s+)?(?:{_FULL}|(?:{_ABBR})\b\.?)(?:,?\s+\d{{4}})?"
    rf"|\b(?:{_FULL})(?:\s+\d{{4}})?\b"
    r"|\b(?:1[89]|20)\d{2}s?\b"
    r"|\b(?i:monday|tuesday|wednesday|thursday|friday|saturday|sunday)s?\b"
)
# A number, with a thousands suffix ("65k") or before a clock suffix ("1am", "10:30 pm").
NUMBER_RE = re.compile(r"\b\d+(?:[.,:]\d+)*(?:[kK]\b|(?=\s?(?:am|pm|a\.m\.|p\.m\.)(?!\w))|\b)")
# What a number measures, read from its surroundings: a currency before it or a money word
# after it, a clock time, or the word it counts ("84 kilos", "3 kids").
_AMOUNT_RE = re.compile(
    r"(?P<cur>[$€£])?\s?(?P<n>\b\d+(?:[.,:]\d+)*)(?P<suf>[kK]\b|\s?(?:am|pm|a\.m\.|p\.m\.)(?!\w))?"
    r"(?:\s+(?P<word>[A-Za-z]+))?",
    re.IGNORECASE,
)
_MONEY_WORDS = frozenset(words("dollars dollar bucks euros euro pounds pound quid usd eur gbp"))
_CLOCK_RE = re.compile(r"(?:[01]?\d|2[0-3]):[0-5]\d")
_UNITS = words(
    "zero one two three four five six seven eight nine ten eleven twelve thirteen fourteen "
    "fifteen sixteen seventeen eighteen nineteen twenty"
)
_TENS = words("thirty forty fifty sixty seventy eighty ninety")
NUMBER_WORDS: dict[str, str] = {w: str(i) for i, w in enumerate(_UNITS)} | {
    w: str(10 * i) for i, w in enumerate(_TENS, 3)
}

# Words that frame a statement without being part of its subject ("Actually, now X is ...").
FRAMING = frozenset(
    stem(w)
    for w in words(
        "actually now currently still really no well oh correction update sorry meant "
        "think guess anymore longer instead"
    )
)


def dates(text: str) -> list[str]:
    return _unique(_canonical_date(m.group(0)) for m in DATE_RE.finditer(text))


def _canonical_date(span: str) -> str:
    parts = re.findall(r"[A-Za-z]+|\d+", span)
    if re.fullmatch(r"\d{4}-\d{1,2}-\d{1,2}", span):
        y, m, d = (int(p) for p in parts)
        name = _FULL_MONTHS[m - 1][:3].casefold() if 1 <= m <= 12 else str(m)
        return f"{y}-{name}-{d}"
    words = [p.casefold() for p in parts if p.casefold() not in {"st", "nd", "rd", "th", "of"}]
    year = [w for w in words if w.isdigit() and len(w) == 4]
    month = [_MONTH_KEY.get(w, w[:3]) for w in words if w.isalpha() and w in _MONTH_KEY]
    day = [str(int(w)) for w in words if w.isdigit() and len(w) <= 2]
    rest = [w for w in words if w.isalpha() and w not in _MONTH_KEY]  # weekdays, "1990s"
    return "-".join(year + month + day + [w.removesuffix("s") for w in rest]) or span.casefold()


def numbers(text: str) -> list[str]:
    blanked = DATE_RE.sub(" ", text)
    found = [m.group(0).replace(",", "") for m in NUMBER_RE.finditer(blanked)]
    found = [n.rstrip("0").rstrip(".") if "." in n else n for n in found]
    found += [NUMBER_WORDS[t.casefold()] for t in tokens(blanked) if t.casefold() in NUMBER_WORDS]
    return _unique(found)


def amounts(text: str) -> dict[str, str]:
    """Each amount of ``text`` (dates left out) → what it measures: ``money``, ``thousands``
    ("65k"), ``clock``, or the stem of the word it counts; an amount with none is left out."""
    out: dict[str, str] = {}
    for m in _AMOUNT_RE.finditer(DATE_RE.sub(" ", text)):
        n, suf, word = m["n"].replace(",", ""), (m["suf"] or "").strip().lower(), m["word"] or ""
        if m["cur"] or word.lower() in _MONEY_WORDS:
            out[n + suf] = "money"
        elif suf == "k":
            out[n + suf] = "thousands"  # "65k a year", "a 10k run"
        elif suf or _CLOCK_RE.fullmatch(n):
            hour, _, minute = n.partition(":")
            out[f"{hour}:{minute or '00'}{suf.replace('.', '')}"] = "clock"
        elif word and word.lower() not in STOPWORDS and word.isalpha():
            out[n] = stem(word)
    return out


def measure_changed(old: str, new: str) -> tuple[str, str] | None:
    """(old amounts, new amounts) when an amount of one measure was replaced by another of the
    same measure about the same thing — the words around the two share one ("the rent is 1,800
    dollars" / "raised the rent to 2,050 dollars"; not "$1,200 a month to live in Toronto" /
    "$1,500 for relocation") — and neither text keeps the other's."""
    before, after = amounts(old), amounts(new)
    gone = {v: u for v, u in before.items() if v not in after}
    added = {v: u for v, u in after.items() if v not in before}
    pairs = [
        (a, b)
        for a, unit in gone.items()
        for b, other in added.items()
        if unit == other and _around(old, a) & _around(new, b)
    ]
    if not pairs:
        return None
    return " ".join(_unique(a for a, _ in pairs)), " ".join(_unique(b for _, b in pairs))


_AROUND = 4  # words each side of an amount that say what it is an amount of


def _around(text: str, amount: str) -> frozenset[str]:
    """The content stems within ``_AROUND`` words of ``amount`` in ``text``, names left out."""
    digits = re.sub(r"\D", "", amount.split(":")[0])
    toks = tokens(DATE_RE.sub(" ", text))
    out: set[str] = set()
    for i, t in enumerate(toks):
        if digits and re.sub(r"\D", "", t).startswith(digits) and t[:1].isdigit():
            for w in toks[max(0, i - _AROUND) : i + _AROUND + 1]:
                low = w.casefold()
                if w[:1].isalpha() and not w[:1].isupper() and low not in STOPWORDS:
                    out.add(stem(w))
    return frozenset(out - FRAMING - _PERIODS - {stem(w) for w in _MONEY_WORDS})


# "a month", "per year": how often an amount comes, not what it is of ("$200 a month for
# groceries" and "$60 a month for the gym" are two amounts)
_PERIODS = frozenset(stem(w) for w in words("day week month year hour night morning evening"))


def _unique(items: Iterable[str]) -> list[str]:
    return list(dict.fromkeys(items))
