"""Date expressions (docs/write-path.md#extraction): the pattern table and its calendar arithmetic.

``DATE_PATTERNS`` is the table ``temporal.find_dates`` runs: each row is a compiled,
case-insensitive pattern, a resolver that maps a match and the reference day to the first day of
the period it names with the period's granularity (or None when the match names no date, e.g.
the verb "may"), and whether the expression is relative to the reference (None: it depends on
the match). Covered: day words (yesterday, bugün), "N units ago / in N units / N units from
now", "last/this/next week|weekend|month|year", "last/next <weekday>", "the week before <date> /
before last", month names with a preposition, bare years that are not amounts, and explicit
dates. A date without its year ("March 1", "in May"), a bare weekday ("due Friday") and a bare
day of the month ("before the 15th") take the direction ``find_dates`` read from the sentence
(``direction``): the next occurrence for "future", the last one for "past", the one
nearest the turn for "near", the turn's own year or month for None (a bare weekday stays
unresolved then). "Nov 1 - Nov 15, 2023" gives the
first date the range's year. Each row says whether it wants that direction. ``month_shift`` moves
a date to the 1st of the month ``n`` months away. Pure, standard library only; patterns are
compiled once at import.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from datetime import date, timedelta
from functools import partial
from typing import Literal

from kgmem.core.dates.direction import Direction, valid_day, year_toward

Granularity = Literal["day", "week", "month", "season", "year"]
Resolved = tuple[date, Granularity] | None


def _week_start(d: date) -> date:
    return d - timedelta(days=d.weekday())


def month_shift(d: date, n: int) -> date:
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
        return month_shift(ref, n), "month"
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
              "dün": -1, "bugün": 0, "yarın": 1}  # "bugün→today, yarın→tomorrow, dün→…"
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


def _explicit(m: re.Match[str], ref: date, way: Direction | None, gran: Granularity) -> Resolved:
    groups = m.groupdict()
    if groups.get("mon") == "may":  # lowercase "may" is almost always the verb ("5 may be enough")
        return None
    month = _MONTHS[groups["mon"].lower()] if groups.get("mon") else int(groups["m"])
    day = int(groups["d"]) if groups.get("d") else 1
    if groups.get("y"):
        year = int(groups["y"])
    elif end := _RANGE_END.match(m.string, m.end()):  # "Nov 1 - Nov 15, 2023": the range's year
        end_month = _MONTHS[end["mon"].lower()] if end["mon"] else month
        year = int(end["y"]) - (month > end_month)
    else:
        year = year_toward(month, day if gran == "day" else 0, ref, way)
    return date(year, month, day), gran


def _parse_anchor(text: str, ref: date) -> date | None:
    for pattern, gran in _EXPLICIT_RE:
        m = pattern.fullmatch(text)
        if m and (hit := _explicit(m, ref, None, gran)):
            return hit[0]
    return None


def _weekday(m: re.Match[str], ref: date, _way: Direction | None) -> Resolved:
    wd, step = _WEEKDAYS.index(m["wd"].lower()), _STEP[" ".join(m["rel"].lower().split())]
    if step < 0:  # the most recent one strictly before ref ("last Tuesday" on Mon 8 May → 2 May)
        return ref - timedelta(days=(ref.weekday() - wd) % 7 or 7), "day"
    if step > 0:  # the first one strictly after ref
        return ref + timedelta(days=(wd - ref.weekday()) % 7 or 7), "day"
    return _week_start(ref) + timedelta(days=wd), "day"


def _bare_weekday(m: re.Match[str], ref: date, way: Direction | None) -> Resolved:
    """ "due Friday" / "on Friday I went": the nearest one ahead or behind, ``ref`` included."""
    wd = _WEEKDAYS.index(m["wd"].lower())
    ahead, back = (wd - ref.weekday()) % 7, (ref.weekday() - wd) % 7
    if way == "near":
        way = "future" if ahead <= back else "past"
    if way == "future":
        return ref + timedelta(days=ahead), "day"
    if way == "past":
        return ref - timedelta(days=back), "day"
    return None  # without a tense a weekday is as often past as future


def _day_of_month(m: re.Match[str], ref: date, way: Direction | None) -> Resolved:
    """ "before the 15th": that day in the nearest month ahead or behind, else in ``ref``'s."""
    day, start = int(m["d"]), month_shift(ref, 0)
    if way == "near":
        months = (month_shift(start, n) for n in (1, 0, -1))
        near = [date(d.year, d.month, day) for d in months if valid_day(d.year, d.month, day)]
        return min(near, key=lambda d: abs((d - ref).days)), "day"
    step = {"future": 1, "past": -1, None: 0}[way]
    if step == 0:
        return date(ref.year, ref.month, day), "day"
    for n in range(0, 13 * step, step):
        first = month_shift(start, n)
        try:
            when = date(first.year, first.month, day)
        except ValueError:  # the 31st of a 30-day month: look one month further
            continue
        if (when >= ref) if step > 0 else (when <= ref):
            return when, "day"
    return None


