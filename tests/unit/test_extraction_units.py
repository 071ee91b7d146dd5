"""Pure parts of extraction by workers: the poll backoff, the lag quantile, an observe's outcome
read back from episode rows, the /metrics lines, and where extraction runs per mode."""

from __future__ import annotations

import math

import pytest
from hypothesis import given
from hypothesis import strategies as st

from kgmem.api.app import serving
from kgmem.api.extraction_metrics import lines
from kgmem.errors import InvalidInput
from kgmem.ingest.extraction.stats import ExtractionStats, quantile
from kgmem.ingest.intake import extracts_inline
from kgmem.ingest.turns.outcome import outcome_of
from kgmem.ingest.turns.polling import Backoff
from kgmem.records import TurnSkip
from kgmem.settings import Settings


def test_backoff_doubles_to_its_bound() -> None:
    b = Backoff(0.05, 2.0)
    assert [b.delay(i) for i in range(7)] == [0.05, 0.1, 0.2, 0.4, 0.8, 1.6, 2.0]
    assert b.delay(10_000) == 2.0
    with pytest.raises(InvalidInput):
        Backoff(0.0, 1.0)
    with pytest.raises(InvalidInput):
        Backoff(2.0, 1.0)
    with pytest.raises(InvalidInput):
        b.delay(-1)


@given(st.floats(0.001, 10), st.floats(0.001, 100), st.integers(0, 10_000))
def test_backoff_never_exceeds_the_bound_and_never_shrinks(
    first: float, extra: float, rounds: int
) -> None:
    b = Backoff(first, first + extra)
    assert first <= b.delay(rounds) <= first + extra
    assert b.delay(rounds) <= b.delay(rounds + 1)


def test_quantile_is_nearest_rank() -> None:
    values = [float(v) for v in range(1, 101)]
    assert quantile(values, 0.5) == 50.0
    assert quantile(values, 0.95) == 95.0
    assert quantile(values, 0.99) == 99.0
    assert quantile([3.0], 0.99) == 3.0
    assert math.isnan(quantile([], 0.5))
    with pytest.raises(ValueError):
        quantile(values, 1.5)


@given(st.lists(st.floats(0, 1e6), min_size=1), st.floats(0, 1))
def test_quantile_is_one_of_the_values_and_bounded(values: list[float], q: float) -> None:
    got = quantile(values, q)
    assert got in values and min(values) <= got <= max(values)


def test_outcome_counts_only_committed_episodes() -> None:
    rows = [
        {
            "id": "a",
            "extracted": True,
            "skip_reasons": None,
            "engine": "local",
            "memory_ids": ["m2", "m1"],
        },
        {
            "id": "b",
            "extracted": True,
            "skip_reasons": ["too_short"],
            "engine": "local",
            "memory_ids": [],
        },
        {"id": "c", "extracted": False, "skip_reasons": None, "engine": None, "memory_ids": []},
    ]
    out = outcome_of(["a", "b", "c", "d", "a"], rows)  # d has no row; a is sent twice
    assert (out.extracted, out.pending, out.done) == (2, 2, False)
    assert out.skips == (TurnSkip("b", ("too_short",)),)
    assert out.memory_ids == ("m1", "m2") and out.engine == "local"
    assert outcome_of(["a", "b"], rows).done


def test_metrics_lines_show_the_reading() -> None:
    stats = ExtractionStats(
        pending=7, oldest_pending_s=3.5, lags_s=(1.0, 2.0, 9.0), claims=4, expiries=1, leases_held=2
    )
    text = "\n".join(lines(stats))
    assert "kgmem_extraction_pending_episodes 7" in text
    assert 'kgmem_extraction_lag_seconds{quantile="0.5"} 2' in text
    assert 'kgmem_extraction_lag_seconds{quantile="0.99"} 9' in text
    assert "kgmem_extraction_lag_seconds_count 3" in text
    assert "kgmem_extraction_lag_seconds_sum 12" in text
    assert "kgmem_extraction_lease_claims_total 4" in text
    assert "kgmem_extraction_lease_expiries_total 1" in text
    assert "kgmem_extraction_leases_held 2" in text
    empty = "\n".join(lines(ExtractionStats(0, 0.0, (), 0, 0, 0)))
    assert 'kgmem_extraction_lag_seconds{quantile="0.95"} NaN' in empty


def test_auto_is_inline_in_process_and_worker_under_the_api() -> None:
    assert extracts_inline(Settings().extraction_mode)
    assert not extracts_inline(serving(Settings()).extraction_mode)
    assert extracts_inline(serving(Settings(extraction_mode="inline")).extraction_mode)
    assert not extracts_inline("worker")
