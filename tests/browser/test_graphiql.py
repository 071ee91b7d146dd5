"""GraphiQL (``GET /graphql``) works offline: its page loads every script and style from this
app (no CDN), the served files match the page's integrity hashes, and in headless Chromium, with
every request to another host refused, the page renders and runs a query."""

from __future__ import annotations

import base64
import hashlib
import re
from pathlib import Path
from typing import Any

import pytest
from starlette.testclient import TestClient

from browser.helpers import PageLog, live_app
from kgmem.api import create_app
from kgmem.settings import Settings

QUERY = "{ __typename }"
TAG = re.compile(r'(?:src|href)="(/graphiql/[^"]+)"\s+integrity="sha384-([^"]+)"')


def test_graphiql_assets_are_served_here_and_match_the_integrity_hashes() -> None:
    # the app's lifespan builds the service (GraphQL GETs take its context); no Neo4j is needed
    # to render the page, and the models are not loaded
    app = create_app(Settings(api_keys={"k" * 32: ["demo"]}, api_preload_models=False))
    with TestClient(app) as client:
        page = client.get("/graphql", headers={"Accept": "text/html"})
        assets = {path: client.get(path) for path, _ in TAG.findall(page.text)}
    assert page.status_code == 200 and "graphiql" in page.text.lower()
    assert "unpkg.com" not in page.text
    assert not re.search(r"(src|href)=\"(https?:)?//", page.text)
    assert len(assets) == 7  # React, ReactDOM, js-cookie, GraphiQL (js, css), explorer (js, css)
    for path, digest in TAG.findall(page.text):
        body = assets[path].content
        assert assets[path].status_code == 200, path
        assert base64.b64encode(hashlib.sha384(body).digest()).decode() == digest, path


@pytest.mark.graph
@pytest.mark.browser
@pytest.mark.slow
def test_graphiql_runs_a_query_with_no_internet(
    chromium: Any, arun: Any, server_settings: Settings, tmp_path: Path
) -> None:
    settings = server_settings.model_copy(
        update={"api_auth_disabled": True, "api_preload_models": False}
    )
    with live_app(create_app(settings)) as base:
        arun(_run_query(chromium, base, tmp_path))


async def _run_query(chromium: Any, base: str, out: Path) -> None:
    page = await chromium.new_page(viewport={"width": 1280, "height": 800})
    log = PageLog(page)
    refused: list[str] = []

    async def only_this_server(route: Any) -> None:
        if route.request.url.startswith(base):
            await route.continue_()
        else:
            refused.append(route.request.url)
            await route.abort()

    await page.route("**/*", only_this_server)
    try:
        await page.goto(f"{base}/graphql")  # a ?query= would be a GET execution, not the page
        await page.wait_for_selector(".graphiql-query-editor .CodeMirror", timeout=60_000)
        await page.evaluate(
            "q => document.querySelector('.graphiql-query-editor .CodeMirror').CodeMirror"
            ".setValue(q)",
            QUERY,
        )
        await page.click(".graphiql-execute-button")
        result = page.locator(".result-window")
        await result.get_by_text('"__typename"').wait_for(timeout=60_000)
        text = await result.inner_text()
        assert '"Query"' in text, text
        shot = out / "graphiql.png"
        await page.screenshot(path=str(shot))
        print(f"GraphiQL screenshot: {shot}")
        assert refused == [], refused
        assert log.errors() == [], log.lines
    finally:
        await page.close()
