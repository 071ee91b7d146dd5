"""The SDK client against a tiny fake GraphQL endpoint (httpx.MockTransport), and the Memory
interface both forms share.

The fake answers like kgmem's API (same operation shapes, ``Rejected`` unions, GraphQL errors,
HTTP refusals); the real endpoint is exercised by the API's own tests. A contract test checks
the client's documents against the real schema, so the two cannot drift apart silently.
"""

from __future__ import annotations

import asyncio
import inspect
import json
from collections.abc import Callable
from datetime import UTC, datetime
from typing import Any

import httpx
import pytest

from kgmem.errors import InvalidInput, KgmemError, NotFound
from kgmem.recall.xray import ChannelEvidence, Dropped, DropReason, HitExplain, PathStep, Xray
from kgmem.records import Turn, WriteReceipt
from kgmem.sdk import KgmemClient, Memory, RemoteError, RemoteUnavailable, run_sync
from kgmem.sdk.decoding import xray_of
from kgmem.sdk.documents import FACTS, OBSERVE, RECALL, REMEMBER
from kgmem.service import Kgmem
from kgmem.settings import Settings

KEY = "k" * 24
URL = "http://kgmem.test"
AT = datetime(2024, 3, 1, 9, 30, tzinfo=UTC)

XRAY = Xray(
    query="where does Maya live",
    intent="factual",
    sub_queries=("where does Maya live",),
    hyde=("Maya lives in a city.",),
    hits=(
        HitExplain(
            memory_id="m1",
            content="Maya moved to Denver.",
            final_score=0.75,
            contributions={"similarity": 0.5, "recency": 0.25},
            channels=(ChannelEvidence("vector", 1, 0.91), ChannelEvidence("entity", 2, 1.0)),
            path=(
                PathStep("e1", "Entity", "Maya"),
                PathStep("m1", "Memory", "Maya moved…", "MENTIONS", 0.9),
            ),
            valid_from=AT,
            valid_until=None,
            status="active",
            episodes=("ep1",),
            factors={"similarity": 0.91, "recency": 1.0},
            injection="full",
        ),
    ),
    dropped=(Dropped("m2", "Maya likes tea.", DropReason.LIMIT, "ranked below 1", 0.2),),
    timings={"embed": 3.5, "channels": 12.25},
    queries_run=("search_memory_vector", "search_memory_fulltext"),
)
RECEIPT = {
    "action": "created",
    "memoryId": "m1",
    "reason": "",
    "relatedIds": ["m0"],
    "entities": ["Maya", "Denver"],
}
HIT = {
    "memoryId": "m1",
    "content": "Maya moved to Denver.",
    "score": 0.75,
    "category": "fact",
    "status": "active",
    "injection": "full",
    "turnIds": ["ep1"],
    "validFrom": AT.isoformat(),
    "validUntil": None,
    "channels": [{"channel": "vector", "rank": 1, "rawScore": 0.91}],
}


class FakeApi:
    """Answers the SDK's three operations the way kgmem's GraphQL API does."""

    def __init__(self) -> None:
        self.requests: list[dict[str, Any]] = []
        self.headers: list[httpx.Headers] = []
        self.answer: Callable[[str, dict[str, Any]], httpx.Response] | None = None

    def __call__(self, request: httpx.Request) -> httpx.Response:
        body = json.loads(request.content)
        self.requests.append(body)
        self.headers.append(request.headers)
        assert request.url == URL + "/graphql"
        if request.headers.get("authorization") != f"Bearer {KEY}":
            refusal = {"code": "unauthorized", "message": "send an API key"}  # as the API does
            return httpx.Response(401, json={"error": refusal})
        op = body["query"].split("(")[0].split()[-1]
        if self.answer is not None:
            return self.answer(op, body["variables"])
        return httpx.Response(200, json={"data": self.data(op, body["variables"])})

    def data(self, op: str, v: dict[str, Any]) -> dict[str, Any]:
        if op == "Remember":
            return {"remember": {"__typename": "RememberOk", "receipt": RECEIPT}}
        if op == "Observe":
            return {
                "observe": {
                    "__typename": "ObserveOk",
                    "episodeIds": ["ep1", "ep2"],
                    "newEpisodes": 2,
                    "trigger": "flush" if v["flush"] else "buffered",
                    "extractedEpisodes": 2 if v["flush"] else 0,
                    "skippedTurns": 0,
                    "conflicts": 0,
                    "deferred": False,
                    "engine": "local" if v["flush"] else None,
                    "receipts": [RECEIPT] if v["flush"] else [],
                }
            }
        assert op == "Recall"
        xray = {"raw": XRAY.to_dict()} if v["explain"] else None
        return {"recall": {"__typename": "RecallOk", "skipped": None, "hits": [HIT], "xray": xray}}


