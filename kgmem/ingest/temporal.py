"""Temporal normalisation and foresight for the write path (seed 004, Formation).

Contract: every function is pure (no I/O, no clock, standard library only). Dates are resolved
against ``ref``, the timestamp of the turn that said them, never against today, so re-ingesting
an old conversation yields the same dates. ``ref`` is a ``datetime`` (naive means UTC, aware is
converted to UTC; a plain ``date`` means its UTC midnight) and text must be a ``str``; anything
else raises ``InvalidInput``. ``find_dates`` returns non-overlapping ``TemporalRef`` in text
order and never raises on any string; ``resolved`` is the first day of the period (the Monday for
a week, the 1st for a month, 1 January for a year). ``rewrite_relative`` appends the resolved
date after every expression whose meaning depends on ``ref`` and is idempotent. ``foresight``
gives a plan its ``valid_until`` (None when the text is not a plan); ``valid_from`` gives the
start of the earliest past-or-present date mentioned, else ``ref``. Bare weekdays ("on Friday")
are not resolved: without tense analysis they are as often past as future.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass
from datetime import UTC, date, datetime, time, timedelta
from functools import partial
from typing import Literal

from kgmem.errors import InvalidInput

Granularity = Literal["day", "week", "month", "year"]
Resolved = tuple[date, Granularity] | None

# Seed 004, Formation heuristic fallback: 'Foresight: "plan to", "will", "going to" →
# validUntil = +7 days default'. We apply the +7 days only when the plan names no time; when it
# does ("next month", "on June 3"), the plan stays valid until the end of that period instead.
FORESIGHT_DEFAULT = timedelta(days=7)


@dataclass(frozen=True)
class TemporalRef:
    """One date expression found in a text: its span, the period it names, and how precise it is."""

    text_span: str
    start: int
    end: int
    resolved: date
    granularity: Granularity
    relative: bool = True  # False for explicit dates ("8 May 2023", "2019")

    @property
    def last_day(self) -> date:
        """The last day (inclusive) of the period the expression names."""
        d = self.resolved
        if self.granularity == "week":
            return d + timedelta(days=6)
        if self.granularity == "month":
            return _month_shift(d, 1) - timedelta(days=1)
        if self.granularity == "year":
            return date(d.year, 12, 31)
        return d

    @property
    def label(self) -> str:
        """The ISO form appended by ``rewrite_relative``."""
        d = self.resolved
        if self.granularity == "week":
            return f"week of {d.isoformat()}"
        if self.granularity == "month":
            return f"{d.year:04d}-{d.month:02d}"
        if self.granularity == "year":
            return f"{d.year:04d}"
        return (
            f"weekend of {d.isoformat()}" if "weekend" in self.text_span.lower() else d.isoformat()
        )


def _utc(ref: object) -> datetime:
    if isinstance(ref, datetime):
        try:
            return ref.replace(tzinfo=UTC) if ref.tzinfo is None else ref.astimezone(UTC)
        except OverflowError as exc:
            raise InvalidInput(f"reference datetime {ref!r} is out of range") from exc
    if isinstance(ref, date):
        return datetime.combine(ref, time(), UTC)
    raise InvalidInput(f"reference must be a datetime, got {type(ref).__name__}")


def _text(text: object) -> str:
    if not isinstance(text, str):
        raise InvalidInput(f"text must be a string, got {type(text).__name__}")
    return text.replace("\u2019", "'")  # curly apostrophes: same length, so offsets stay valid


def _week_start(d: date) -> date:
    return d - timedelta(days=d.weekday())


def _month_shift(d: date, n: int) -> date:
    idx = d.year * 12 + d.month - 1 + n
    return date(idx // 12, idx % 12 + 1, 1)


def _shift(ref: date, unit: str, n: int) -> Resolved:
    """``n`` units from ``ref`` (negative = past), at the unit's own granularity."""
    if unit == "day":
        return ref + timedelta(days=n), "day"
    if unit == "week":
        return _week_start(ref + timedelta(weeks=n)), "week"
    if unit == "weekend":  # the Saturday, a day: "this weekend" is the Saturday of ref's ISO week
        return _week_start(ref) + timedelta(days=5 + 7 * n), "day"
    if unit == "month":
        return _month_shift(ref, n), "month"
    return date(ref.year + n, 1, 1), "year"


