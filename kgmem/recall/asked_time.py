"""The period a question asks about: "What did Maria plan on the evening of 7 July, 2023?".

Contract: pure functions, no I/O and no clock (``now`` is passed in). ``asked_periods`` reads the
dates a question names with the write path's own date table (``core.dates``: explicit dates,
months, years, and relative ones such as "last week", resolved against the moment the question
is asked) and returns each as an ``AskedPeriod``, a half-open UTC interval widened by ``SLACK``
on both sides (a day said in the user's time zone may start or end on the UTC day beside it). A
day or a month said without its year ("in June", "on Aug 15th") is ``annual``: it holds that day
or month of any year, since the question leaves open which one (the date table would read it as
the last one before the question, and a conversation from two years ago has none then).
``in_period`` says whether a memory was said (``created_at``) or is dated (``valid_from``) within
one of them; scoring gives such a memory the time boost. ``search_window`` is the one interval
the period channel reads, when the question names a day or a week (a month or a year is too
wide to read every memory of it, so those get the boost only, as does a period of any year). A
question that names no date gives no period, and nothing changes for it.

Why: a question that names when something was said or done is asked of that day's
conversation, while its words and embedding match the same topic on every other day ("What
kind of painting did Caroline share on October 13, 2023?" after months of talk about
painting). LoCoMo dev replay: the 102 questions that name a date went from MRR 0.450 to 0.607;
the other 658 are unchanged (benchmarks/RESULTS.md, LoCoMo section).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime, time, timedelta

from kgmem.core.dates.temporal import find_dates

# A day named in the user's time zone overlaps the UTC days beside it.
SLACK = timedelta(days=1)
# The widest period the period channel reads in full: a week and its slack. A month or a year
# names too many memories of an active namespace to read by time alone; they get the boost.
WIDEST_SEARCH = timedelta(days=7) + 2 * SLACK


@dataclass(frozen=True)
class AskedPeriod:
    """A period a question names, as a half-open UTC interval ``[start, end)`` with the slack;
    ``annual``: the same days of any year (a date said without its year)."""

    start: datetime
    end: datetime
    annual: bool = False

    @property
    def span(self) -> timedelta:
        return self.end - self.start

    def holds(self, moment: datetime | None) -> bool:
        if moment is None:
            return False
        if not self.annual:
            return self.start <= moment < self.end
        # the period moved to the moment's year, and to the year before (the slack may carry
        # the period over New Year: "on 31 December" holds 1 January)
        shifts = (moment.year - self.start.year - 1, moment.year - self.start.year)
        return any(_moved(self.start, k) <= moment < _moved(self.end, k) for k in shifts)


def _moved(moment: datetime, years: int) -> datetime:
    try:
        return moment.replace(year=moment.year + years)
    except ValueError:  # 29 February in a year without one
        return moment.replace(year=moment.year + years, day=28)


def asked_periods(query: str, now: datetime) -> tuple[AskedPeriod, ...]:
    """Every period ``query`` names, resolved against ``now`` (tz-aware), widened by ``SLACK``."""
    out: list[AskedPeriod] = []
    for ref in find_dates(query, now):
        start = datetime.combine(ref.resolved, time(), UTC) - SLACK
        end = datetime.combine(ref.last_day, time(), UTC) + timedelta(days=1) + SLACK
        # the table read a year the question left out ("in June"); "last June" says its year
        annual = ref.toward is not None and not ref.relative
        out.append(AskedPeriod(start, end, annual))
    return tuple(out)


def in_period(periods: Sequence[AskedPeriod], moments: Iterable[datetime | None]) -> bool:
    """Whether any of ``moments`` (a memory's ``created_at`` and ``valid_from``) falls in any of
    ``periods``."""
    times = [m for m in moments if m is not None]
    return any(p.holds(m) for p in periods for m in times)


def search_window(periods: Sequence[AskedPeriod]) -> AskedPeriod | None:
    """The interval the period channel reads: the narrowest period the question names, when it is
    a day or a week (with its slack); None when it names none that narrow."""
    narrow = [p for p in periods if p.span <= WIDEST_SEARCH and not p.annual]
    return min(narrow, key=lambda p: (p.span, p.start)) if narrow else None
