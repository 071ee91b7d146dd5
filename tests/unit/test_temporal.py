"""Temporal normalisation resolves known expressions against the turn's own timestamp (never
today), rewrites them into standalone form, derives ``valid_from`` and the foresight
``valid_until``, and never raises on any string."""

from __future__ import annotations

from datetime import UTC, date, datetime, timedelta, timezone

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from kgmem.core.dates.temporal import (
    FORESIGHT_DEFAULT,
    TemporalRef,
    find_dates,
    foresight,
    rewrite_relative,
    valid_from,
)
from kgmem.errors import InvalidInput

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
        ("Dün yürüdük", "Dün", date(2023, 5, 7), "day"),  # dün → yesterday
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
    # "plan to", "will", "going to" → validUntil = +7 days when no time is named.
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
    # a habit of going somewhere, kept or given up, is no plan: it does not expire in a week
    assert foresight("I stopped going to the gym, I run outside now", REF) is None
    assert foresight("I've been going to therapy", REF) is None


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


# --- direction: a date without its year points where its sentence does ---------------------------

NOV20 = datetime(2023, 11, 20, 10, 0, tzinfo=UTC)  # a Monday


@pytest.mark.parametrize(
    ("text", "span", "resolved"),
    [
        # deadlines and plans: the next occurrence
        ("I extended my goal to 12 books by March 1", "March 1", date(2024, 3, 1)),
        ("I'm staying with my parents until June", "June", date(2024, 6, 1)),
        ("I need the draft done before the 15th", "the 15th", date(2023, 12, 15)),
        ("The report is due Friday", "Friday", date(2023, 11, 24)),
        ("The deadline is April 3", "April 3", date(2024, 4, 3)),
        ("I'm going to visit Rome in May", "May", date(2024, 5, 1)),
        ("planning to repaint the kitchen in May", "May", date(2024, 5, 1)),
        ("I signed up for the half marathon in October", "October", date(2024, 10, 1)),
        ("I set a goal to finish by Feb 28", "Feb 28", date(2024, 2, 28)),
        ("by the end of March", "March", date(2024, 3, 1)),
        ("My exam is in March", "March", date(2024, 3, 1)),
        # an event set for or moved to a date
        ("Our product launch is set for June 10", "June 10", date(2024, 6, 10)),
        ("The defence has been moved to June 2", "June 2", date(2024, 6, 2)),
        ("Launch slipped to October 15", "October 15", date(2024, 10, 15)),
        ("The dentist moved my appointment to June 10", "June 10", date(2024, 6, 10)),
        ("On December 4 I start at Diageo", "December 4", date(2023, 12, 4)),
        ("I start at Diageo on May 6", "May 6", date(2024, 5, 6)),
        # past tense: the most recent occurrence
        ("In March I moved to Denver", "March", date(2023, 3, 1)),
        ("We moved the boxes to the attic in March", "March", date(2023, 3, 1)),
        ("I started in May", "May", date(2023, 5, 1)),
        ("I've been working here since December", "December", date(2022, 12, 1)),
        ("We went there on Friday", "Friday", date(2023, 11, 17)),
        ("I had it done by March 1", "March 1", date(2023, 3, 1)),
        ("I achieved my goal of 20 books by June 1", "June 1", date(2023, 6, 1)),
        ("I'm proud of completing 4,000 words by November 18", "November 18", date(2023, 11, 18)),
        ("By March I had moved to Denver", "March", date(2023, 3, 1)),
        # a day said in the past may be the speaker's next day (clock ahead of UTC)
        ("I arrived in Lisbon on November 21", "November 21", date(2023, 11, 21)),
        # a booking, an arrangement, a decision: the occurrence nearest the turn
        ("I've booked a table at Luigi's on November 18", "November 18", date(2023, 11, 18)),
        ("I'm hosting a dinner on January 5", "January 5", date(2024, 1, 5)),
        ("I agreed to send the slides on October 30", "October 30", date(2023, 10, 30)),
        ("I accepted the offer starting December 1", "December 1", date(2023, 12, 1)),
        # a date that names an event ("my March 3 talk") is not read from the clause's tense
        ("I reused the slides from my March 3 talk", "March 3", date(2023, 3, 3)),
        ("I'm nervous about my upcoming March 3 talk", "March 3", date(2024, 3, 3)),
        # but a modal or a plan far from the date is another clause's
        (
            "Carla might not get my first ten pages reviewed by March 20",
            "March 20",
            date(2024, 3, 20),
        ),
        # a date that closes a range takes the range's year
        ("Nov 1 - Nov 15, 2023: setup", "Nov 1", date(2023, 11, 1)),
        ("Nov 16 - Dec 15, 2023", "Nov 16", date(2023, 11, 16)),
        # no cue: the turn's own year, as before
        ("the 15th of May", "15th of May", date(2023, 5, 15)),
    ],
)
def test_yearless_dates_take_their_sentences_direction(
    text: str, span: str, resolved: date
) -> None:
    tref = find_dates(text, NOV20)[0]
    assert (tref.text_span, tref.resolved) == (span, resolved)


