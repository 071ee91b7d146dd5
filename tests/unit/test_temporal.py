"""Temporal normalisation resolves known expressions against the turn's own timestamp (never
today), rewrites them into standalone form, derives ``valid_from`` and the seed 004 foresight
``valid_until``, and never raises on any string."""

from __future__ import annotations

from datetime import UTC, date, datetime, timedelta, timezone

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from kgmem.errors import InvalidInput
from kgmem.ingest.temporal import (
    FORESIGHT_DEFAULT,
    TemporalRef,
    find_dates,
    foresight,
    rewrite_relative,
    valid_from,
)

REF = datetime(2023, 5, 8, 14, 30, tzinfo=UTC)  # a Monday
REF2 = datetime(2024, 2, 29, 9, 0, tzinfo=UTC)  # a Thursday, leap day


def one(text: str, ref: datetime = REF) -> TemporalRef:
    refs = find_dates(text, ref)
    assert len(refs) == 1, refs
    return refs[0]


@pytest.mark.parametrize(
    ("text", "span", "resolved", "granularity"),
    [
        ("I went hiking yesterday", "yesterday", date(2023, 5, 7), "day"),
        ("today was long", "today", date(2023, 5, 8), "day"),
        ("see you tomorrow", "tomorrow", date(2023, 5, 9), "day"),
        ("the day before yesterday", "the day before yesterday", date(2023, 5, 6), "day"),
        ("we met last Tuesday", "last Tuesday", date(2023, 5, 2), "day"),
        ("last Monday", "last Monday", date(2023, 5, 1), "day"),
        ("next Tuesday", "next Tuesday", date(2023, 5, 9), "day"),
        ("next Monday", "next Monday", date(2023, 5, 15), "day"),
        ("this Friday", "this Friday", date(2023, 5, 12), "day"),
        ("last week", "last week", date(2023, 5, 1), "week"),
        ("next week", "next week", date(2023, 5, 15), "week"),
        ("next month", "next month", date(2023, 6, 1), "month"),
        ("last month", "last month", date(2023, 4, 1), "month"),
        ("last year", "last year", date(2022, 1, 1), "year"),
        ("next year", "next year", date(2024, 1, 1), "year"),
        ("3 days ago", "3 days ago", date(2023, 5, 5), "day"),
        ("a couple of days ago", "a couple of days ago", date(2023, 5, 6), "day"),
        ("two weeks ago", "two weeks ago", date(2023, 4, 24), "week"),
        ("4 months ago", "4 months ago", date(2023, 1, 1), "month"),
        ("five years ago", "five years ago", date(2018, 1, 1), "year"),
        ("in 3 days", "in 3 days", date(2023, 5, 11), "day"),
        ("in two weeks", "in two weeks", date(2023, 5, 22), "week"),
        ("this weekend", "this weekend", date(2023, 5, 13), "day"),
        ("last weekend", "last weekend", date(2023, 5, 6), "day"),
        ("the week before", "the week before", date(2023, 5, 1), "week"),
        ("the week before last", "the week before last", date(2023, 4, 24), "week"),
        ("the week before 9 June 2023", "the week before 9 June 2023", date(2023, 5, 29), "week"),
        ("on 8 May, 2023", "8 May, 2023", date(2023, 5, 8), "day"),
        ("on May 8", "May 8", date(2023, 5, 8), "day"),
        ("on May 8th, 2021", "May 8th, 2021", date(2021, 5, 8), "day"),
        ("2023-05-08", "2023-05-08", date(2023, 5, 8), "day"),
        ("back in March 2020", "March 2020", date(2020, 3, 1), "month"),
        ("in June", "June", date(2023, 6, 1), "month"),
        ("last May", "May", date(2022, 5, 1), "month"),
        ("I was born in 1990", "1990", date(1990, 1, 1), "year"),
        ("Dün yürüdük", "Dün", date(2023, 5, 7), "day"),  # seed 004: dün → yesterday
    ],
)
def test_known_expressions(text: str, span: str, resolved: date, granularity: str) -> None:
    tref = one(text)
    assert (tref.text_span, tref.resolved, tref.granularity) == (span, resolved, granularity)
    assert text[tref.start : tref.end] == span


