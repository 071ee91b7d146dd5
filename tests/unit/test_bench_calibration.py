"""Unit tests of the benchmarks' machine-speed readers: the calibration workload, /proc/stat
shares, the JVM CPU reader, and recall_perf's per-recall CPU figures and report.

No Neo4j and no models: the readers run against this process's own /proc entries.
"""

from __future__ import annotations

import json
import os
import threading
import time
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from benchmarks.perf.recall.calibration import (
    CpuTicks,
    calibrate,
    cpu_shares,
    parse_cpu_line,
    read_cpu_ticks,
    workload,
)
from benchmarks.perf.recall.run import cpu_figures, report_md
from benchmarks.perf.server_cpu import server_cpu_reader, thread_cpu_reader

ticks = st.integers(min_value=0, max_value=10**9)


def test_parse_cpu_line_reads_the_eight_first_fields() -> None:
    t = parse_cpu_line("cpu  3346167 3855729 591576 5011245 79479 0 25483 38508 0 0\n")
    assert t == CpuTicks(3346167, 3855729, 591576, 5011245, 79479, 0, 25483, 38508)
    assert t.busy == 3346167 + 3855729 + 591576 + 25483
    assert t.total == t.busy + 5011245 + 79479 + 38508


def test_parse_cpu_line_without_steal_reads_zero() -> None:
    assert parse_cpu_line("cpu 1 2 3 4 5 6 7").steal == 0


def test_parse_cpu_line_refuses_a_per_core_line() -> None:
    with pytest.raises(ValueError):
        parse_cpu_line("cpu0 1 2 3 4 5 6 7 8")


def test_read_cpu_ticks_moves_forward_while_this_process_works() -> None:
    before = read_cpu_ticks()
    deadline = time.perf_counter() + 0.05
    while time.perf_counter() < deadline:
        pass
    after = read_cpu_ticks()
    assert after.total >= before.total and after.busy > before.busy


@given(st.lists(ticks, min_size=8, max_size=8), st.lists(ticks, min_size=8, max_size=8))
def test_cpu_shares_sum_to_one(start: list[int], step: list[int]) -> None:
    before = CpuTicks(*start)
    after = CpuTicks(*(a + d for a, d in zip(start, step, strict=True)))
    shares = cpu_shares(before, after)
    assert all(0.0 <= v <= 1.0 for v in shares.values())
    if after.total > before.total:
        assert sum(shares.values()) == pytest.approx(1.0, abs=2e-4)
    else:
        assert shares == {"busy": 0.0, "idle": 0.0, "steal": 0.0}


def test_cpu_shares_count_steal() -> None:
    before = CpuTicks(0, 0, 0, 0, 0, 0, 0, 0)
    after = CpuTicks(50, 0, 10, 30, 0, 0, 0, 10)
    assert cpu_shares(before, after) == {"busy": 0.6, "idle": 0.3, "steal": 0.1}


def test_workload_is_deterministic_and_takes_time() -> None:
    first, second = workload(), workload()
    assert first[0] == second[0]
    assert first[1] > 0.0 and first[2] > 0.0


def test_calibrate_reports_median_and_fastest() -> None:
    passes = iter([(7, 10.0, 5.0), (7, 30.0, 5.0), (7, 20.0, 5.0)])
    out = calibrate(3, run=lambda: next(passes))
    assert out.pop("cpu_ms") >= 0.0
    assert out == {"ms": 25.0, "min_ms": 15.0, "python_ms": 20.0, "numpy_ms": 5.0, "checksum": 7}


def test_calibrate_charges_the_cpu_of_the_work() -> None:
    out = calibrate(3)
    # the workload is pure CPU in this thread: its CPU time is most of its wall when it ran alone
    # and never more than the wall (plus clock granularity)
    assert 0.0 < out["cpu_ms"] <= out["ms"] * 1.05 + 1.0


