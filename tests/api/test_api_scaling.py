"""Backpressure and consistency tokens through the real app on the real stack.

An app whose in-flight bound is one answers a second concurrent GraphQL request with 503 and
``Retry-After`` (the first is held open by a body that has not finished arriving), while the
probes still answer; an app with a per-key rate answers 429 with ``Retry-After`` once a key's
burst is spent, and another key is not affected. A write's response carries its bookmarks in
``extensions.bookmarks``, and a recall passing them back reads the write; a token the database
never issued is refused as ``invalid_input``.
"""

from __future__ import annotations

import asyncio
import json
from collections.abc import AsyncIterator
from typing import Any

import httpx
import pytest

from api.helpers import ADMIN_KEY, KEY_A, Api, api_settings, running
from kgmem.api import create_app
from kgmem.settings import Settings

pytestmark = [pytest.mark.graph, pytest.mark.models]

RECALL = """
query($q: String!, $ns: String, $bookmarks: [String!]) {
  recall(query: $q, namespace: $ns, dry: true, bookmarks: $bookmarks) {
    __typename
    ... on RecallOk { hits { content } }
    ... on Rejected { code reason }
  }
}"""
REMEMBER = """
mutation($text: String!, $ns: String) {
  remember(input: {text: $text, namespace: $ns}) { __typename }
}"""


def _auth(key: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {key}", "Content-Type": "application/json"}


def test_past_the_in_flight_bound_a_request_gets_503_with_retry_after(
    server_settings: Settings, arun: Any
) -> None:
    settings = api_settings(
        server_settings, api_keys={ADMIN_KEY: ["*"]}, api_max_in_flight=1, api_preload_models=False
    )
    app = create_app(settings)
    body = json.dumps({"query": "{ __typename }"}).encode()

    async def scenario() -> tuple[httpx.Response, httpx.Response, httpx.Response, str]:
        release = asyncio.Event()

        async def slow_body() -> AsyncIterator[bytes]:
            yield body[:5]
            await release.wait()  # the first request holds its slot until released
            yield body[5:]

        async with running(app) as client:
            first = asyncio.create_task(
                client.post("/graphql", content=slow_body(), headers=_auth(ADMIN_KEY))
            )
            while app.state.metrics.in_flight.value < 1:
                await asyncio.sleep(0.01)
            second = await client.post("/graphql", content=body, headers=_auth(ADMIN_KEY))
            probe = await client.get("/healthz")
            metrics = (await client.get("/metrics")).text
            release.set()
            return await first, second, probe, metrics

    first, second, probe, metrics = arun(scenario())
    assert second.status_code == 503
    assert second.headers["retry-after"] == "1"
    assert second.json()["error"]["code"] == "overloaded"
    assert probe.status_code == 200  # the probes are never refused
    assert "kgmem_requests_in_flight 1" in metrics
    assert 'kgmem_overload_refused_total{reason="overloaded"} 1' in metrics
    assert first.status_code == 200 and first.json()["data"] == {"__typename": "Query"}


def test_a_key_past_its_rate_gets_429_with_retry_after_and_others_do_not(
    server_settings: Settings, arun: Any
) -> None:
    settings = api_settings(
        server_settings,
        api_keys={ADMIN_KEY: ["*"], KEY_A: ["ns-a"]},
        api_rate_per_s=0.05,  # one token every 20 s: the burst is all a test sees
        api_rate_burst=2,
        api_preload_models=False,
    )
    app = create_app(settings)
    query = {"query": "{ __typename }"}

    async def scenario() -> list[httpx.Response]:
        async with running(app) as client:
            sent = [await client.post("/graphql", json=query, headers=_auth(KEY_A)) for _ in "abc"]
            sent.append(await client.post("/graphql", json=query, headers=_auth(ADMIN_KEY)))
            sent.append(await client.get("/metrics"))
            return sent

    a1, a2, a3, admin, metrics = arun(scenario())
    assert [a1.status_code, a2.status_code] == [200, 200]
    assert a3.status_code == 429
    assert a3.json()["error"]["code"] == "rate_limited"
    assert 1 <= int(a3.headers["retry-after"]) <= 20
    assert admin.status_code == 200  # each key has its own bucket
    assert 'kgmem_overload_refused_total{reason="rate_limited"} 1' in metrics.text


def test_a_write_returns_bookmarks_and_a_recall_with_them_reads_the_write(
    api: Api, namespace: str
) -> None:
    text = "Odalys keeps her climbing rope in the blue van."
    written = api.gql(REMEMBER, {"text": text, "ns": namespace})
    assert written["data"]["remember"]["__typename"] == "RememberOk"
    bookmarks = written["extensions"]["bookmarks"]
    assert bookmarks and all(isinstance(b, str) and b for b in bookmarks)
    read = api.gql(
        RECALL, {"q": "Where is the climbing rope?", "ns": namespace, "bookmarks": bookmarks}
    )
    recall = read["data"]["recall"]
    assert recall["__typename"] == "RecallOk", recall
    assert text in [h["content"] for h in recall["hits"]]
    assert "bookmarks" not in (read.get("extensions") or {})  # a dry recall writes nothing


def test_a_token_the_database_never_issued_is_invalid_input(api: Api, namespace: str) -> None:
    for token in (["FB:not-a-bookmark"], ["x" * 2000]):
        out = api.gql(RECALL, {"q": "anything at all?", "ns": namespace, "bookmarks": token})
        assert out["data"]["recall"]["code"] == "invalid_input", out
