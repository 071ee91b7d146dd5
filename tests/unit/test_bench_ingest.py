"""Unit tests of the ingest benchmark's stage accounting over plain trace records (the shape
``Tracer.summary()`` returns; no Neo4j, no models)."""

from __future__ import annotations

from typing import Any

from benchmarks.perf.ingest.report import report, statement_rows
from benchmarks.perf.ingest.run import intake_seconds
from benchmarks.perf.ingest.trace import Tracer


def _timed(calls: int, seconds: float) -> dict[str, Any]:
    return {"calls": calls, "seconds": seconds, "server_cpu_s": 0.0}


def test_intake_reads_the_single_statement_timings_the_intake_path_emits() -> None:
    # observe() runs create_episodes and get_pending_summary through GraphClient.run, which the
    # tracer files under "queries"; "statements" holds only the steps of batched writes.
    trace = {
        "queries": {
            "create_episodes": _timed(3, 2.5),
            "get_pending_summary": _timed(1, 0.25),
            "find_pending_episodes": _timed(4, 9.0),
        },
        "statements": {"create_memories": _timed(2, 7.0)},
    }
    assert intake_seconds(trace) == 2.75


def test_intake_is_not_counted_twice_when_steps_repeat_the_single_statements() -> None:
    # An older tracer filed every single statement under both keys; a batch is "a+b" in queries.
    trace = {
        "queries": {"create_episodes": _timed(1, 1.0), "create_episodes+claim": _timed(1, 5.0)},
        "statements": {"create_episodes": _timed(1, 1.0)},
    }
    assert intake_seconds(trace) == 1.0


def test_intake_is_zero_without_intake_statements() -> None:
    assert intake_seconds({"queries": {}, "statements": {}}) == 0.0


def test_intake_reads_a_real_tracer_summary() -> None:
    tracer = Tracer()
    tracer._count("create_episodes", 0.5, 0.0)  # what traced_run records for a single statement
    tracer._count("get_pending_summary", 0.125, 0.0)
    assert intake_seconds(tracer.summary()) == 0.625


def test_the_statement_table_lists_single_statements_and_batched_steps_once() -> None:
    # Reads run alone and were missing from the table when it showed only "statements" (the
    # steps of batched writes); a batched write's "a+b" transaction is covered by its steps.
    tracer = Tracer()
    tracer._count("search_memory_neighbours", 2.0, 0.0)
    tracer._count("create_memories+link_memories", 3.0, 0.0)
    tracer.steps.update({"create_memories": 1, "link_memories": 1})
    tracer.step_s.update({"create_memories": 1.0, "link_memories": 1.5})
    tracer.step_cpu.update({"create_memories": 0.0, "link_memories": 0.0})
    rows = [
        (name, run, q["calls"], q["seconds"]) for name, run, q in statement_rows(tracer.summary())
    ]
    assert rows == [
        ("search_memory_neighbours", "alone", 1, 2.0),
        ("link_memories", "batched", 1, 1.5),
        ("create_memories", "batched", 1, 1.0),
    ]


def test_a_gate_scale_only_report_is_the_scale_table() -> None:
    row = {
        "memories": 1000,
        "median_ms_per_batch_of_64": 12.5,
        "ms_per_candidate": 0.2,
        "server_cpu_ms_per_candidate": 0.1,
        "statements_per_lookup": 1.0,
        "load_average": 3.2,
    }
    lines = report(None, [row]).splitlines()
    assert lines[1] == "Gate neighbour lookup (64 candidates, k = 10) by store size:"
    assert lines[-1] == "| 1000 | 12.5 | 0.2 | 0.1 | 1.0 | 3.2 |"