_WEEKDAYS = ("monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday")
_MONTH_NAMES = (  # full names and abbreviations, in calendar order
    "january jan|february feb|march mar|april apr|may|june jun|july jul|august aug"
    "|september sept sep|october oct|november nov|december dec"
)
_MONTHS = {name: i + 1 for i, names in enumerate(_MONTH_NAMES.split("|")) for name in names.split()}
_DIGIT_WORDS = "zero one two three four five six seven eight nine"
_NUMBERS = {word: i for i, word in enumerate(_DIGIT_WORDS.split())}
_NUMBERS |= {"ten": 10, "eleven": 11, "twelve": 12, "a": 1, "an": 1, "several": 3}
_NUMBERS |= {"a couple of": 2, "couple of": 2, "a few": 3, "few": 3}
_NUM = (
    r"(?P<n>\d{1,3}|a\s+couple\s+of|couple\s+of|a\s+few|few|several|"
    + "|".join(sorted((k for k in _NUMBERS if " " not in k), key=len, reverse=True))
    + ")"
)
_UNIT = r"(?P<unit>day|week|month|year)s?"
_MON = "(?P<mon>" + "|".join(sorted(_MONTHS, key=len, reverse=True)) + r")\.?"
_FULLMON = "(?P<mon>" + "|".join(k for k in _MONTHS if len(k) > 3 or k == "may") + ")"
_WD = "(?P<wd>" + "|".join(_WEEKDAYS) + ")"
_THIS = r"this(?:\s+(?:past|coming))?"
# fmt: off
_STEP = {"last": -1, "past": -1, "previous": -1, "this past": -1, "this": 0,
         "next": 1, "coming": 1, "upcoming": 1, "this coming": 1}
_DAY_WORDS = {"the day before yesterday": -2, "yesterday": -1, "last night": -1, "today": 0,
              "tonight": 0, "this morning": 0, "this afternoon": 0, "this evening": 0,
              "tomorrow": 1, "the day after tomorrow": 2,
              "dün": -1, "bugün": 0, "yarın": 1}  # seed 004: "bugün→today, yarın→tomorrow, dün→…"
# fmt: on

# Explicit dates as (pattern, granularity); reused, ungrouped, as anchors of "the week before X".
_EXPLICIT: tuple[tuple[str, Granularity], ...] = (
    (r"(?P<y>\d{4})[-/](?P<m>\d{1,2})[-/](?P<d>\d{1,2})(?!\d)", "day"),
    (
        r"(?P<d>\d{1,2})(?:st|nd|rd|th)?\s+(?:of\s+)?" + _MON + r"(?:,?\s+(?P<y>\d{4}))?(?![\w-])",
        "day",
    ),
    (_MON + r"\s+(?P<d>\d{1,2})(?:st|nd|rd|th)?(?![\d:\w])(?:,?\s+(?P<y>\d{4})(?!\d))?", "day"),
    (_MON + r",?\s+(?P<y>\d{4})(?![\w-])", "month"),
    (r"(?P<y>\d{4})-(?P<m>0[1-9]|1[0-2])(?![\d-])", "month"),
)
_ANCHOR = "(?:" + "|".join(re.sub(r"\?P<\w+>", "?:", p) for p, _ in _EXPLICIT) + ")"


def _explicit(m: re.Match[str], ref: date, gran: Granularity) -> Resolved:
    groups = m.groupdict()
    if groups.get("mon") == "may":  # lowercase "may" is almost always the verb ("5 may be enough")
        return None
    year = int(groups["y"]) if groups.get("y") else ref.year  # no year: the turn's own year
    month = _MONTHS[groups["mon"].lower()] if groups.get("mon") else int(groups["m"])
    return date(year, month, int(groups["d"]) if groups.get("d") else 1), gran


def _parse_anchor(text: str, ref: date) -> date | None:
    for pattern, gran in _EXPLICIT_RE:
        m = pattern.fullmatch(text)
        if m and (hit := _explicit(m, ref, gran)):
            return hit[0]
    return None


def _weekday(m: re.Match[str], ref: date) -> Resolved:
    wd, step = _WEEKDAYS.index(m["wd"].lower()), _STEP[" ".join(m["rel"].lower().split())]
    if step < 0:  # the most recent one strictly before ref ("last Tuesday" on Mon 8 May → 2 May)
        return ref - timedelta(days=(ref.weekday() - wd) % 7 or 7), "day"
    if step > 0:  # the first one strictly after ref
        return ref + timedelta(days=(wd - ref.weekday()) % 7 or 7), "day"
    return _week_start(ref) + timedelta(days=wd), "day"


