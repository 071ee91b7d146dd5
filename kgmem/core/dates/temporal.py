"""Temporal normalisation and foresight for the write path (docs/write-path.md#extraction).

Contract: every function is pure (no I/O, no clock, standard library only). Dates are resolved
against ``ref``, the timestamp of the turn that said them, never against today, so re-ingesting
an old conversation yields the same dates. ``ref`` is a ``datetime`` (naive means UTC, aware is
converted to UTC; a plain ``date`` means its UTC midnight) and text must be a ``str``; anything
else raises ``InvalidInput``. ``find_dates`` returns non-overlapping ``TemporalRef`` in text
order and never raises on any string; ``resolved`` is the first day of the period (the Monday for
a week, the 1st for a month, 1 January for a year). A date that leaves its year (or month, or
week) unsaid takes the direction its sentence reads (``direction``): "by March 1" said on
2023-11-20 is 2024-03-01, "in March I moved" is 2023-03; a bare weekday ("due Friday") is
resolved only when the sentence has such a direction. A yearly date ("my birthday is June 3",
"born on June 3") is ``recurring``: its ``resolved`` is the next occurrence and its label the
ISO 8601 / vCard month-day "--06-03", because no single year is true of it. ``rewrite_relative``
appends the resolved date after every expression whose meaning depends on ``ref`` and is
idempotent. ``foresight`` gives a plan or a deadline its ``valid_until`` (None when the text is
neither); ``valid_from`` gives the start of the earliest past-or-present date mentioned, else
``ref``. A recurring date sets neither: a birthday is true from the moment it is told, for good.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import UTC, date, datetime, time, timedelta

from kgmem.core.dates.direction import PLAN, Direction, recurring, toward
from kgmem.core.dates.patterns import DATE_PATTERNS, Granularity, month_shift
from kgmem.errors import InvalidInput

# , Formation heuristic fallback: 'Foresight: "plan to", "will", "going to" →
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
    toward: Direction | None = None  # the way a date without its year was read ("by March 1")
    recurring: bool = False  # a yearly date ("my birthday is June 3")

    @property
    def last_day(self) -> date:
        """The last day (inclusive) of the period the expression names."""
        d = self.resolved
        if self.granularity == "week":
            return d + timedelta(days=6)
        if self.granularity == "month":
            return month_shift(d, 1) - timedelta(days=1)
        if self.granularity == "season":
            return month_shift(d, 3) - timedelta(days=1)
        if self.granularity == "year":
            return date(d.year, 12, 31)
        return d

    @property
    def label(self) -> str:
        """The ISO form appended by ``rewrite_relative``."""
        d = self.resolved
        if self.recurring:  # ISO 8601 / vCard (RFC 6350) month-day with the year omitted
            return (
                f"--{d.month:02d}-{d.day:02d}" if self.granularity == "day" else f"--{d.month:02d}"
            )
        if self.granularity == "week":
            return f"week of {d.isoformat()}"
        if self.granularity == "month":
            return f"{d.year:04d}-{d.month:02d}"
        if self.granularity == "season":  # an ISO 8601 interval of months: "2026-09/2026-11"
            end = self.last_day
            return f"{d.year:04d}-{d.month:02d}/{end.year:04d}-{end.month:02d}"
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


# A prefix that fixes the year on its own ("last May", "next March", "this June").
_OWN_WAY = frozenset({"last", "next", "this"})


def _direction(m: re.Match[str], text: str, span: int | str) -> tuple[Direction | None, bool]:
    """The direction a match without its year reads, and whether it is a yearly date."""
    groups = m.groupdict()
    if groups.get("y") or (groups.get("pre") or "").lower() in _OWN_WAY:
        return None, False
    s, e = m.start(span), m.end(span)
    if groups.get("mon") and recurring(text, s, e):
        return "future", True  # the next one, so a calendar reading the date finds it ahead
    return toward(text, s, e), False


def find_dates(text: str, ref: datetime) -> list[TemporalRef]:
    """Date expressions in ``text`` resolved against ``ref``, in text order, none overlapping."""
    norm, today = _text(text), _utc(ref).date()
    found: list[tuple[int, int, TemporalRef]] = []
    for pattern, resolve, relative, directed in DATE_PATTERNS:
        for m in pattern.finditer(norm):
            span = "span" if m.groupdict().get("span") else 0
            way, yearly = _direction(m, norm, span) if directed else (None, False)
            try:
                hit = resolve(m, today, way)
            except (ValueError, OverflowError, KeyError):  # 31 February, year 0, 999 years ago
                continue
            if hit is None:
                continue
            # "last May" is relative, "in May" is not, nor is an anchored "the week before X".
            if relative is None:
                groups = m.groupdict()
                relative_here = groups.get("anchor") is None and (
                    "pre" not in groups or m["pre"].lower() in ("last", "next", "this")
                )
            else:
                relative_here = relative
            s, e = m.start(span), m.end(span)
            tref = TemporalRef(text[s:e], s, e, hit[0], hit[1], relative_here, way, yearly)
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


_UNTIL = re.compile(r"\b(?:until|till|til|through)\s+(?:the\s+)?$", re.IGNORECASE)


def foresight(text: str, ref: datetime) -> datetime | None:
    """``valid_until`` for a plan, or None when ``text`` is not a plan.

    A text is a plan when it has a plan marker or a relative future date ("next week",
    "tomorrow", "due Friday"); "until June" ahead of ``ref`` ends a state the same way. Its
    ``valid_until`` is the midnight (UTC) after the latest period the plan names that has not
    already ended; with no such date it is ``ref + 7 days`` (kgmem default). A deadline
    alone ("the deadline is April 3") is no plan: it stays worth recalling once it has passed.
    """
    now = _utc(ref)
    text = _text(text)
    refs = [t for t in find_dates(text, now) if not t.recurring]  # a birthday is no plan
    marked = PLAN.search(text) is not None
    today = now.date()
    # Without a marker only relative dates ahead count, and the end a state is given ("until").
    ends = [
        t.last_day
        for t in refs
        if (
            t.last_day >= today
            if marked or (t.toward == "future" and _UNTIL.search(text, 0, t.start))
            else t.relative and t.resolved > today
        )
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
    said, and a ``valid_from`` in the future would hide it from current-state queries. So are
    yearly dates: "my birthday is June 3" has been true all along, not since the last June 3.
    """
    now = _utc(ref)
    today = now.date()
    starts = [t.resolved for t in find_dates(text, now) if t.resolved <= today and not t.recurring]
    return datetime.combine(min(starts), time(), UTC) if starts else now