def _before_after(m: re.Match[str], ref: date, _way: Direction | None) -> Resolved:
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


def _month_name(m: re.Match[str], ref: date, way: Direction | None) -> Resolved:
    if m["mon"] == "may":
        return None
    month, pre = _MONTHS[m["mon"].lower()], m["pre"].lower()
    year = ref.year
    if pre == "last" and month >= ref.month:
        year -= 1
    elif pre == "next" and month <= ref.month:
        year += 1
    elif pre != "this":
        year = year_toward(month, 0, ref, way)
    return date(year, month, 1), "month"


# a season's first month (meteorological, northern hemisphere): three months from it
_SEASONS = {"spring": 3, "summer": 6, "autumn": 9, "fall": 9, "winter": 12}
_SEASON = "(?P<season>" + "|".join(_SEASONS) + ")"


def _season_start(ref: date) -> date:
    """The first day of the season ``ref`` is in."""
    back = (ref.month - 3) % 3  # seasons start in months 3, 6, 9, 12
    return month_shift(ref, -back)


def _season(m: re.Match[str], ref: date, way: Direction | None) -> Resolved:
    """ "this autumn": the one ``ref`` is in, else the nearer of the last and the next ("this
    summer" said in November is the one just gone, "this winter" said in September the one
    ahead); "next summer" the next one not begun, "last winter" the last one ended; "winter 2024"
    the winter that ends in 2024's first months."""
    month = _SEASONS[m["season"].lower()]
    if m.groupdict().get("y"):
        year = int(m["y"])
        return date(year - 1, 12, 1) if month == 12 else date(year, month, 1), "season"
    current = _season_start(ref)
    step = _STEP[" ".join(m["rel"].lower().split())]
    if current.month == month:
        return month_shift(current, 12 * step), "season"
    ahead = next(
        month_shift(current, 3 * k)
        for k in (1, 2, 3)
        if (current.month + 3 * k - 1) % 12 + 1 == month
    )
    behind = month_shift(ahead, -12)
    if step == 0 and way in ("future", "past"):
        return (ahead if way == "future" else behind), "season"
    if step == 0:
        since = (ref - (month_shift(behind, 3) - timedelta(days=1))).days
        return (behind if since < (ahead - ref).days else ahead), "season"
    return (ahead if step > 0 else behind), "season"


def _count(word: str) -> int:
    word = " ".join(word.lower().split())
    return _NUMBERS[word] if word in _NUMBERS else int(word)


