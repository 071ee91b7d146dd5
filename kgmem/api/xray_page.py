"""The recall X-ray page: ``GET /xray`` serves a self-contained HTML page (plus its script and
style sheet at ``/xray/xray.js`` and ``/xray/xray.css``) that runs ``recall(..., explain: true)``
against this app's ``/graphql`` and draws the answer.

Contract: the page holds no data and needs no key to load; the person types a query, namespace,
profile and (optionally) an API key, and the browser sends the key with the GraphQL POST as
``Authorization: Bearer <key>``, exactly as any other client. The files are package data
(``kgmem/api/static``), read once; nothing is loaded from a CDN, so the page works offline. The
profile list is filled in on the server from :data:`kgmem.recall.profiles.PROFILES`. Every
response carries a strict Content-Security-Policy (scripts, styles and fetches from this origin
only, no inline script), and the script renders memory text with ``textContent`` only, so a
memory's content can never run as code in the page.
"""

from __future__ import annotations

from functools import cache
from html import escape
from importlib.resources import files

from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import Route

from kgmem.recall.profiles import DEFAULT_PROFILE, PROFILES

PAGE_PATH = "/xray"
ASSETS = {
    "xray.js": "application/javascript; charset=utf-8",
    "xray.css": "text/css; charset=utf-8",
}
PROFILE_SLOT = "<!--kgmem:profiles-->"
SECURITY_HEADERS = {
    "Content-Security-Policy": (
        "default-src 'none'; script-src 'self'; style-src 'self'; connect-src 'self'; "
        "img-src 'self' data:; base-uri 'none'; form-action 'none'; frame-ancestors 'none'"
    ),
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "no-referrer",
    "Cache-Control": "no-cache",
}


@cache
def static_file(name: str) -> bytes:
    """One file of ``kgmem/api/static`` (package data), read once per process."""
    return (files("kgmem.api") / "static" / name).read_bytes()


def profile_options() -> str:
    """The ``<option>`` elements of the profile select, the default one selected."""
    options = []
    for name, profile in PROFILES.items():
        selected = " selected" if name == DEFAULT_PROFILE else ""
        options.append(
            f'<option value="{escape(name)}" title="{escape(profile.description)}"{selected}>'
            f"{escape(name)}</option>"
        )
    return "".join(options)


@cache
def page_html() -> bytes:
    """The page with the profile options filled in."""
    html = static_file("xray.html").decode("utf-8")
    return html.replace(PROFILE_SLOT, profile_options()).encode("utf-8")


async def xray_page(request: Request) -> Response:
    return Response(page_html(), media_type="text/html; charset=utf-8", headers=SECURITY_HEADERS)


async def xray_asset(request: Request) -> Response:
    name = request.url.path.rsplit("/", 1)[-1]
    return Response(static_file(name), media_type=ASSETS[name], headers=SECURITY_HEADERS)


def routes() -> list[Route]:
    """The page and its two assets, as explicit routes (so metrics label them by path)."""
    page = Route(PAGE_PATH, xray_page, methods=["GET"])
    assets = [Route(f"{PAGE_PATH}/{name}", xray_asset, methods=["GET"]) for name in ASSETS]
    return [page, *assets]