def test_a_bare_weekday_without_a_tense_stays_unresolved() -> None:
    assert find_dates("Friday is my favourite day", NOV20) == []
    assert find_dates("I swim on Fridays", NOV20) == []
    assert find_dates("Good Friday", NOV20) == []
    assert find_dates("I write for two hours every Monday and Thursday", NOV20) == []


@pytest.mark.parametrize(
    ("text", "label"),
    [
        ("My birthday is June 3", "--06-03"),
        ("I was born on June 3", "--06-03"),
        ("I was born in June", "--06"),
        ("Our anniversary is October 12", "--10-12"),
    ],
)
def test_a_birthday_is_a_recurring_month_and_day(text: str, label: str) -> None:
    (tref,) = find_dates(text, NOV20)
    assert tref.recurring and tref.label == label
    assert tref.resolved >= NOV20.date()  # the next one
    labelled = text.replace(tref.text_span, f"{tref.text_span} ({label})")
    assert rewrite_relative(text, NOV20) == labelled
    # told once, true all along: neither dated from the last June 3 nor expiring after the next
    assert valid_from(text, NOV20) == NOV20
    assert foresight(text, NOV20) is None


def test_a_birthday_with_a_tense_is_one_occurrence() -> None:
    (planned,) = find_dates("I'm going to celebrate my birthday on June 3", NOV20)
    assert not planned.recurring and planned.resolved == date(2024, 6, 3)
    (past,) = find_dates("I celebrated my birthday on June 3", NOV20)
    assert not past.recurring and past.resolved == date(2023, 6, 3)


def test_foresight_follows_the_direction() -> None:
    # a plan names a month ahead: valid until its end (today it would be May 2023, long past)
    assert foresight("I'm going to visit Rome in May", NOV20) == datetime(2024, 6, 1, tzinfo=UTC)
    assert foresight("I'm staying with my parents until June", NOV20) == datetime(
        2024, 7, 1, tzinfo=UTC
    )
    assert foresight("The report is due Friday", NOV20) == datetime(2023, 11, 25, tzinfo=UTC)
    # a deadline alone, or a past date, is no plan
    assert foresight("The deadline is April 3", NOV20) is None
    assert foresight("In March I moved to Denver", NOV20) is None
    # a past date is where the fact starts; a deadline ahead is not
    assert valid_from("In March I moved to Denver", NOV20) == datetime(2023, 3, 1, tzinfo=UTC)
    assert valid_from("I need it by March 1", NOV20) == NOV20


_MONTHS = [
    "January", "February", "March", "April", "May", "June", "July", "August", "September",
    "October", "November", "December",
]  # fmt: skip
_DEADLINE_LEADS = [
    "I need to finish the report by",
    "The user extended the reading challenge goal to 12 books by",
    "My goal is to run 10k by",
    "We have to ship the MVP by",
    "Please remind me that the essay is due",
    "The deadline for the grant is",
    "I'll stay with my parents until",
]
_PAST_LEADS = [
    "I moved to Denver in",
    "I started my new job in",
    "We adopted Biscuit in",
    "My sister got married in",
    "I was in Lisbon in",
]