def _before_after(m: re.Match[str], ref: date) -> Resolved:
    unit, sign = m["unit"].lower(), (-1 if m["dir"].lower() == "before" else 1)
    if m["anchor"]:
        anchor = _parse_anchor(m["anchor"], ref)
        if anchor is None:
            return None
    elif sign > 0:  # an unanchored "the day after" is narrative, not relative to the turn
        return None
    else:
        anchor = ref
    n = 2 * sign if m["last"] else sign  # "the week before last" is two weeks back
    if unit == "weekend" and sign > 0 and anchor.weekday() >= 5:
        n += 1  # the weekend after a Saturday or Sunday is the following one
    return _shift(anchor, unit, n)


def _month_name(m: re.Match[str], ref: date) -> Resolved:
    if m["mon"] == "may":
        return None
    month, pre = _MONTHS[m["mon"].lower()], m["pre"].lower()
    year = ref.year
    if pre == "last" and month >= ref.month:
        year -= 1
    elif pre == "next" and month <= ref.month:
        year += 1
    return date(year, month, 1), "month"


def _count(word: str) -> int:
    word = " ".join(word.lower().split())
    return _NUMBERS[word] if word in _NUMBERS else int(word)


Resolver = Callable[[re.Match[str], date], Resolved]
# (pattern, resolver, relative): relative is None when it depends on the match (see find_dates).
_PATTERNS: tuple[tuple[str, Resolver, bool | None], ...] = (
    (
        r"\b(?:" + "|".join(p.replace(" ", r"\s+") for p in _DAY_WORDS) + r")\b",
        lambda m, r: (r + timedelta(days=_DAY_WORDS[" ".join(m[0].lower().split())]), "day"),
        True,
    ),
    (
        rf"\b{_NUM}\s+{_UNIT}\s+(?:ago|back|before\s+now)\b",
        lambda m, r: _shift(r, m["unit"].lower(), -_count(m["n"])),
        True,
    ),
    (
        rf"\b(?:in|within)\s+{_NUM}\s+{_UNIT}\b(?!\s+ago)",
        lambda m, r: _shift(r, m["unit"].lower(), _count(m["n"])),
        True,
    ),
    (
        rf"\b{_NUM}\s+{_UNIT}\s+from\s+now\b",
        lambda m, r: _shift(r, m["unit"].lower(), _count(m["n"])),
        True,
    ),
    (
        rf"\b(?P<rel>{_THIS}|last|past|previous|next|coming|upcoming)\s+"
        r"(?P<unit>week|weekend|month|year)\b",
        lambda m, r: _shift(r, m["unit"].lower(), _STEP[" ".join(m["rel"].lower().split())]),
        True,
    ),
    (rf"\b(?P<rel>{_THIS}|last|past|next|coming)\s+{_WD}\b", _weekday, True),
    (
        r"\bthe\s+(?P<unit>day|week|weekend|month|year)\s+(?P<dir>before|after)"
        rf"(?:\s+(?P<last>last)\b|\s+(?:on\s+)?(?P<anchor>{_ANCHOR})"
        r"|(?!\s+(?:the|a|an|my|our|his|her|their|your|that|we|i|he|she|they)\b))",
        _before_after,
        None,
    ),
    (
        r"\b(?P<pre>in|during|since|until|till|by|early|late|mid|of|last|next|this)[\s-]+"
        rf"(?P<span>{_FULLMON})\b(?!\s+\d)",
        _month_name,
        None,
    ),
    (
        # A bare year, but not an amount ("$2000", "2000 dollars") or part of a number/date.
        r"(?<![\w$£€#.,:/'-])(?P<y>(?:19|20)\d{2})(?![\w%]|[.,:/-]\d)(?!\s*(?:dollars|euros|"
        r"pounds|usd|eur|km|kg|miles|people|words|calories|steps|points|meters|feet|lbs|times)\b)",
        lambda m, r: (date(int(m["y"]), 1, 1), "year"),
        False,
    ),
    *((p, partial(_explicit, gran=g), False) for p, g in _EXPLICIT),
)
_COMPILED = tuple((re.compile(p, re.IGNORECASE), f, rel) for p, f, rel in _PATTERNS)
_EXPLICIT_RE = tuple((re.compile(p, re.IGNORECASE), g) for p, g in _EXPLICIT)


