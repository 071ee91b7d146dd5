"""The offline Neo4j Browser that the local launcher serves on ``browser_port``, in headless
Chromium: it loads, connects to the local Bolt over its WebSocket with the server's user and
password, and runs a Cypher query (GDS included) whose result table shows.

The server here is a second local Neo4j + GDS (not the session one): auth ON, as ``kgmem db
start`` runs it by default, with ``KGMEM_BROWSER_PORT``'s setting on a free port. It is stopped
at the end. A screenshot of the result is saved under the test's tmp dir and its path printed.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from pydantic import SecretStr

from browser.helpers import PageLog
from kgmem.local_server.launcher import LocalServer, ServerInfo, free_port
from kgmem.settings import Settings

pytestmark = [pytest.mark.graph, pytest.mark.browser, pytest.mark.slow]

PASSWORD = "browser-test-pass"
CYPHER = "RETURN 1 AS one, gds.version() AS gds"


@pytest.fixture(scope="module")
def browser_server(
    chromium: Any, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[tuple[Settings, ServerInfo]]:
    """A local server with auth on and the Browser served (chromium first: skip before start)."""
    settings = Settings(
        home=tmp_path_factory.mktemp("neo4j-browser-home"),
        bolt_port=free_port(),
        browser_port=free_port(),
        neo4j_auth=True,
        neo4j_password=SecretStr(PASSWORD),
        neo4j_heap="512m",
        neo4j_pagecache="64m",
    )
    server = LocalServer(settings)
    info = server.start()
    try:
        yield settings, info
    finally:
        server.stop()


async def _connect_and_query(
    chromium: Any, settings: Settings, info: ServerInfo, out: Path
) -> None:
    page = await chromium.new_page(viewport={"width": 1400, "height": 900})
    log = PageLog(page)
    bolt = info.uri.removeprefix("bolt://")
    try:
        # the URL `kgmem db start` prints (from the launcher's log)
        assert info.browser_url == f"http://127.0.0.1:{settings.browser_port}/?dbms=bolt://{bolt}"
        await page.goto(info.browser_url)
        # the connect frame: scheme, address, user and password as the server is configured
        await page.wait_for_selector('[data-testid="connect"]', timeout=120_000)
        await page.select_option('[data-testid="bolt-scheme-select"]', "bolt://")
        await page.fill('[data-testid="boltaddress"]', bolt)
        await page.fill('[data-testid="username"]', settings.neo4j_user)
        await page.fill('[data-testid="password"]', PASSWORD)
        await page.click('[data-testid="connect"]')
        await page.wait_for_selector("text=You are connected as user", timeout=60_000)

        await page.locator('[data-testid="activeEditor"]').first.click()
        await page.keyboard.type(CYPHER)
        await page.keyboard.press("Enter")
        frame = page.locator('[data-testid="frame"]', has_text=CYPHER).first
        await frame.locator("text=Started streaming 1 records").wait_for(timeout=60_000)
        text = await frame.inner_text()
        assert "one" in text and "gds" in text
        assert f'"{info.gds_version}"' in text, text

        shot = out / "neo4j-browser.png"
        await page.screenshot(path=str(shot))
        print(f"Neo4j Browser screenshot: {shot}")
        # nothing failed on the page itself (offline, the Browser's calls to Google Fonts and
        # its analytics fail as network errors: those are not page errors)
        assert not [x for x in log.lines if x.startswith("pageerror")], log.lines
    finally:
        await page.close()


def test_neo4j_browser_connects_to_local_bolt_and_runs_cypher(
    chromium: Any, arun: Any, browser_server: tuple[Settings, ServerInfo], tmp_path: Path
) -> None:
    settings, info = browser_server
    arun(_connect_and_query(chromium, settings, info, tmp_path))
