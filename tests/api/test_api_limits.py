"""Request limits on the real stack: a too-deep or too-complex document, a too-large page and a
too-large body are refused with a clear error, before anything is read or written."""

from __future__ import annotations

from collections.abc import AsyncIterator

import pytest
from strawberry.extensions.parser_cache import _get_parse_cache
from strawberry.extensions.validation_cache import _get_validate_cache

from api.helpers import ADMIN_KEY, Api
from kgmem.api.limits import DOCUMENT_CACHE

pytestmark = [pytest.mark.graph, pytest.mark.models]


def _statements(api: Api) -> int:
    return api.km.graph.statements_run


def test_a_too_deep_query_is_refused_before_it_runs(api: Api) -> None:
    nested = "id"
    for _ in range(6):
        nested = f"entities {{ memories {{ {nested} }} }}"
    before = _statements(api)
    out = api.gql(f"{{ memories {{ nodes {{ {nested} }} }} }}")
    assert out.get("data") is None
    message = out["errors"][0]["message"]
    assert "exceeds maximum operation depth of 10" in message, message
    assert out["errors"][0]["extensions"]["code"] == "invalid_query"
    assert _statements(api) == before


def test_a_document_sent_again_is_judged_as_the_first_time(api: Api) -> None:
    """Parses and validation outcomes are cached per document text: a refused document is
    refused again, an accepted one answers again, and the second sending hits the caches."""
    validate = _get_validate_cache(DOCUMENT_CACHE)
    parse = _get_parse_cache(DOCUMENT_CACHE)
    deep = "id"
    for _ in range(6):
        deep = f"entities {{ memories {{ {deep} }} }}"
    refused = f"{{ memories {{ nodes {{ {deep} }} }} }}"
    fine = "query Again($ns: String) { stats(namespace: $ns) { nodes } }"
    first = [api.gql(refused), api.gql(fine, {"ns": "again"})]
    hits = validate.cache_info().hits, parse.cache_info().hits
    second = [api.gql(refused), api.gql(fine, {"ns": "again"})]
    assert [o["errors"][0]["extensions"]["code"] for o in (first[0], second[0])] == [
        "invalid_query",
        "invalid_query",
    ]
    assert first[1] == second[1] and "errors" not in second[1]
    assert validate.cache_info().hits == hits[0] + 2
    assert parse.cache_info().hits == hits[1] + 2


def test_a_too_complex_query_and_too_many_aliases_are_refused(api: Api) -> None:
    before = _statements(api)
    wide = "{ memories(first: 100) { nodes { entities { memories(first: 100) { id content } } } } }"
    out = api.gql(wide)
    assert out.get("data") is None
    assert out["errors"][0]["extensions"]["code"] == "query_too_complex"
    assert "the limit is 5000" in out["errors"][0]["message"]
    aliases = " ".join(f"s{i}: stats {{ nodes }}" for i in range(25))
    out = api.gql(f"{{ {aliases} }}")
    assert out.get("data") is None and "aliases" in out["errors"][0]["message"]
    assert _statements(api) == before


def test_a_too_large_page_is_refused_with_the_limit_in_the_message(
    api: Api, namespace: str
) -> None:
    before = _statements(api)
    cases = [
        ("query($ns: String) { memories(first: 1000, namespace: $ns) { nodes { id } } }", "first"),
        ("query($ns: String) { entities(first: 101, namespace: $ns) { id } }", "first"),
        (
            'query($ns: String) { recall(query: "x", limit: 500, namespace: $ns) { __typename } }',
            "limit",
        ),
        ("query($ns: String) { memories(first: 0, namespace: $ns) { nodes { id } } }", "first"),
    ]
    for query, what in cases:
        out = api.gql(query, {"ns": namespace})
        error = out["errors"][0]
        assert error["extensions"]["code"] == "page_too_large", error
        assert error["message"].startswith(what)
    assert (
        "the largest page is 100" in api.gql(cases[0][0], {"ns": namespace})["errors"][0]["message"]
    )
    assert _statements(api) == before
    remember = (
        "mutation($ns: String) { remember(input: {text: $t, namespace: $ns}) { __typename } }"
    )
    api.ok(remember.replace("$t", '"Jon Smith works at Acme Corp."'), {"ns": namespace})
    nested = api.gql(
        """query($ns: String) { entities(first: 1, namespace: $ns) {
             name memories(first: 500) { id } } }""",
        {"ns": namespace},
    )
    assert nested["data"] is None  # a nested page is checked too (the parent is non-null)
    assert nested["errors"][0]["extensions"]["code"] == "page_too_large"
    assert nested["errors"][0]["path"] == ["entities", 0, "memories"]


def test_a_too_large_body_is_refused_with_413_and_nothing_written(api: Api) -> None:
    limit = api.app.state.settings.api_max_body_bytes
    before = api.stats(api.ns_a)
    text = "A" * (limit + 10)
    query = (
        "mutation($t: String!, $ns: String) "
        "{ remember(input: {text: $t, namespace: $ns}) { __typename } }"
    )
    response = api.post({"query": query, "variables": {"t": text, "ns": api.ns_a}})
    assert response.status_code == 413
    error = response.json()["error"]
    assert error["code"] == "body_too_large" and f"the limit is {limit} bytes" in error["message"]

    async def chunks() -> AsyncIterator[bytes]:  # no Content-Length: counted while streaming
        for _ in range(limit // 65536 + 2):
            yield b" " * 65536

    streamed = api.arun(
        api.client.post(
            "/graphql", content=chunks(), headers={"Authorization": f"Bearer {ADMIN_KEY}"}
        )
    )
    assert streamed.status_code == 413
    assert streamed.json()["error"]["code"] == "body_too_large"
    assert api.stats(api.ns_a) == before
    small = api.post({"query": "{ stats { nodes } }"})
    assert small.status_code == 200  # the limit leaves normal requests alone
