"""The replay's memo: answers keyed by exact arguments, hydration per id, refuses inexact use."""

from __future__ import annotations

import asyncio
from dataclasses import fields
from pathlib import Path
from typing import Any

import pytest

from benchmarks.quality.locomo.replay import Memo
from kgmem.graph.rows import CandidateMemory, RecallCandidate, recall_candidate


def test_memo_answers_each_distinct_call_once_and_persists(tmp_path: Path) -> None:
    calls: list[dict[str, Any]] = []

    async def search(graph: object, **kw: Any) -> list[dict[str, Any]]:
        calls.append(kw)
        return [{"id": kw["query"], "score": 1.0}]

    memo = Memo(tmp_path / "memo.pkl")
    wrapped = memo.wrap("search", search)
    a = asyncio.run(wrapped(None, namespace="n", query="x", k=5))
    b = asyncio.run(wrapped(None, k=5, query="x", namespace="n"))  # keyword order is irrelevant
    c = asyncio.run(wrapped(None, namespace="n", query="y", k=5))
    assert a == b and a != c and len(calls) == 2 and memo.misses == 2
    memo.save()
    again = Memo(tmp_path / "memo.pkl")
    assert asyncio.run(again.wrap("search", search)(None, namespace="n", query="x", k=5)) == a
    assert again.misses == 0 and len(calls) == 2


def _row(mid: str, coactive: list[dict[str, Any]] | None = None) -> RecallCandidate:
    """A candidate as the gateway returns it; by default with the empty co-activation map the
    query collects when there is none."""
    memory = dict.fromkeys(f.name for f in fields(CandidateMemory))
    memory |= {"id": mid, "content": f"memory {mid}", "created_at": 0}
    return recall_candidate(
        {
            "memory": memory,
            "entities": [],
            "people": [],
            "turns": [],
            "coactive": coactive or [{"id": None, "count": None}],
            "superseded_by": [],
        }
    )


def test_candidates_are_fetched_per_missing_id_in_the_asked_order(tmp_path: Path) -> None:
    asked: list[list[str]] = []

    async def hydrate(graph: object, *, namespace: str, ids: list[str]) -> list[RecallCandidate]:
        asked.append(list(ids))
        return [_row(i) for i in ids if i != "gone"]

    memo = Memo(tmp_path / "m.pkl")
    fetch = memo.wrap_candidates(hydrate)
    first = asyncio.run(fetch(None, namespace="n", ids=["a", "b"]))
    second = asyncio.run(fetch(None, namespace="n", ids=["b", "c", "gone"]))
    assert [r.memory.id for r in first] == ["a", "b"]
    assert [r.memory.id for r in second] == ["b", "c"]
    assert asked == [["a", "b"], ["c", "gone"]]


def test_candidates_with_co_activation_are_refused(tmp_path: Path) -> None:
    async def hydrate(graph: object, *, namespace: str, ids: list[str]) -> list[RecallCandidate]:
        return [_row(i, [{"id": "other", "count": 3}]) for i in ids]

    memo = Memo(tmp_path / "m.pkl")
    with pytest.raises(RuntimeError, match="CO_ACTIVATED"):
        asyncio.run(memo.wrap_candidates(hydrate)(None, namespace="n", ids=["a"]))
