"""The recall X-ray page (``/xray``) in headless Chromium against the real app and Neo4j.

The app runs under uvicorn on a loopback port with one API key for a fresh namespace; the test
remembers a few memories through the API, opens ``/xray``, types the query, namespace and key,
runs it, and checks what a person sees: the expected memory first, a bar per factor, channel
ranks, turn ids, the graph path, the dropped candidates and the stage timings, with no console
error (the page's strict CSP would report one). A wrong key shows a readable error. Screenshots
are saved under the test's tmp dir and their paths printed.
"""

from __future__ import annotations

import re
import uuid
from pathlib import Path
from typing import Any

import httpx
import pytest

from browser.helpers import PageLog, live_app
from kgmem.api import create_app
from kgmem.settings import Settings

MEMORIES = (
    "Priya keeps bees on the roof of her house in Ghent.",
    "Tomas teaches chemistry at a school in Leuven.",
    "The team standup moves to 9:30 on Mondays.",
    "Priya is allergic to peanuts.",
    "Tomas runs a marathon every spring.",
)
QUERY = "where does Priya keep her bees?"
EXPECTED_FIRST = MEMORIES[0]
DROP_REASONS = {"namespace", "status", "validity", "confidence_floor", "mmr", "limit", "superseded"}
REMEMBER = (
    "mutation($text: String!, $ns: String) { remember(input: {text: $text, namespace: $ns}) "
    "{ __typename ... on Rejected { reason } } }"
)


def _remember(base: str, key: str, namespace: str) -> None:
    with httpx.Client(base_url=base, timeout=300) as client:
        for text in MEMORIES:
            got = client.post(
                "/graphql",
                json={"query": REMEMBER, "variables": {"text": text, "ns": namespace}},
                headers={"Authorization": f"Bearer {key}"},
            )
            assert got.status_code == 200, got.text
            assert got.json()["data"]["remember"]["__typename"] == "RememberOk", got.text


async def _run(page: Any, *, query: str, namespace: str, key: str, limit: int) -> None:
    await page.fill("#query", query)
    await page.fill("#namespace", namespace)
    await page.fill("#api-key", key)
    await page.fill("#limit", str(limit))
    await page.click("#run")
    await page.wait_for_selector("#result:not([hidden]), #error:not([hidden])", timeout=180_000)


async def _texts(locator: Any) -> list[str]:
    return [str(t) for t in await locator.all_inner_texts()]


async def _explain_in_page(chromium: Any, base: str, namespace: str, key: str, out: Path) -> None:
    page = await chromium.new_page(viewport={"width": 1280, "height": 900})
    log = PageLog(page)
    try:
        await page.goto(f"{base}/xray")
        assert await page.title() == "kgmem · recall X-ray"
        assert await page.locator("#profile option").count() >= 5
        await _run(page, query=QUERY, namespace=namespace, key=key, limit=2)
        assert await page.is_hidden("#error"), await page.inner_text("#error")

        hits = page.locator("#hits > li.hit")
        assert await hits.count() == 2
        first = hits.first
        assert await first.locator(".content").inner_text() == EXPECTED_FIRST
        assert float((await first.locator(".score").inner_text()).split()[0]) > 0
        # a bar for every factor that contributed, drawn with a real width
        factors = first.locator(".factor")
        n = await factors.count()
        assert n >= 3
        names = [await factors.nth(i).get_attribute("data-factor") for i in range(n)]
        assert "similarity" in names
        bars = first.locator(".factor .bar.pos, .factor .bar.neg")
        assert await bars.count() == n
        widths = [(await bars.nth(i).bounding_box() or {"width": 0})["width"] for i in range(n)]
        assert max(widths) > 20
        channels = await _texts(first.locator(".chip.channel"))
        assert channels and all(re.search(r" #\d+$", c) for c in channels)
        assert (await first.locator(".chip.validity").inner_text()).startswith("valid ")
        assert await first.locator(".turns code").count() >= 1
        assert await first.locator("svg.path-svg, .no-path").count() == 1

        assert await page.is_visible("#dropped-section")
        reasons = await _texts(page.locator("#dropped tbody tr .reason"))
        assert reasons and set(reasons) <= DROP_REASONS
        assert await page.locator("#timings .timing[data-stage]").count() >= 3
        assert await page.locator("#timings .timing[data-stage='score']").count() == 1

        shot = out / "xray.png"
        await page.screenshot(path=str(shot), full_page=True)
        print(f"X-ray page screenshot: {shot}")
        assert log.errors() == [], log.lines

        # a wrong key: a readable refusal, not a blank page
        await _run(page, query=QUERY, namespace=namespace, key="not-a-key", limit=2)
        assert await page.is_visible("#error") and await page.is_hidden("#result")
        assert "not valid" in await page.inner_text("#error")
        error_shot = out / "xray-error.png"
        await page.screenshot(path=str(error_shot), full_page=True)
        print(f"X-ray page error screenshot: {error_shot}")
    finally:
        await page.close()


@pytest.mark.graph
@pytest.mark.models
@pytest.mark.browser
@pytest.mark.slow
def test_xray_page_explains_a_recall(
    chromium: Any, arun: Any, server_settings: Settings, namespace: str, tmp_path: Path
) -> None:
    key = "xray-" + uuid.uuid4().hex
    settings = server_settings.model_copy(update={"api_keys": {key: [namespace]}})
    with live_app(create_app(settings)) as base:
        _remember(base, key, namespace)
        arun(_explain_in_page(chromium, base, namespace, key, tmp_path))


def test_xray_page_loads_without_a_key_and_from_this_server_only(arun: Any) -> None:
    """The page and its assets need no key, carry a strict CSP and reference no other host."""
    app = create_app(Settings(api_keys={"k" * 32: ["demo"]}))

    async def fetch() -> dict[str, httpx.Response]:
        transport = httpx.ASGITransport(app=app)
        async with httpx.AsyncClient(transport=transport, base_url="http://kgmem.test") as c:
            paths = ("/xray", "/xray/xray.js", "/xray/xray.css", "/xray/nope.js")
            return {p: await c.get(p) for p in paths}

    got = arun(fetch())
    page = got["/xray"]
    assert page.status_code == 200 and page.headers["content-type"].startswith("text/html")
    assert "script-src 'self'" in page.headers["content-security-policy"]
    assert '<option value="balanced"' in page.text and "kgmem:profiles" not in page.text
    assert got["/xray/xray.js"].headers["content-type"].startswith("application/javascript")
    assert got["/xray/xray.css"].headers["content-type"].startswith("text/css")
    assert got["/xray/nope.js"].status_code == 404
    for path in ("/xray", "/xray/xray.js", "/xray/xray.css"):
        assert got[path].status_code == 200
        assert not re.search(r"(src|href)=\"(https?:)?//", got[path].text), path
        assert "url(http" not in got[path].text and "@import" not in got[path].text