@pytest.mark.parametrize(
    ("text", "resolved"),
    [
        ("yesterday", date(2024, 2, 28)),
        ("tomorrow", date(2024, 3, 1)),
        ("last Tuesday", date(2024, 2, 27)),
        ("next month", date(2024, 3, 1)),
        ("3 days ago", date(2024, 2, 26)),
        ("last year", date(2023, 1, 1)),
        ("a year ago", date(2023, 1, 1)),
        ("in a month", date(2024, 3, 1)),
    ],
)
def test_resolution_depends_on_ref_not_on_today(text: str, resolved: date) -> None:
    assert one(text, REF2).resolved == resolved
    assert one(text, REF).resolved != resolved


def test_naive_ref_is_utc_and_aware_ref_is_converted() -> None:
    assert one("yesterday", REF.replace(tzinfo=None)).resolved == date(2023, 5, 7)
    # 01:00 on 9 May at UTC+5 is still 8 May in UTC.
    plus5 = datetime(2023, 5, 9, 1, 0, tzinfo=timezone(timedelta(hours=5)))
    assert one("yesterday", plus5).resolved == date(2023, 5, 7)


def test_no_false_dates() -> None:
    assert find_dates("5 may be enough", REF) == []
    assert find_dates("I paid 2000 dollars for it", REF) == []
    assert find_dates("the day before the wedding", REF) == []
    assert find_dates("", REF) == []


def test_several_dates_in_text_order_without_overlap() -> None:
    refs = find_dates("Yesterday I booked it for next Friday, on 2023-05-12.", REF)
    assert [r.text_span for r in refs] == ["Yesterday", "next Friday", "2023-05-12"]
    assert [r.relative for r in refs] == [True, True, False]


def test_rewrite_relative_appends_iso_dates() -> None:
    assert (
        rewrite_relative("I went hiking yesterday", REF) == "I went hiking yesterday (2023-05-07)"
    )
    assert rewrite_relative("Last week and next month; born 1990, met May 8", REF) == (
        "Last week (week of 2023-05-01) and next month (2023-06); born 1990, met May 8 (2023-05-08)"
    )
    assert rewrite_relative("On 8 May 2023 nothing changes", REF) == "On 8 May 2023 nothing changes"


def test_rewrite_is_idempotent() -> None:
    once = rewrite_relative("this weekend and last year", REF)
    assert once == "this weekend (weekend of 2023-05-13) and last year (2022)"
    assert rewrite_relative(once, REF) == once


def test_foresight_rules() -> None:
    # Seed 004: "plan to", "will", "going to" → validUntil = +7 days when no time is named.
    assert foresight("I plan to learn the guitar", REF) == REF + FORESIGHT_DEFAULT
    assert foresight("I'm going to call my mom", REF) == REF + timedelta(days=7)
    # A named time: valid until the end of that period.
    assert foresight("I will fly to Rome next week", REF) == datetime(2023, 5, 22, tzinfo=UTC)
    assert foresight("We're going to move next month", REF) == datetime(2023, 7, 1, tzinfo=UTC)
    assert foresight("I'll call her tomorrow", REF) == datetime(2023, 5, 10, tzinfo=UTC)
    # A relative future date alone still makes a plan; an explicit one alone does not.
    assert foresight("Dinner with Ana next Friday", REF) == datetime(2023, 5, 13, tzinfo=UTC)
    assert foresight("My birthday is June 3", REF) is None
    # Not plans: past, standing rules, no marker.
    assert foresight("I went hiking yesterday", REF) is None
    assert foresight("I was going to call but forgot", REF) is None
    assert foresight("I will always prefer tea", REF) is None
    assert foresight("I like tea", REF) is None