@pytest.fixture
def api() -> FakeApi:
    return FakeApi()


def _client(api: FakeApi, key: str | None = KEY) -> KgmemClient:
    return KgmemClient(URL, key, transport=httpx.MockTransport(api))


def test_remember_returns_the_services_receipt(api: FakeApi) -> None:
    receipt = asyncio.run(_client(api).remember("Maya moved to Denver.", namespace="demo"))
    assert receipt == WriteReceipt("created", "m1", "", ("m0",), ("Maya", "Denver"))
    sent = api.requests[0]
    assert sent["query"] == REMEMBER
    assert sent["variables"]["input"] == {
        "text": "Maya moved to Denver.",
        "category": "fact",
        "source": "human",
        "strategy": None,
        "namespace": "demo",
    }


def test_observe_sends_turns_and_rebuilds_the_report(api: FakeApi) -> None:
    turns = [
        Turn("I moved to Denver.", speaker="Maya", session_id="s1", at=AT, turn_id="t1"),
        Turn("Nice!", role="assistant"),
    ]
    report = asyncio.run(_client(api).observe(turns, namespace="demo", flush=True))
    assert report.episode_ids == ("ep1", "ep2") and report.new_episodes == 2
    assert report.extraction is not None
    assert [r.memory_id for r in report.extraction.receipts] == ["m1"]
    sent = api.requests[0]["variables"]
    assert sent["turns"][0] == {
        "text": "I moved to Denver.",
        "role": "user",
        "speaker": "Maya",
        "sessionId": "s1",
        "at": AT.isoformat(),
        "turnId": "t1",
    }
    buffered = asyncio.run(_client(api).observe(turns[:1]))
    assert buffered.trigger == "buffered" and buffered.extraction is None


def test_recall_maps_options_and_rebuilds_hits(api: FakeApi) -> None:
    result = asyncio.run(
        _client(api).recall(
            "where does Maya live",
            namespace="demo",
            limit=3,
            profile="recent",
            categories=["fact"],
            min_confidence=0.5,
            as_of=AT,
        )
    )
    hit = result.hits[0]
    assert (hit.memory_id, hit.score, hit.valid_from, hit.valid_until) == ("m1", 0.75, AT, None)
    assert hit.channels == (ChannelEvidence("vector", 1, 0.91),)
    assert hit.turn_ids == ("ep1",)
    sent = api.requests[0]["variables"]
    assert sent["filters"] == {"categories": ["fact"], "minConfidence": 0.5}
    assert (sent["profile"], sent["asOf"], sent["limit"]) == ("recent", AT.isoformat(), 3)
    assert (sent["dry"], sent["explain"]) == (False, False)
    assert result.xray.hits == ()  # no X-ray asked for


def test_explain_returns_the_same_xray_record(api: FakeApi) -> None:
    xray = asyncio.run(_client(api).explain("where does Maya live", namespace="demo"))
    assert xray == XRAY  # every field, nested records and datetimes included
    sent = api.requests[0]["variables"]
    assert (sent["explain"], sent["dry"]) == (True, True)  # explaining is not an access
    asyncio.run(_client(api).explain("q", dry=False))
    assert api.requests[1]["variables"]["dry"] is False
    assert xray_of(XRAY.to_dict()) == XRAY


