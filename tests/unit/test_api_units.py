"""Pure parts of the API, without a server: keys in headers, cursors, the cost estimate, the
body limit, error publication and the metrics text format."""

from __future__ import annotations

import asyncio
from datetime import UTC, datetime
from typing import Any

import httpx
import pytest
from graphql import FragmentDefinitionNode, GraphQLError, OperationDefinitionNode, parse
from starlette.types import Receive, Scope, Send

from kgmem.api.auth import presented_key
from kgmem.api.cost import operation_cost
from kgmem.api.errors import ApiError, Forbidden, PageTooLarge, is_expected, public
from kgmem.api.inputs import decode_cursor, encode_cursor
from kgmem.api.limits import BodySizeLimit, page_size
from kgmem.api.metrics import Metrics
from kgmem.api.rejected import attempt
from kgmem.api.schema import build_schema
from kgmem.errors import GraphUnavailable, InvalidInput, KgmemError, NotFound
from kgmem.settings import Settings


def test_presented_key_reads_bearer_or_x_api_key() -> None:
    assert presented_key({"authorization": "Bearer abc"}) == "abc"
    assert presented_key({"authorization": "bearer  abc "}) == "abc"
    assert presented_key({"x-api-key": "xyz"}) == "xyz"
    assert presented_key({"authorization": "Basic abc"}) is None
    assert presented_key({"authorization": "Bearer "}) is None
    assert presented_key({}) is None


def test_cursor_round_trip_and_garbage() -> None:
    when = datetime(2024, 5, 1, 12, 30, tzinfo=UTC)
    cursor = encode_cursor({"created_at": when, "id": "m-1"})
    assert decode_cursor(cursor) == (when, "m-1")
    for bad in ("", "!!!", "bm90IGpzb24", "WzFd"):  # empty, not base64, not JSON, [1]
        with pytest.raises(InvalidInput, match="cursor"):
            decode_cursor(bad)


def _cost(document: str, page: int = 100) -> int:
    doc = parse(document)
    frags = {d.name.value: d for d in doc.definitions if isinstance(d, FragmentDefinitionNode)}
    (op,) = [d for d in doc.definitions if isinstance(d, OperationDefinitionNode)]
    return operation_cost(op, SCHEMA, frags, page)


SCHEMA = build_schema(Settings())._schema  # type: ignore[attr-defined]


def test_query_cost_multiplies_nested_pages() -> None:
    assert _cost("{ stats { nodes } }") == 2
    assert _cost("{ memories(first: 10) { nodes { id } } }") == 1 + 1 + 10  # the page is nodes'
    nested = "{ entities(first: 10) { memories(first: 20) { id content } } }"
    assert _cost(nested) == 1 + 10 * (1 + 20 * 2)
    assert _cost("query($n: Int!) { entities(first: $n) { id } }", page=100) == 1 + 100
    assert _cost("{ __schema { types { name } } }") == 0
    assert _cost("{ memory(id: 1) { ...F } } fragment F on Memory { id content }") == 3


def test_an_omitted_page_counts_as_its_schema_default() -> None:
    # Memory.entities defaults to 10, Entity.memories to 20, Query.memories to 20
    assert _cost("{ memories { nodes { entities { id } } } }") == 1 + 1 + 20 * (1 + 10)
    assert _cost('{ entity(name: "x") { memories { id } } }') == 1 + 1 + 20
    assert _cost('{ entity(name: "x") { memories(first: 3) { id } } }') == 1 + 1 + 3


def test_page_size() -> None:
    settings = Settings(api_max_page_size=50)
    assert page_size(50, settings) == 50
    with pytest.raises(PageTooLarge, match="the largest page is 50"):
        page_size(51, settings)
    with pytest.raises(PageTooLarge):
        page_size(0, settings)