def test_calibrate_refuses_a_changing_workload() -> None:
    passes = iter([(1, 1.0, 1.0), (2, 1.0, 1.0)])
    with pytest.raises(RuntimeError):
        calibrate(2, run=lambda: next(passes))


def test_server_cpu_reader_follows_a_process_group(tmp_path: Path) -> None:
    # this test's own process group stands in for the JVM's (launched with its own session)
    (tmp_path / "server.json").write_text(json.dumps({"pid": os.getpgrp()}))
    km: Any = SimpleNamespace(settings=SimpleNamespace(home=tmp_path))
    read = server_cpu_reader(km)
    before = read()
    deadline = time.process_time() + 0.15
    while time.process_time() < deadline:
        pass
    assert read() - before >= 0.1


def test_thread_cpu_reader_counts_only_the_named_threads(tmp_path: Path) -> None:
    (tmp_path / "server.json").write_text(json.dumps({"pid": os.getpgrp()}))
    km: Any = SimpleNamespace(settings=SimpleNamespace(home=tmp_path))
    me = Path(f"/proc/self/task/{threading.get_native_id()}/comm").read_text().strip()
    mine, nobody = thread_cpu_reader(km, (me,)), thread_cpu_reader(km, ("no such thread",))
    before, none_before = mine(), nobody()
    deadline = time.process_time() + 0.15
    while time.process_time() < deadline:
        pass
    assert mine() - before >= 0.1
    assert nobody() == none_before == 0


def test_cpu_figures_per_recall() -> None:
    out = cpu_figures(100, client_s=3.0, server_s=2.0, busy_s=9.0, wall_s=4.0)
    assert out == {
        "client_cpu_ms_per_recall": 30.0,
        "server_cpu_ms_per_recall": 20.0,
        "total_cpu_ms_per_recall": 50.0,
        "others_cores": 1.0,
    }


def test_cpu_figures_without_a_known_server() -> None:
    out = cpu_figures(10, client_s=1.0, server_s=None, busy_s=5.0, wall_s=2.0)
    assert out["client_cpu_ms_per_recall"] == 100.0
    assert out["server_cpu_ms_per_recall"] is None
    assert out["total_cpu_ms_per_recall"] is None and out["others_cores"] is None


def _row(**over: Any) -> dict[str, Any]:
    row = {
        "memories": 1000,
        "variant": "all channels (default)",
        "p50_ms": 30.0,
        "p95_ms": 50.0,
        "server_p50_ms": 10.0,
        **cpu_figures(10, client_s=0.3, server_s=0.1, busy_s=1.0, wall_s=0.5),
        "jit_cpu_ms_per_recall": 1.5,
        "stage_p50_ms": {"embed": 5.0},
        "load_before": [1.0, 1.0, 1.0],
        "load_after": [2.0, 1.0, 1.0],
        "cpu_shares": {"busy": 0.9, "idle": 0.08, "steal": 0.02},
        "calibration_before": {"ms": 100.0, "cpu_ms": 80.0},
        "calibration_after": {"ms": 120.0, "cpu_ms": 90.0},
    }
    return {**row, **over}


def test_report_md_shows_the_new_columns() -> None:
    md = report_md([_row(), _row(memories=10000, calibration_after={"ms": 90.0, "cpu_ms": 85.0})])
    assert "| 1000 | all channels (default) | 30.0 | 50.0 | 10.0 | 10.0 + 30.0 = 40.0 |" in md
    assert "= 40.0 | 1.5 | 100.0 / 80.0 → 120.0 / 90.0 | 90 / 2.0 | 1.2 |" in md
    assert "wall median 100.0 ms (range 90.0–120.0), CPU median 82.5 ms (range 80.0–90.0)" in md
    assert "steal at most 2.0 %" in md


def test_report_md_says_na_without_the_server() -> None:
    no_server = cpu_figures(10, client_s=0.3, server_s=None, busy_s=1.0, wall_s=0.5)
    md = report_md([_row(**no_server, jit_cpu_ms_per_recall=None)])
    assert "| n/a + 30.0 = n/a | n/a |" in md