def test_unknown_recall_options_fail_before_any_request(api: FakeApi) -> None:
    with pytest.raises(InvalidInput, match="activation"):
        asyncio.run(_client(api).recall("q", activation="pagerank"))
    assert api.requests == []


@pytest.mark.parametrize(
    ("code", "error"),
    [("invalid_input", InvalidInput), ("not_found", NotFound), ("rate_limited", RemoteError)],
)
def test_a_rejected_result_raises_the_services_typed_error(
    api: FakeApi, code: str, error: type[KgmemError]
) -> None:
    api.answer = lambda op, v: httpx.Response(
        200,
        json={
            "data": {
                "remember": {"__typename": "Rejected", "reason": "text is empty", "code": code}
            }
        },
    )
    with pytest.raises(error, match="text is empty") as caught:
        asyncio.run(_client(api).remember(" "))
    assert caught.value.code == code


def test_graphql_errors_and_http_refusals_are_remote_errors(api: FakeApi) -> None:
    api.answer = lambda op, v: httpx.Response(
        200,
        json={
            "data": None,
            "errors": [
                {
                    "message": "this API key may not use namespace 'x'",
                    "extensions": {"code": "forbidden"},
                }
            ],
        },
    )
    with pytest.raises(RemoteError, match="may not use namespace") as caught:
        asyncio.run(_client(api).recall("q", namespace="x"))
    assert caught.value.code == "forbidden"

    api.answer = None
    with pytest.raises(RemoteError, match=r"send an API key \(HTTP 401\)") as caught:
        asyncio.run(_client(api, key=None).recall("q"))
    assert caught.value.code == "unauthorized"

    api.answer = lambda op, v: httpx.Response(413, text="too large")
    with pytest.raises(RemoteError, match="HTTP 413") as caught:
        asyncio.run(_client(api).recall("q"))
    assert caught.value.code == "too_large"


def test_an_unreachable_api_is_remote_unavailable() -> None:
    def refuse(request: httpx.Request) -> httpx.Response:
        raise httpx.ConnectError("connection refused", request=request)

    client = KgmemClient(URL + "/", KEY, transport=httpx.MockTransport(refuse))
    with pytest.raises(RemoteUnavailable, match="kgmem serve"):
        asyncio.run(client.recall("q"))


def test_one_connection_pool_inside_async_with(api: FakeApi) -> None:
    async def many() -> None:
        async with _client(api) as client:
            first = client._http
            await client.remember("a")
            await client.recall("b")
            assert client._http is first is not None
        assert client._http is None

    asyncio.run(many())
    assert len(api.requests) == 2


def test_run_sync_drives_any_call_from_plain_code(api: FakeApi) -> None:
    client = _client(api)
    assert run_sync(client.remember("x")).memory_id == "m1"

    async def inside_a_running_loop() -> str:  # as in a Jupyter cell
        return run_sync(client.remember("y")).memory_id

    assert asyncio.run(inside_a_running_loop()) == "m1"


def test_both_forms_are_a_memory() -> None:
    """The remote client and the in-process service answer to the same interface (mypy checks
    the signatures in kgmem/sdk/memory.py; this checks the runtime shape). No I/O happens here."""
    assert isinstance(KgmemClient(URL, KEY), Memory)
    assert isinstance(Kgmem(Settings()), Memory)
    for name in ("observe", "remember", "recall", "explain", "entity_facts"):
        assert inspect.iscoroutinefunction(getattr(Kgmem, name))
        assert inspect.iscoroutinefunction(getattr(KgmemClient, name))


def test_the_documents_match_the_api_schema() -> None:
    """The client's documents validate against the real GraphQL schema (no server needed)."""
    graphql = pytest.importorskip("graphql")
    schema_module = pytest.importorskip("kgmem.api.schema")
    schema = schema_module.build_schema(Settings())._schema
    for document in (OBSERVE, REMEMBER, RECALL, FACTS):
        assert graphql.validate(schema, graphql.parse(document)) == [], document
