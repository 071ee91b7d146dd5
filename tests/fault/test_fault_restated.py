"""A fact said again after a change in the same batch commits (issue: a batch pending for good).

One extraction batch in which a later turn retires a stored memory and a still later turn says
that memory's exact words again planned a new memory with the retired one's content hash; the
write lock's race check counted the retired memory (still live until the batch commits) as a
concurrent writer's, so every retry failed the same way and the batch stayed pending. The check
now leaves out what the plan itself retires, and a retired memory is no longer the node a new
memory of the same words merges into (the restated value was folded into the superseded node
and lost): every turn is extracted, and the restated value is the current one.
"""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from typing import Any

from kgmem.graph import repository
from kgmem.records import Turn
from kgmem.service import Kgmem

T0 = datetime(2025, 3, 1, 9, 0, tzinfo=UTC)


def _turn(text: str, days: int, tid: str) -> Turn:
    return Turn(text=text, speaker="Maya", session_id=f"s{days}", at=T0 + timedelta(days=days),
                turn_id=tid)  # fmt: skip


def test_a_value_restated_after_its_change_in_one_batch_commits(
    km: Kgmem, arun: Any, namespace: str
) -> None:
    arun(km.observe([_turn("I live in Denver.", 0, "a")], namespace=namespace, flush=True))
    batch = [
        _turn("I moved to Austin last week.", 40, "b"),
        _turn("I live in Denver.", 80, "c"),  # moved back: the very words said first
    ]
    report = arun(km.observe(batch, namespace=namespace, flush=True))
    assert report.extraction is not None and not report.extraction.deferred
    pending = arun(repository.find_pending_episodes(km.graph, namespace=namespace, limit=10))
    assert pending == []
    rows = arun(repository.find_memories(km.graph, namespace=namespace, statuses=None, limit=100))
    live = [r["content"] for r in rows if r["status"] == "active"]
    seen = [(r["content"], r["status"]) for r in rows]
    assert any("Denver" in c for c in live) and not any("Austin" in c for c in live), seen
