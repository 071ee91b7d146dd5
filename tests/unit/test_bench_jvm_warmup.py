"""The benchmark warm-up: it stops only once the JIT compilers settled, within its bounds."""

from __future__ import annotations

import asyncio
from collections.abc import Iterator
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from benchmarks.perf.recall.jvm_warmup import (
    SETTLE_BATCHES,
    WARM_BATCH,
    Warmup,
    settled,
    warm_up,
    warmup_md,
)


class Recorder:
    """Stands in for ``Kgmem`` (the warm-up only calls ``recall``), recording each call."""

    def __init__(self) -> None:
        self.calls: list[tuple[str, str, dict[str, Any]]] = []

    async def recall(self, query: str, *, namespace: str, **opts: Any) -> None:
        self.calls.append((query, namespace, opts))


def _jit(per_batch_ms: list[float]) -> Any:
    """A compiler-CPU reading that grows by the given ms per recall over each batch."""
    total = [0.0]
    batches: Iterator[float] = iter(per_batch_ms)
    reads = [0]

    def read() -> float:
        reads[0] += 1
        if reads[0] % 2 == 0:  # the reading after a batch
            total[0] += next(batches) * WARM_BATCH / 1000
        return total[0]

    return read


def test_it_runs_until_the_compilers_settle() -> None:
    km = Recorder()
    budget = Warmup(least=200, most=2000, jit_ms_per_recall=3.0)
    # one quiet batch (1.0) between bursts is not enough: the mean of the last three decides
    per_batch = [110.0, 26.0, 1.0, 6.0, 2.5, 1.5, 0.5, 9.0]
    out = asyncio.run(warm_up(km, "ns", ["a", "b", "c"], [{}, {"profile": "precise"}], budget,
                              _jit(per_batch)))  # fmt: skip
    assert out["recalls"] == 7 * WARM_BATCH and out["last_jit_cpu_ms_per_recall"] == 1.5
    assert all(opts["dry"] for _, _, opts in km.calls)
    assert {ns for _, ns, _ in km.calls} == {"ns"}
    # each batch takes the next variant's options, and the questions are cycled
    assert km.calls[0][2] == {"dry": True} and km.calls[WARM_BATCH][2]["profile"] == "precise"
    assert [q for q, _, _ in km.calls[:4]] == ["a", "b", "c", "a"]


def test_it_stops_at_most_recalls_even_while_compiling() -> None:
    km = Recorder()
    out = asyncio.run(warm_up(km, "ns", ["a"], [{}], Warmup(100, 300, 3.0), _jit([50.0] * 10)))
    assert out["recalls"] == 300 and len(km.calls) == 300


def test_without_a_reading_it_runs_the_least() -> None:
    out = asyncio.run(warm_up(Recorder(), "ns", ["a"], [{}], Warmup(500, 4000, 3.0), None))
    assert out["recalls"] == 500 and out["last_jit_cpu_ms_per_recall"] is None
    assert "not readable" in warmup_md([{"memories": 1000, **out}])


def test_it_refuses_an_empty_pool() -> None:
    with pytest.raises(ValueError):
        asyncio.run(warm_up(Recorder(), "ns", [], [{}], Warmup(100, 200, 3.0), None))


@given(
    least=st.integers(0, 5000),
    most=st.integers(0, 5000),
    done=st.integers(0, 6000),
    jit=st.lists(st.floats(0, 500), max_size=8),
    limit=st.floats(0, 50),
)
def test_settled_respects_its_bounds(
    least: int, most: int, done: int, jit: list[float], limit: float
) -> None:
    budget = Warmup(least, most, limit)
    last = jit[-SETTLE_BATCHES:]
    if done >= most:
        assert settled(budget, done, jit)
    elif done < least:
        assert not settled(budget, done, jit)
    else:
        calm = len(last) == SETTLE_BATCHES and sum(last) / SETTLE_BATCHES <= limit
        assert settled(budget, done, jit) == calm


def test_settled_without_readings_goes_by_the_count() -> None:
    budget = Warmup(200, 1000, 3.0)
    assert not settled(budget, 100, [None])
    assert settled(budget, 200, [None, None])


def test_warmup_md_names_each_size() -> None:
    md = warmup_md(
        [
            {"memories": 1000, "recalls": 700, "seconds": 30.2,
             "last_jit_cpu_ms_per_recall": 1.8, "settled_at_ms": 3.0},
            {"memories": 100000, "recalls": 100, "seconds": 3.1,
             "last_jit_cpu_ms_per_recall": 0.4, "settled_at_ms": 3.0},
        ]
    )  # fmt: skip
    assert "- 1000 memories: 700 untimed recalls in 30.2 s" in md
    assert "over the last 300: 0.4 ms (settled at ≤ 3.0 ms)" in md