def test_public_errors_keep_what_callers_may_see_only() -> None:
    def published(exc: Exception | None, message: str = "m") -> dict[str, Any]:
        return public(GraphQLError(message, original_error=exc)).formatted  # type: ignore[return-value]

    invalid = published(InvalidInput("bad text"))
    assert (invalid["message"], invalid["extensions"]) == ("bad text", {"code": "invalid_input"})
    assert published(NotFound("no memory"))["message"] == "no memory"
    assert published(Forbidden("not yours"))["extensions"] == {"code": "forbidden"}
    hidden = published(GraphUnavailable("Neo4j is not reachable at bolt://10.0.0.5:7687"))
    assert hidden["extensions"] == {"code": "unavailable"} and "10.0.0.5" not in hidden["message"]
    bug = published(RuntimeError("MATCH (n) boom"))
    assert bug["extensions"] == {"code": "internal_error"} and "MATCH" not in bug["message"]
    try:
        raise KgmemError("Neo4j rejected a query (Neo.X)") from ValueError("cypher")
    except KgmemError as wrapped:
        assert published(wrapped)["extensions"] == {"code": "internal_error"}
    assert published(KgmemError("observe needs turns"))["message"] == "observe needs turns"
    validation = published(None, "Cannot query field 'x'")
    assert validation["extensions"] == {"code": "invalid_query"}


def test_a_policy_refusal_is_a_kgmem_error_that_stays_a_graphql_error() -> None:
    """ApiError sits under the one root, yet a resolver does not turn it into ``Rejected``: it
    stays a GraphQL error with its own code, whatever catches ``KgmemError`` on the way."""
    refusal = Forbidden("not yours")
    assert isinstance(refusal, KgmemError) and issubclass(ApiError, KgmemError)
    assert not is_expected(refusal) and refusal.extensions == {"code": "forbidden"}

    async def refuse() -> None:
        raise refusal

    with pytest.raises(Forbidden):
        asyncio.run(attempt(refuse))


async def _echo(scope: Scope, receive: Receive, send: Send) -> None:
    body = b""
    while True:
        message = await receive()
        body += message.get("body", b"")
        if not message.get("more_body"):
            break
    await send({"type": "http.response.start", "status": 200, "headers": []})
    await send({"type": "http.response.body", "body": str(len(body)).encode()})


def test_body_limit_passes_small_bodies_whole_and_stops_large_ones() -> None:
    app = BodySizeLimit(_echo, max_bytes=1000)

    async def run() -> list[httpx.Response]:
        transport = httpx.ASGITransport(app=app)
        async with httpx.AsyncClient(transport=transport, base_url="http://t") as client:

            async def stream(n: int) -> Any:
                for _ in range(n):
                    yield b"x" * 300

            return [
                await client.post("/", content=b"x" * 1000),
                await client.post("/", content=b"x" * 1001),
                await client.post("/", content=stream(3)),
                await client.post("/", content=stream(4)),
                await client.post("/", content=b"1", headers={"content-length": "abc"}),
            ]

    ok, big, streamed_ok, streamed_big, malformed = asyncio.run(run())
    assert (ok.status_code, ok.text) == (200, "1000")
    assert big.status_code == 413 and big.json()["error"]["code"] == "body_too_large"
    assert (streamed_ok.status_code, streamed_ok.text) == (200, "900")
    assert streamed_big.status_code == 413
    assert malformed.status_code == 400


def test_metrics_render_prometheus_text() -> None:
    m = Metrics()
    m.writes.inc(action="created")
    m.writes.inc(2, action="created")
    m.recall_seconds.observe(0.2)
    m.recall_seconds.observe(3.0)
    m.operations.inc(operation='we"ird\\', outcome="ok")
    text = m.render()
    assert 'kgmem_writes_total{action="created"} 3' in text
    assert 'kgmem_recall_seconds_bucket{le="0.25"} 1' in text
    assert 'kgmem_recall_seconds_bucket{le="+Inf"} 2' in text
    assert "kgmem_recall_seconds_count 2" in text and "kgmem_recall_seconds_sum 3.2" in text
    assert 'operation="we\\"ird\\\\"' in text
    assert "# TYPE kgmem_recall_seconds histogram" in text
    assert m.writes.value(action="created") == 3 and m.recall_seconds.count() == 2
