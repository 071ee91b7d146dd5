"""Unit tests of the API load benchmark's pure parts: percentiles, the request plan, response
classification, the per-operation summary, the no-loss check, the extraction lag of the observed
turns and the open loop's schedule (against httpx's in-memory transport). No server."""

from __future__ import annotations

import asyncio
import math
import random
from collections import Counter
from datetime import UTC, datetime

import httpx

from benchmarks.perf.api_load.clients import drive_open
from benchmarks.perf.api_load.plan import (
    Op,
    Outcome,
    check_turns,
    classify,
    percentile,
    plan_ops,
    summarize,
)
from benchmarks.perf.api_load.workers import extraction_lags
from kgmem.records import Turn

TURNS = [
    Turn(text=f"turn {i}", speaker="Caroline", session_id="s1", at=datetime(2023, 5, 8, tzinfo=UTC))
    for i in range(7)
]


def test_percentile_interpolates_and_handles_edges() -> None:
    assert math.isnan(percentile([], 0.5))
    assert percentile([4.0], 0.99) == 4.0
    values = [10.0, 1.0, 3.0, 2.0]  # unsorted on purpose
    assert percentile(values, 0.0) == 1.0
    assert percentile(values, 1.0) == 10.0
    assert percentile(values, 0.5) == 2.5
    assert math.isclose(percentile(list(map(float, range(101))), 0.95), 95.0)


def test_plan_mixes_operations_with_unique_turns() -> None:
    ops = plan_ops(
        50, 0.2, ["q1", "q2"], TURNS, namespace="bench", run_id="r1", rng=random.Random(1), start=5
    )
    assert [o.index for o in ops] == list(range(5, 55))
    kinds = Counter(o.kind for o in ops)
    assert kinds == {"observe": 10, "recall": 40}
    turn_ids = [t for o in ops for t in o.turn_ids]
    assert len(turn_ids) == len(set(turn_ids))
    texts = [t["text"] for o in ops if o.kind == "observe" for t in o.variables["turns"]]
    assert len(texts) == len(set(texts))  # unique even though the 7 source turns wrap
    for op in ops:
        assert op.variables["ns"] == "bench"
        if op.kind == "observe":
            sent = op.variables["turns"]
            assert 1 <= len(sent) <= 3
            assert {t["sessionId"] for t in sent} == {f"load-r1-{op.index}"}
            assert all(t["at"] == "2023-05-08T00:00:00+00:00" for t in sent)
        else:
            assert op.variables["q"] in {"q1", "q2"} and op.turn_ids == ()


def test_classify_names_every_kind_of_failure() -> None:
    rec = Op(0, "recall", {})
    obs = Op(1, "observe", {}, ("t1",))
    ok = {"data": {"recall": {"__typename": "RecallOk", "hits": []}}}
    assert classify(rec, 200, ok) == (None, ok["data"]["recall"])
    rejected = {"data": {"observe": {"__typename": "Rejected", "code": "concurrent_write"}}}
    assert classify(obs, 200, rejected)[0] == "rejected:concurrent_write"
    errors = {"data": None, "errors": [{"message": "x", "extensions": {"code": "internal"}}]}
    assert classify(obs, 200, errors)[0] == "graphql:internal"
    refused = {"error": {"code": "unauthorized", "message": "no key"}}
    assert classify(rec, 401, refused)[0] == "http_401:unauthorized"
    assert classify(rec, 502, None)[0] == "http_502"
    assert classify(rec, 200, {"data": {}})[0] == "no_data"


def _outcome(index: int, kind: str, ms: float, error: str | None = None, **kw: object) -> Outcome:
    turns = (f"t{index}",) if kind == "observe" else ()
    return Outcome(Op(index, kind, {}, turns), ms, error, **kw)  # type: ignore[arg-type]


def test_summary_counts_errors_and_uses_ok_latencies() -> None:
    outs = [
        _outcome(0, "recall", 100.0),
        _outcome(1, "recall", 300.0),
        _outcome(2, "recall", 5.0, "timeout"),
        _outcome(3, "observe", 50.0),
        _outcome(4, "observe", 70.0, "rejected:concurrent_write"),
    ]
    s = summarize(outs, wall_s=2.0)
    assert list(s) == ["observe", "recall", "all"]
    assert s["recall"]["count"] == 3 and s["recall"]["ok"] == 2
    assert s["recall"]["errors"] == {"timeout": 1}
    assert s["recall"]["p50_ms"] == 200.0  # the 5 ms timeout is not an OK latency sample
    assert s["recall"]["p50_all_ms"] == 100.0  # but it is a response
    assert s["recall"]["req_per_s"] == 1.5
    assert s["all"]["count"] == 5 and s["all"]["req_per_s"] == 2.5
    assert s["all"]["errors"] == {"timeout": 1, "rejected:concurrent_write": 1}


def test_check_turns_finds_lost_and_duplicated_turns() -> None:
    outs = [
        _outcome(0, "observe", 1.0, episode_ids=("e0",)),
        _outcome(1, "observe", 1.0, episode_ids=("e1",)),
        _outcome(2, "observe", 1.0, episode_ids=("e2",)),
        _outcome(3, "observe", 1.0, "rejected:concurrent_write"),
        _outcome(4, "recall", 1.0),
    ]
    stored = Counter({"t0": 1, "t2": 2, "t3": 1, "load-stray": 1})
    v = check_turns(outs, stored, {"e0", "e2"})
    assert v["turns_ok"] == 3 and v["turns_failed"] == 1
    assert v["lost"] == 1 and v["lost_examples"] == ["t1"]
    assert v["duplicated"] == 1 and v["duplicated_examples"] == ["t2"]
    assert v["failed_turns_stored"] == 1
    assert v["receipt_episode_ids_missing"] == 1  # e1
    assert v["unknown_load_episodes"] == 1


def test_extraction_lags_cover_only_the_observed_extracted_turns() -> None:
    stored = datetime(2026, 1, 1, 12, 0, 0, tzinfo=UTC)
    committed = datetime(2026, 1, 1, 12, 0, 7, 500000, tzinfo=UTC)
    episodes = [
        {"turn_id": "load-a", "stored_at": stored, "committed_at": committed},
        {"turn_id": "load-b", "stored_at": stored, "committed_at": None},  # still pending
        {"turn_id": "store-c", "stored_at": stored, "committed_at": committed},  # not observed
        {"turn_id": "load-d"},  # an episode with neither clock
    ]
    lags = extraction_lags(episodes, {"load-a", "load-b", "load-d"})
    assert lags == [7.5]
    assert extraction_lags(episodes, set()) == []


def test_open_loop_sends_every_request_on_its_schedule() -> None:
    def answer(request: httpx.Request) -> httpx.Response:
        return httpx.Response(200, json={"data": {"recall": {"__typename": "RecallOk"}}})

    ops = [Op(i, "recall", {"q": "q", "ns": "bench", "limit": 5, "dry": True}) for i in range(5)]

    async def run() -> tuple[list[Outcome], float]:
        transport = httpx.MockTransport(answer)
        async with httpx.AsyncClient(transport=transport, base_url="http://bench") as client:
            return await drive_open(client, ops, rate=50.0)

    outcomes, wall = asyncio.run(run())
    assert sorted(o.op.index for o in outcomes) == [0, 1, 2, 3, 4]
    assert all(o.error is None and o.ms >= 0 for o in outcomes)
    assert wall >= 4 / 50  # the last request was due 80 ms after the first