Resolver = Callable[[re.Match[str], date, Direction | None], Resolved]
# (pattern, resolver, relative, directed): relative is None when it depends on the match
# (find_dates); directed rows are given the direction their sentence reads (date_direction).
_PATTERNS: tuple[tuple[str, Resolver, bool | None, bool], ...] = (
    (
        r"\b(?:" + "|".join(p.replace(" ", r"\s+") for p in _DAY_WORDS) + r")\b",
        lambda m, r, _: (r + timedelta(days=_DAY_WORDS[" ".join(m[0].lower().split())]), "day"),
        True,
        False,
    ),
    (
        rf"\b{_NUM}\s+{_UNIT}\s+(?:ago|back|before\s+now)\b",
        lambda m, r, _: _shift(r, m["unit"].lower(), -_count(m["n"])),
        True,
        False,
    ),
    (
        rf"\b(?:in|within)\s+{_NUM}\s+{_UNIT}\b(?!\s+ago)",
        lambda m, r, _: _shift(r, m["unit"].lower(), _count(m["n"])),
        True,
        False,
    ),
    (
        rf"\b{_NUM}\s+{_UNIT}\s+from\s+now\b",
        lambda m, r, _: _shift(r, m["unit"].lower(), _count(m["n"])),
        True,
        False,
    ),
    (
        rf"\b(?P<rel>{_THIS}|last|past|previous|next|coming|upcoming)\s+"
        r"(?P<unit>week|weekend|month|year)\b",
        lambda m, r, _: _shift(r, m["unit"].lower(), _STEP[" ".join(m["rel"].lower().split())]),
        True,
        False,
    ),
    (rf"\b(?P<rel>{_THIS}|last|past|next|coming)\s+{_WD}\b", _weekday, True, False),
    (rf"\b(?P<rel>{_THIS}|last|past|next|coming|upcoming)\s+{_SEASON}\b", _season, True, True),
    (rf"\b{_SEASON}\s+(?:of\s+)?(?P<y>(?:19|20)\d{{2}})(?!\d)", _season, False, False),
    # A weekday after a preposition ("due Friday", "on Monday"), not a habit ("every Monday").
    (
        r"(?<!every )(?<!each )\b(?:on|by|due|until|till|before|after|since|from)\s+"
        rf"(?P<span>{_WD})\b",
        _bare_weekday,
        True,
        True,
    ),
    (
        r"\b(?:by|before|until|till|on|due|after|since|from)\s+"
        r"(?P<span>the\s+(?P<d>[12]?\d|3[01])(?:st|nd|rd|th))\b(?![\w-]|\s+(?:of|century|"
        r"centuries|floor|grade|percentile|edition|anniversary|birthday|time|place|row|street|st|"
        r"avenue|ave|round|day|week|month|year|annual)\b)",
        _day_of_month,
        True,
        True,
    ),
    (
        r"\bthe\s+(?P<unit>day|week|weekend|month|year)\s+(?P<dir>before|after)"
        rf"(?:\s+(?P<last>last)\b|\s+(?:on\s+)?(?P<anchor>{_ANCHOR})"
        r"|(?!\s+(?:the|a|an|my|our|his|her|their|your|that|we|i|he|she|they)\b))",
        _before_after,
        None,
        False,
    ),
    (
        r"\b(?P<pre>in|during|since|until|till|by|before|after|from|for|through|throughout|around"
        r"|starting|early|late|mid|of|last|next|this)[\s-]+"
        rf"(?P<span>{_FULLMON})\b(?!\s+\d)",
        _month_name,
        None,
        True,
    ),
    (
        # A bare year, but not an amount ("$2000", "2000 dollars") or part of a number/date.
        r"(?<![\w$£€#.,:/'-])(?P<y>(?:19|20)\d{2})(?![\w%]|[.,:/-]\d)(?!\s*(?:dollars|euros|"
        r"pounds|usd|eur|km|kg|miles|people|words|calories|steps|points|meters|feet|lbs|times)\b)",
        lambda m, r, _: (date(int(m["y"]), 1, 1), "year"),
        False,
        False,
    ),
    *((p, partial(_explicit, gran=g), False, True) for p, g in _EXPLICIT),
)
DATE_PATTERNS = tuple(
    (re.compile(p, re.IGNORECASE), f, rel, directed) for p, f, rel, directed in _PATTERNS
)
_EXPLICIT_RE = tuple((re.compile(p, re.IGNORECASE), g) for p, g in _EXPLICIT)
# What may follow a yearless date to close a range with a year: " - Nov 15, 2023", " to 15, 2023".
_RANGE_END = re.compile(
    rf"\s*(?:-|–|—|to|through|thru|until|till|and)\s*(?:{_MON}\s+)?\d{{1,2}}(?:st|nd|rd|th)?,?\s+"
    r"(?P<y>\d{4})(?!\d)",
    re.IGNORECASE,
)