def test_valid_from() -> None:
    assert valid_from("I went hiking yesterday", REF) == datetime(2023, 5, 7, tzinfo=UTC)
    assert valid_from("Moved to Berlin in 2019, visited Paris last week", REF) == datetime(
        2019, 1, 1, tzinfo=UTC
    )
    assert valid_from("I like tea", REF) == REF
    assert valid_from("I'll fly out next week", REF) == REF  # future dates do not count
    assert valid_from("hiking yesterday", REF.replace(tzinfo=None)).tzinfo == UTC


def test_invalid_input() -> None:
    with pytest.raises(InvalidInput):
        find_dates(None, REF)  # type: ignore[arg-type]
    with pytest.raises(InvalidInput):
        find_dates("yesterday", "2023-05-08")  # type: ignore[arg-type]


refs_in_range = st.datetimes(min_value=datetime(1950, 1, 1), max_value=datetime(2090, 12, 31))


_FRAGMENTS = [
    "yesterday", "last", "next", "this", "the week before", "May", "may", "8", "31", "2023",
    "0000", "9999", "ago", "in", "days", "weeks", "months", "years", "999", "Feb 30", "February",
    "2023-02-30", "weekend", "Friday", "after", "before", "will", "going to", "plan to", "dün",
]  # fmt: skip
_dateish = st.lists(st.one_of(st.sampled_from(_FRAGMENTS), st.text(max_size=4)), max_size=20)


@settings(max_examples=300, deadline=None)
@given(st.one_of(st.text(max_size=300), _dateish.map(" ".join)), st.datetimes())
def test_find_dates_never_raises(text: str, ref: datetime) -> None:
    for tref in find_dates(text, ref):
        assert text[tref.start : tref.end] == tref.text_span
    rewrite_relative(text, ref)
    foresight(text, ref)
    valid_from(text, ref)


@settings(max_examples=200, deadline=None)
@given(
    st.lists(
        st.sampled_from(
            [
                "yesterday",
                "today",
                "tomorrow",
                "5 days ago",
                "in 12 days",
                "a day ago",
                "hiking",
                "in three days",
                "we met",
                "the day before yesterday",
                ",",
                ".",
            ]
        ),
        max_size=12,
    ),
    refs_in_range,
    st.integers(min_value=-3000, max_value=3000),
)
def test_shifting_ref_shifts_day_offsets(words: list[str], ref: datetime, n: int) -> None:
    text = " ".join(words)
    before, after = find_dates(text, ref), find_dates(text, ref + timedelta(days=n))
    assert [r.text_span for r in before] == [r.text_span for r in after]
    for a, b in zip(before, after, strict=True):
        assert a.granularity == "day"
        assert b.resolved - a.resolved == timedelta(days=n)


@settings(max_examples=200, deadline=None)
@given(
    st.lists(
        st.sampled_from(
            [
                "yesterday",
                "last Tuesday",
                "next Sunday",
                "this Friday",
                "this weekend",
                "last weekend",
                "3 days ago",
                "in two days",
                "next week",
                "last month",
                "we went",
            ]
        ),
        max_size=6,
    ),
    refs_in_range,
    st.integers(min_value=-400, max_value=400),
)
def test_shifting_ref_by_weeks_shifts_every_relative_day(
    words: list[str], ref: datetime, weeks: int
) -> None:
    # Weekday- and weekend-anchored expressions keep their weekday, so a whole-week shift of the
    # reference shifts every relative day-granularity date by exactly the same amount.
    text, shift = " and ".join(words), timedelta(weeks=weeks)
    before, after = find_dates(text, ref), find_dates(text, ref + shift)
    assert len(before) == len(after)
    for a, b in zip(before, after, strict=True):
        if a.granularity == "day" and a.relative:
            assert b.resolved - a.resolved == shift