def find_dates(text: str, ref: datetime) -> list[TemporalRef]:
    """Date expressions in ``text`` resolved against ``ref``, in text order, none overlapping."""
    norm, today = _text(text), _utc(ref).date()
    found: list[tuple[int, int, TemporalRef]] = []
    for pattern, resolve, relative in _COMPILED:
        for m in pattern.finditer(norm):
            try:
                hit = resolve(m, today)
            except (ValueError, OverflowError, KeyError):  # 31 February, year 0, 999 years ago
                continue
            if hit is None:
                continue
            span = "span" if m.groupdict().get("span") else 0
            # "last May" is relative, "in May" is not, nor is an anchored "the week before X".
            if relative is None:
                groups = m.groupdict()
                relative_here = groups.get("anchor") is None and (
                    "pre" not in groups or m["pre"].lower() in ("last", "next", "this")
                )
            else:
                relative_here = relative
            s, e = m.start(span), m.end(span)
            tref = TemporalRef(text[s:e], s, e, hit[0], hit[1], relative_here)
            found.append((m.start(), m.end(), tref))
    # Longest match wins ("the week before 9 June 2023" over "9 June 2023"), then the earliest.
    found.sort(key=lambda t: (t[0] - t[1], t[0]))
    chosen: list[tuple[int, int, TemporalRef]] = []
    for s, e, tref in found:
        if all(e <= cs or s >= ce for cs, ce, _ in chosen):
            chosen.append((s, e, tref))
    return [t for _, _, t in sorted(chosen, key=lambda c: c[0])]


def rewrite_relative(text: str, ref: datetime) -> str:
    """Append ``(ISO date)`` after each expression whose date depends on ``ref`` or an anchor.

    "I went hiking yesterday" at 2023-05-08 → "I went hiking yesterday (2023-05-07)". Running it
    twice changes nothing, so a rewritten memory can be rewritten again safely.
    """
    out, pos = [], 0
    for tref in find_dates(text, ref):
        literal = not tref.relative and re.search(r"\d{4}", tref.text_span)
        if literal and not tref.text_span.lower().startswith("the "):
            continue  # "8 May 2023" already says its date; "the week before 9 June 2023" does not
        suffix = f" ({tref.label})"
        if text.startswith(suffix, tref.end):
            continue
        out += [text[pos : tref.end], suffix]
        pos = tref.end
    return "".join(out) + text[pos:]


# Plan markers from seed 004 ("plan to", "will", "going to") plus their everyday variants.
# "was going to" / "planned to" are past and "will always|never" is a standing rule, not a plan.
_PLAN = re.compile(
    r"\bplan(?:s|ning)?\s+(?:to|on)\b|(?<!was )(?<!were )\bgoing\s+to\b|\bgonna\b"
    r"|(?<!free )(?<!the )(?<!my )(?<!your )(?<!good )(?:\bwill|\b\w+'ll)\b"
    r"(?!\s+(?:always|never|forever)\b)"
    r"|\bintend(?:s|ing)?\s+to\b|\babout\s+to\b|\bscheduled\s+(?:to|for)\b|\baim(?:s|ing)?\s+to\b"
    r"|\bhop(?:e|es|ing)\s+to\b|\blooking\s+forward\s+to\b",
    re.IGNORECASE,
)


def foresight(text: str, ref: datetime) -> datetime | None:
    """``valid_until`` for a plan, or None when ``text`` is not a plan.

    A text is a plan when it has a plan marker or a relative future date ("next week",
    "tomorrow"). Its ``valid_until`` is the midnight (UTC) after the latest period the plan names
    that has not already ended; with no such date it is ``ref + 7 days`` (seed 004 default).
    """
    now = _utc(ref)
    text = _text(text)
    refs = find_dates(text, now)
    marked = _PLAN.search(text) is not None
    today = now.date()
    # Without a marker only relative future dates count: "my birthday is June 3" is no plan.
    ends = [
        t.last_day
        for t in refs
        if (t.last_day >= today if marked else t.relative and t.resolved > today)
    ]
    try:
        if ends:
            return datetime.combine(max(ends) + timedelta(days=1), time(), UTC)
        return now + FORESIGHT_DEFAULT if marked else None
    except OverflowError:  # a reference at the very end of the calendar
        return datetime.max.replace(tzinfo=UTC)


def valid_from(text: str, ref: datetime) -> datetime:
    """Start (UTC midnight) of the earliest past-or-present period mentioned, else ``ref``.

    Future dates are skipped: a plan ("I'll fly out next week") is true from the moment it is
    said, and a ``valid_from`` in the future would hide it from current-state queries.
    """
    now = _utc(ref)
    starts = [t.resolved for t in find_dates(text, now) if t.resolved <= now.date()]
    return datetime.combine(min(starts), time(), UTC) if starts else now
