"""Hydration micro-benchmark: the client-side cost of turning ``get_recall_candidates``' answer
into scoring candidates, without a database.

It builds one answer of ``--candidates`` rows shaped as the statement sends them (a 384-float
embedding, timestamps as UTC epoch microseconds, entities, two turns with text, a co-activation),
hands it to ``repository.get_recall_candidates`` through a stand-in client that returns it as the
driver would (a fresh copy per call: the driver builds new objects every time), and runs
hydration's CPU part (``hydration._hydrated``) on the result. It prints the median and the best
of ``--repeats`` timings of the gateway's conversion and of the whole, in milliseconds. Only
relative figures mean anything: compare two codes on the same machine, interleaved.

    python -m benchmarks.perf.recall.hydration [--candidates 150] [--repeats 200]
"""

from __future__ import annotations

import argparse
import copy
import random
import statistics
import time
from collections.abc import Coroutine
from typing import Any, TypeVar, cast

from kgmem.graph import repository
from kgmem.recall import hydration
from kgmem.recall.filters import Evidence

T = TypeVar("T")
_US = 1_700_000_000_000_000  # an epoch-microsecond instant in 2023


def _row(i: int, rng: random.Random) -> dict[str, Any]:
    memory = {
        "id": f"m{i}",
        "content": f"Maya mentioned that her sister moved to Denver in spring ({i})",
        "category": "fact",
        "type": "fact",
        "status": "active",
        "tier": "episodic",
        "lifecycle_state": None,
        "verification_state": None,
        "source": "conversation",
        "importance": 0.6,
        "utility": 0.5,
        "confidence": 0.8,
        "source_trust": 0.7,
        "access_count": 3,
        "stability": 1.4,
        "session_id": "s1",
        "valence": 0.1,
        "embedding": [rng.uniform(-1, 1) for _ in range(384)],
        "created_at": _US + i,
        "last_accessed": _US + 10 * i,
        "valid_from": _US,
        "valid_until": None,
        "recorded_at": _US + i,
    }
    turns = [
        {"turn": f"t{i}a", "text": "My sister moved to Denver last spring."},
        {"turn": f"t{i}b", "text": "She loves the mountains there."},
    ]
    return {
        "memory": memory,
        "entities": ["maya", "denver"],
        "people": ["maya"],
        "turns": turns,
        "coactive": [{"id": f"m{(i + 1) % 150}", "count": 2}],
        "superseded_by": [],
    }


class _Answer:
    """Stands in for the graph client: ``run`` returns the statement's one row, freshly copied."""

    def __init__(self, rows: list[dict[str, Any]]) -> None:
        self.rows = rows

    async def run(self, name: str, **params: Any) -> list[dict[str, Any]]:
        return [{"rows": copy.deepcopy(self.rows)}]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--candidates", type=int, default=150)
    parser.add_argument("--repeats", type=int, default=200)
    args = parser.parse_args()
    rng = random.Random(7)
    rows = [_row(i, rng) for i in range(args.candidates)]
    ids = [r["memory"]["id"] for r in rows]
    ev = {mid: Evidence(vector=0.8, ranks={"vector": (n + 1, 0.8)}) for n, mid in enumerate(ids)}
    rrf = {mid: 1.0 / (61 + n) for n, mid in enumerate(ids)}
    graph: Any = _Answer(rows)
    gateway: list[float] = []
    whole: list[float] = []
    for _ in range(args.repeats):
        answer = _now(graph.run("get_recall_candidates"))
        graph_once: Any = _Once(answer)
        t0 = time.perf_counter()
        got = _now(repository.get_recall_candidates(graph_once, namespace="ns", ids=ids))
        t1 = time.perf_counter()
        hydration._hydrated(got, "where did Maya's sister move?", ev, rrf, frozenset({"maya"}))
        t2 = time.perf_counter()
        gateway.append((t1 - t0) * 1000)
        whole.append((t2 - t0) * 1000)
    for name, times in (("gateway conversion", gateway), ("gateway + hydration", whole)):
        print(
            f"{name}: median {statistics.median(times):.3f} ms, best {min(times):.3f} ms "
            f"({args.candidates} candidates, {args.repeats} runs)"
        )


def _now(coro: Coroutine[Any, Any, T]) -> T:
    """Run a coroutine that never waits, without an event loop (its setup is not hydration)."""
    try:
        coro.send(None)
    except StopIteration as done:
        return cast(T, done.value)
    raise RuntimeError("the coroutine waited")


class _Once:
    """A client whose one answer was copied before the clock started (the copy is not timed)."""

    def __init__(self, answer: list[dict[str, Any]]) -> None:
        self.answer = answer

    async def run(self, name: str, **params: Any) -> list[dict[str, Any]]:
        return self.answer


if __name__ == "__main__":
    main()
