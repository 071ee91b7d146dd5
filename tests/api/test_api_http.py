"""The HTTP surface on the real stack: health, readiness, metrics, GraphiQL, CORS, and errors
that never leak a traceback, Cypher or a server address."""

from __future__ import annotations

import re
from typing import Any

import httpx
import pytest

from api.helpers import ADMIN_KEY, Api, api_settings, running
from kgmem.api import create_app
from kgmem.errors import KgmemError
from kgmem.local_server.launcher import free_port
from kgmem.settings import Settings

pytestmark = [pytest.mark.graph, pytest.mark.models]

SAMPLE_LINE = re.compile(r'^[a-z_]+(\{([a-z_]+="[^"]*",?)*\})? (-?[0-9.e+-]+|\+Inf)$')


def test_healthz_and_readyz(api: Api) -> None:
    assert api.get("/healthz").json() == {"status": "ok"}
    ready = api.get("/readyz")
    assert ready.status_code == 200, ready.text
    body = ready.json()
    assert body["status"] == "ready"
    checks = body["checks"]
    assert checks["neo4j"]["ok"] and checks["neo4j"]["version"].startswith("5.")
    assert checks["gds"]["ok"] and checks["gds"]["version"]
    assert checks["embedder"]["state"] in ("loaded", "loadable")
    assert checks["spacy"]["state"] in ("loaded", "loadable")
    assert body["limits"]["max_page_size"] == 100


def test_metrics_count_operations_writes_recall_and_llm(api: Api, namespace: str) -> None:
    api.ok(
        'mutation($ns: String) { remember(input: {text: "Ivo collects stamps.", namespace: $ns})'
        " { __typename } }",
        {"ns": namespace},
    )
    api.ok(
        'query($ns: String) { recall(query: "what does Ivo collect", namespace: $ns, dry: true)'
        " { __typename } stats(namespace: $ns) { nodes } }",
        {"ns": namespace},
    )
    api.gql("{ nonsense }")
    response = api.get("/metrics")
    assert response.status_code == 200
    assert response.headers["content-type"].startswith("text/plain; version=0.0.4")
    text = response.text
    for line in text.splitlines():
        assert (
            line.startswith("# HELP ") or line.startswith("# TYPE ") or SAMPLE_LINE.match(line)
        ), line
    assert 'kgmem_graphql_operations_total{operation="remember",outcome="ok"}' in text
    assert 'kgmem_graphql_operations_total{operation="recall+stats",outcome="ok"}' in text
    assert 'kgmem_graphql_operations_total{operation="invalid",outcome="error"}' in text
    assert 'kgmem_graphql_operation_seconds_count{operation="remember"}' in text
    assert re.search(r'kgmem_writes_total\{action="created"\} [1-9]', text)
    assert re.search(r"kgmem_recall_seconds_count [1-9]", text)
    assert 'kgmem_http_requests_total{path="/graphql",status="200"}' in text
    assert "kgmem_llm_calls_total 0" in text
    assert 'kgmem_llm_tokens_total{direction="in"} 0' in text
    assert re.search(r"kgmem_graph_statements_total [1-9]", text)


def test_graphiql_is_served_to_a_browser(api: Api) -> None:
    page = api.get("/graphql", headers={"Accept": "text/html"})
    assert page.status_code == 200 and "graphiql" in page.text.lower()
    # GET needs no key because it can run nothing: operations go by POST only
    sneaky = api.get("/graphql", params={"query": "{ stats { nodes } }"})
    assert sneaky.status_code >= 400 and "nodes" not in sneaky.text


def test_internal_errors_are_masked_and_logged(
    api: Api, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    async def boom(**_: Any) -> Any:
        raise RuntimeError("MATCH (n:Memory) RETURN n  -- secret Cypher in a bug")

    async def driver_failure(**_: Any) -> Any:
        try:
            raise ValueError("Neo.ClientError.Statement.SyntaxError near MATCH (m)")
        except ValueError as exc:
            raise KgmemError("Neo4j rejected a query (Neo.ClientError.Statement)") from exc

    for fake in (boom, driver_failure):
        monkeypatch.setattr(api.km, "stats", fake)
        with caplog.at_level("ERROR", logger="kgmem.api"):
            out = api.gql("{ stats { nodes } }")
        error = out["errors"][0]
        assert error["message"] == "internal error; it has been logged"
        assert error["extensions"] == {"code": "internal_error"}
        dumped = str(out)
        assert "MATCH" not in dumped and "Traceback" not in dumped and "Neo" not in dumped
        assert any(r.exc_info for r in caplog.records)  # the server log keeps the details
        caplog.clear()
    bad_json = api.post(content=b"{not json", headers={"Content-Type": "application/json"})
    assert bad_json.status_code == 400 and "Traceback" not in bad_json.text


def test_neo4j_down_gives_not_ready_and_an_unavailable_error_without_internals(
    server_settings: Settings, arun: Any
) -> None:
    port = free_port()
    settings = api_settings(
        server_settings,
        neo4j_uri=f"bolt://127.0.0.1:{port}",
        neo4j_timeout_s=1.0,
        api_keys={ADMIN_KEY: ["*"]},
        api_preload_models=False,
    )
    app = create_app(settings)

    async def calls() -> tuple[httpx.Response, httpx.Response, httpx.Response]:
        async with running(app) as client:
            ready = await client.get("/readyz")
            health = await client.get("/healthz")
            out = await client.post(
                "/graphql",
                json={"query": "{ stats { nodes } }"},
                headers={"Authorization": f"Bearer {ADMIN_KEY}"},
            )
            return ready, health, out

    ready, health, out = arun(calls())
    assert health.status_code == 200
    assert ready.status_code == 503
    assert ready.json()["checks"]["neo4j"] == {"ok": False, "detail": "Neo4j is not reachable"}
    error = out.json()["errors"][0]
    assert error["extensions"]["code"] == "unavailable"
    assert str(port) not in out.text and "bolt" not in out.text


def test_cors_is_off_by_default_and_on_only_for_configured_origins(
    server_settings: Settings, arun: Any
) -> None:
    preflight = {
        "Origin": "http://app.example",
        "Access-Control-Request-Method": "POST",
        "Access-Control-Request-Headers": "authorization,content-type",
    }

    async def options(settings: Settings, origin: str) -> httpx.Response:
        app = create_app(settings)  # CORS preflights never reach the service: no lifespan needed
        transport = httpx.ASGITransport(app=app)
        async with httpx.AsyncClient(transport=transport, base_url="http://k.test") as client:
            return await client.options("/graphql", headers=preflight | {"Origin": origin})

    off = arun(options(api_settings(server_settings), "http://app.example"))
    assert "access-control-allow-origin" not in off.headers
    on_settings = api_settings(server_settings, api_cors_origins=["http://app.example"])
    allowed = arun(options(on_settings, "http://app.example"))
    assert allowed.headers["access-control-allow-origin"] == "http://app.example"
    assert "authorization" in allowed.headers["access-control-allow-headers"].lower()
    other = arun(options(on_settings, "http://evil.example"))
    assert other.headers.get("access-control-allow-origin") != "http://evil.example"
