"""The number checks the pure stages share (kgmem/core/validation.py): what passes, what is
refused."""

from __future__ import annotations

import math
from datetime import UTC, datetime

import pytest
from hypothesis import given
from hypothesis import strategies as st

from kgmem.core.validation import check_aware, check_count, check_number, check_unit
from kgmem.errors import InvalidInput


@given(st.floats(allow_nan=False))
def test_check_number_passes_every_real_number_through_as_a_float(x: float) -> None:
    assert check_number(x, what="x") == x
    assert isinstance(check_number(int(x) if math.isfinite(x) else x, what="x"), float)


@pytest.mark.parametrize("bad", [math.nan, True, "1", None, [1.0]])
def test_check_number_refuses_nan_bools_and_non_numbers(bad: object) -> None:
    with pytest.raises(InvalidInput, match="x must be a number"):
        check_number(bad, what="x")


def test_check_number_enforces_its_lower_bound() -> None:
    assert check_number(0.0, what="days", low=0.0) == 0.0
    with pytest.raises(InvalidInput, match=r"days must be at least 0\.0"):
        check_number(-1e-9, what="days", low=0.0)


@given(st.floats(allow_nan=True, allow_infinity=True))
def test_check_unit_passes_exactly_the_unit_interval(x: float) -> None:
    if 0.0 <= x <= 1.0:
        assert check_unit(x, what="r") == x
    else:
        with pytest.raises(InvalidInput, match=r"^r must be"):
            check_unit(x, what="r")


@pytest.mark.parametrize("bad", [-1, 1.0, True, "3"])
def test_check_count_refuses_negatives_floats_bools_and_strings(bad: object) -> None:
    with pytest.raises(InvalidInput, match="n must be a non-negative integer"):
        check_count(bad, what="n")
    assert check_count(0, what="n") == 0


def test_check_aware_refuses_naive_datetimes() -> None:
    aware = datetime(2026, 1, 1, tzinfo=UTC)
    assert check_aware(aware, what="now") is aware
    with pytest.raises(InvalidInput, match="now must be a timezone-aware datetime"):
        check_aware(datetime(2026, 1, 1), what="now")
