"""The ``truth`` benchmark's runner on the real stack: a scenario observed in both arrival modes
is read back with every memory's status and the scenario turns it derives from, scored, and its
namespace wiped. The scores themselves are the benchmark's business, not this test's."""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

import pytest

from benchmarks.quality.truth.corpus import load
from benchmarks.quality.truth.run import ALL_STATUSES, memory_states, run_one
from benchmarks.quality.truth.scoring import CHANGE_METRICS, CONTROL_METRICS
from kgmem.service import Kgmem

END = datetime(2026, 3, 10, tzinfo=UTC)


@pytest.mark.parametrize("mode", ["batch", "turn"])
def test_a_change_is_observed_read_back_with_provenance_and_scored(
    km: Kgmem, arun: Any, mode: str
) -> None:
    s = next(x for x in load() if x.id == "pref-01")  # oat milk -> almond milk
    out = arun(run_one(km, s, mode, END, keep=True))
    ns = out.notes["namespace"]
    try:
        assert ns.startswith(f"truth-{mode}-pref-01-")
        assert set(out.metrics) == set(CHANGE_METRICS)
        assert set(out.seconds) == {"observe", "recall", "read"}
        memories = arun(memory_states(km, s, ns))
        assert out.memories == len(memories) > 0
        keys = {k for m in memories for k in m.turns}
        assert keys <= {"old", "new", "f1", "f2", "f3", "f4"}
        assert {"old", "new"} <= keys  # both statements left a memory, linked to its turn
        assert out.metrics["old_stored"] is True
        assert all(m.status for m in memories)
    finally:
        arun(km.wipe_namespace(ns))


def test_a_control_run_wipes_its_namespace(km: Kgmem, arun: Any) -> None:
    s = next(x for x in load() if x.id == "op-01")
    out = arun(run_one(km, s, "batch", END))
    assert set(out.metrics) == set(CONTROL_METRICS)
    assert "wipe" in out.seconds and out.memories > 0
    assert out.notes["kept"] == "false"
    left = arun(km.memory_page(namespace=out.notes["namespace"], statuses=ALL_STATUSES))
    assert left == []
