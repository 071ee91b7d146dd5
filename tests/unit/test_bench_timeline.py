"""recall_timeline's per-recall durations from its marks (first occurrence of each mark)."""

from __future__ import annotations

import pytest

from benchmarks.perf.recall.timeline import durations


def test_durations_from_the_first_marks() -> None:
    marks = [
        ("prepare.start", 0.0),
        ("prepare.end", 0.2),
        ("infer.start", 0.5),
        ("search_memory_fulltext.sent", 0.6),
        ("infer.end", 4.5),
        ("assemble.start", 5.25),
        ("assemble.end", 5.5),
        ("prepare.start", 9.0),  # a later embedding (e.g. HyDE) does not count
        ("prepare.end", 9.5),
        ("infer.start", 9.75),
    ]
    assert durations(marks) == pytest.approx(
        {"D start delay": 0.3, "D infer": 4.0, "D end delay": 0.75}
    )


def test_no_model_run_no_durations() -> None:  # a query LRU hit, or the torch backend
    assert durations([("tick.embed", 0.1), ("search_memory_vector.sent", 0.2)]) == {}