@settings(max_examples=300, deadline=None)
@given(
    lead=st.sampled_from(_DEADLINE_LEADS),
    month=st.integers(1, 12),
    day=st.integers(1, 28),
    ref=refs_in_range,
)
def test_a_deadline_is_never_before_the_turn(
    lead: str, month: int, day: int, ref: datetime
) -> None:
    text = f"{lead} {_MONTHS[month - 1]} {day}."
    (tref,) = find_dates(text, ref)
    assert ref.date() <= tref.resolved < ref.date() + timedelta(days=366)
    assert (tref.resolved.month, tref.resolved.day) == (month, day)
    assert tref.toward == "future"


@settings(max_examples=300, deadline=None)
@given(lead=st.sampled_from(_PAST_LEADS), month=st.integers(1, 12), ref=refs_in_range)
def test_a_past_month_is_never_after_the_turn(lead: str, month: int, ref: datetime) -> None:
    text = f"{lead} {_MONTHS[month - 1]}."
    (tref,) = find_dates(text, ref)
    assert tref.resolved <= ref.date() < tref.resolved + timedelta(days=366)
    assert tref.resolved.month == month
    # and the same sentence fronted ("In March I moved ...") reads the same way
    verb = lead.rsplit(" in", 1)[0]
    (fronted,) = find_dates(f"In {_MONTHS[month - 1]} {verb[0].lower()}{verb[1:]}.", ref)
    assert fronted.resolved == tref.resolved


@settings(max_examples=200, deadline=None)
@given(
    wd=st.sampled_from(["Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday"]),
    n=st.integers(1, 31),
    ref=refs_in_range,
)
def test_due_weekdays_and_days_of_the_month_lie_ahead(wd: str, n: int, ref: datetime) -> None:
    (due,) = find_dates(f"The essay is due {wd}", ref)
    assert 0 <= (due.resolved - ref.date()).days <= 6 and due.resolved.strftime("%A") == wd
    (went,) = find_dates(f"We went hiking on {wd}", ref)
    assert 0 <= (ref.date() - went.resolved).days <= 6 and went.resolved.strftime("%A") == wd
    suffix = {1: "st", 2: "nd", 3: "rd", 21: "st", 22: "nd", 23: "rd", 31: "st"}.get(n, "th")
    (day,) = find_dates(f"I need it before the {n}{suffix}", ref)
    assert day.resolved.day == n and 0 <= (day.resolved - ref.date()).days < 62


# a season is three months from its first (meteorological, northern hemisphere)
@pytest.mark.parametrize(
    ("text", "ref", "label"),
    [
        ("I'm planning to apply for a PhD this autumn", datetime(2026, 9, 1), "2026-09/2026-11"),
        ("I'm planning to apply this autumn", datetime(2026, 1, 15), "2026-09/2026-11"),
        ("I went to Spain this summer", datetime(2026, 11, 10), "2026-06/2026-08"),
        ("I will visit Spain this summer", datetime(2026, 11, 10), "2027-06/2027-08"),
        ("I read 12 books this winter", datetime(2023, 11, 20), "2023-12/2024-02"),
        ("We're going to Japan next summer", datetime(2026, 7, 1), "2027-06/2027-08"),
        ("Last winter was rough", datetime(2026, 1, 15), "2024-12/2025-02"),
        ("Last winter was rough", datetime(2026, 9, 1), "2025-12/2026-02"),
        ("this fall", datetime(2026, 10, 2), "2026-09/2026-11"),
    ],
)
def test_a_season_is_its_three_months(text: str, ref: datetime, label: str) -> None:
    found = one(text, ref.replace(tzinfo=UTC))
    assert found.granularity == "season" and found.label == label
    assert f"{found.text_span} ({label})" in rewrite_relative(text, ref.replace(tzinfo=UTC))


def test_a_plan_for_a_season_lasts_to_its_end() -> None:
    said = datetime(2026, 9, 1, tzinfo=UTC)
    until = foresight("I'm planning to apply for a PhD this autumn", said)
    assert until == datetime(2026, 12, 1, tzinfo=UTC)
    assert one("In spring 2024 I moved", REF).label == "2024-03/2024-05"
    assert one("winter 2024 was cold", REF).label == "2023-12/2024-02"
