"""GraphiQL offline: Strawberry's GraphiQL page with its scripts and styles served by this app.

Contract: :func:`graphiql_html` is Strawberry's own GraphiQL page with each ``https://unpkg.com``
URL replaced by ``/graphiql/<file>``; the files (React, ReactDOM, js-cookie, GraphiQL and its
explorer plugin, at the versions Strawberry's page names) are package data in
``kgmem/api/static/graphiql``, byte for byte as published on npm, so the page's own
``integrity`` attributes still check them. Nothing loads from a CDN, so GraphiQL works on a
machine without internet. A Strawberry upgrade that names a file not vendored here fails
loudly when the page is first built (and in the tests), rather than rendering "Loading...".
"""

from __future__ import annotations

import re
from functools import cache
from importlib.resources import files

from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import Route

ASSET_PATH = "/graphiql"
# Strawberry's unpkg path → the vendored file
ASSETS = {
    "react@18.2.0/umd/react.production.min.js": "react.production.min.js",
    "react-dom@18.2.0/umd/react-dom.production.min.js": "react-dom.production.min.js",
    "js-cookie@3.0.5/dist/js.cookie.min.js": "js.cookie.min.js",
    "graphiql@3.8.3/graphiql.min.css": "graphiql.min.css",
    "graphiql@3.8.3/graphiql.min.js": "graphiql.min.js",
    "@graphiql/plugin-explorer@1.0.2/dist/style.css": "plugin-explorer.css",
    "@graphiql/plugin-explorer@1.0.2/dist/index.umd.js": "plugin-explorer.umd.js",
}
TYPES = {".js": "application/javascript; charset=utf-8", ".css": "text/css; charset=utf-8"}
CDN = re.compile(r"https://unpkg\.com/([^\"']+)")


@cache
def graphiql_html() -> str:
    """Strawberry's GraphiQL page, pointing at this app's copies of its assets."""
    from strawberry.http.ides import get_graphql_ide_html

    def local(match: re.Match[str]) -> str:
        name = ASSETS.get(match.group(1))
        if name is None:
            raise RuntimeError(f"GraphiQL asset not vendored in kgmem/api/static: {match.group(1)}")
        return f"{ASSET_PATH}/{name}"

    return CDN.sub(local, get_graphql_ide_html(graphql_ide="graphiql"))


@cache
def _asset(name: str) -> bytes:
    return (files("kgmem.api") / "static" / "graphiql" / name).read_bytes()


async def graphiql_asset(request: Request) -> Response:
    name = request.url.path.rsplit("/", 1)[-1]
    headers = {"Cache-Control": "public, max-age=86400"}  # versioned files: safe to keep a day
    return Response(_asset(name), media_type=TYPES[name[name.rfind(".") :]], headers=headers)


def routes() -> list[Route]:
    """One explicit route per asset (so metrics label them by path)."""
    return [
        Route(f"{ASSET_PATH}/{name}", graphiql_asset, methods=["GET"]) for name in ASSETS.values()
    ]
