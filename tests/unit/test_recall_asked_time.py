"""The period a question names (recall/asked_time.py): explicit days, months and years, relative
dates against the moment asked, the slack around a day, and the one window the period channel
reads."""

from __future__ import annotations

from datetime import UTC, date, datetime, time, timedelta

from hypothesis import given
from hypothesis import strategies as st

from kgmem.recall.asked_time import SLACK, AskedPeriod, asked_periods, in_period, search_window

NOW = datetime(2024, 3, 20, 15, 0, tzinfo=UTC)


def _day(d: date, hour: int = 12) -> datetime:
    return datetime.combine(d, time(hour), UTC)


def test_a_named_day_is_that_day_with_a_day_of_slack_each_side() -> None:
    (p,) = asked_periods("What did Caroline paint on 13 October, 2023?", NOW)
    assert p.start == datetime(2023, 10, 12, tzinfo=UTC)
    assert p.end == datetime(2023, 10, 15, tzinfo=UTC)
    assert p.holds(_day(date(2023, 10, 13))) and p.holds(_day(date(2023, 10, 14), 23))
    assert not p.holds(_day(date(2023, 10, 15), 0)) and not p.holds(_day(date(2023, 10, 11)))


def test_months_years_and_relative_days() -> None:
    (month,) = asked_periods("What workout class did Maria start in December 2023?", NOW)
    assert month.start == datetime(2023, 11, 30, tzinfo=UTC)
    assert month.end == datetime(2024, 1, 2, tzinfo=UTC)
    (year,) = asked_periods("How many times did Melanie go to the beach in 2023?", NOW)
    assert year.holds(_day(date(2023, 6, 1))) and not year.holds(_day(date(2021, 6, 1)))
    (yesterday,) = asked_periods("What did I tell you yesterday?", NOW)
    assert yesterday.holds(_day(date(2024, 3, 19)))  # against the moment the question is asked


def test_a_date_without_its_year_holds_in_any_year() -> None:
    (june,) = asked_periods("When did Melanie go camping in June?", NOW)
    assert june.annual
    assert june.holds(_day(date(2021, 6, 14))) and june.holds(_day(date(2024, 6, 30), 23))
    assert not june.holds(_day(date(2023, 7, 10))) and not june.holds(_day(date(2023, 5, 20)))
    (day,) = asked_periods("What did his teammates give him on Aug 15th?", NOW)
    assert day.annual and day.holds(_day(date(2019, 8, 16)))
    assert not day.holds(_day(date(2019, 8, 18)))
    (eve,) = asked_periods("Where was Tim on 31 December?", NOW)
    assert eve.holds(_day(date(2023, 1, 1), 6))  # the slack carries over New Year
    (leap,) = asked_periods("What did Ana do on 29 February?", NOW)
    assert leap.holds(_day(date(2023, 2, 28)))  # a year without the day: the day before it
    # a year said, or one the wording fixes, is that year only; nor is a period of any year read
    assert not asked_periods("What happened in June 2023?", NOW)[0].annual
    assert not asked_periods("What did we do last June?", NOW)[0].annual
    assert search_window(asked_periods("What did Nate cook on 25 May?", NOW)) is None


def test_a_question_without_a_date_names_no_period() -> None:
    assert asked_periods("Where does Maya work?", NOW) == ()
    assert asked_periods("", NOW) == ()
    assert not in_period((), [NOW])
    assert search_window(()) is None


def test_a_memory_said_or_dated_in_the_period_is_in_it() -> None:
    periods = asked_periods("What happened on 8 May 2023?", NOW)
    said, dated, other = _day(date(2023, 5, 8)), _day(date(2023, 5, 8)), _day(date(2023, 7, 1))
    assert in_period(periods, (said, None))
    assert in_period(periods, (other, dated))  # told later, about that day
    assert not in_period(periods, (other, None))
    assert not in_period(periods, (None, None))


def test_the_channel_reads_a_day_or_a_week_not_a_month() -> None:
    day = asked_periods("What did Jon say on 19 June 2023 about the studio?", NOW)
    assert search_window(day) == day[0]
    week = asked_periods("What did Gina do the week before 9 June 2023?", NOW)
    assert search_window(week) == week[0]
    assert search_window(asked_periods("What did Nate cook in July 2022?", NOW)) is None
    both = asked_periods("Between July 2022 and 3 August 2022, what did Nate cook?", NOW)
    narrowest = search_window(both)
    assert narrowest is not None and narrowest.span == timedelta(days=1) + 2 * SLACK


@given(st.dates(min_value=date(1990, 1, 1), max_value=date(2090, 12, 31)), st.integers(0, 86399))
def test_every_moment_of_a_named_day_is_in_its_period(day: date, second: int) -> None:
    question = f"What did Ana say on {day.day} {day.strftime('%B')} {day.year}?"
    (p,) = asked_periods(question, NOW)
    moment = datetime.combine(day, time(), UTC) + timedelta(seconds=second)
    assert p.holds(moment)
    assert not p.holds(moment + timedelta(days=3)) and not p.holds(moment - timedelta(days=3))


def test_a_period_is_half_open() -> None:
    p = AskedPeriod(datetime(2024, 1, 1, tzinfo=UTC), datetime(2024, 1, 2, tzinfo=UTC))
    assert p.holds(p.start) and not p.holds(p.end) and not p.holds(None)


@given(st.integers(1990, 2090), st.integers(1, 12), st.integers(1, 28), st.integers(0, 86399))
def test_a_month_without_its_year_holds_that_month_of_every_year(
    year: int, month: int, day: int, second: int
) -> None:
    (p,) = asked_periods(f"What did Ana do in {date(2000, month, 1):%B}?", NOW)
    moment = datetime(year, month, day, tzinfo=UTC) + timedelta(seconds=second)
    assert p.annual and p.holds(moment)
    assert not p.holds(moment + timedelta(days=40)) and not p.holds(moment - timedelta(days=40))
