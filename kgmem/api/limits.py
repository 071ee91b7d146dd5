"""Request limits: body size, GraphQL depth/complexity/aliases/tokens, page size.

* :class:`BodySizeLimit` (ASGI middleware) refuses a body over ``api_max_body_bytes`` with
  ``413`` and a JSON error before the GraphQL layer reads it: at once when ``Content-Length``
  says so, otherwise while the (chunked) body streams in; the body is buffered only up to the
  limit and then replayed to the app.
* :func:`validation_extensions` gives the Strawberry extensions that refuse, at validation time
  (nothing has run yet), a document deeper than ``api_max_query_depth``, one whose estimated
  cost is above ``api_max_query_complexity``, one with too many aliases, or a huge token count.
  The cost estimate is :mod:`kgmem.api.cost`'s: nested pages multiply, an omitted page counts
  as its schema default.
* :func:`page_size` checks a ``first``/``limit`` value against ``api_max_page_size`` in resolvers.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

from graphql import ASTValidationRule
from starlette.types import ASGIApp, Message, Receive, Scope, Send
from strawberry.extensions import (
    AddValidationRules,
    MaxTokensLimiter,
    ParserCache,
    SchemaExtension,
    ValidationCache,
)
from strawberry.extensions.max_aliases import create_validator as alias_rule
from strawberry.extensions.query_depth_limiter import create_validator as depth_rule

from kgmem.api.cost import complexity_rule
from kgmem.api.errors import PageTooLarge
from kgmem.settings import Settings

MAX_TOKENS = 5000
DOCUMENT_CACHE = 256  # distinct GraphQL documents whose parse and validation are kept


def page_size(value: int, settings: Settings, what: str = "first") -> int:
    if value < 1:
        raise PageTooLarge(f"{what} must be at least 1, got {value}")
    if value > settings.api_max_page_size:
        raise PageTooLarge(
            f"{what} is {value}; the largest page is {settings.api_max_page_size} "
            "(page through with the cursor instead)"
        )
    return value


# --- body size -------------------------------------------------------------------------------


class BodySizeLimit:
    """Refuse request bodies larger than ``max_bytes`` with 413 and a JSON error."""

    def __init__(self, app: ASGIApp, max_bytes: int) -> None:
        self.app = app
        self.max_bytes = max_bytes

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        headers = {k.decode("latin-1").lower(): v.decode("latin-1") for k, v in scope["headers"]}
        declared = headers.get("content-length")
        if declared is not None:
            if not declared.isdigit():
                await send_json(send, 400, "bad_request", "Content-Length is not a number")
                return
            if int(declared) > self.max_bytes:
                await send_json(send, 413, "body_too_large", self._message(int(declared)))
                return
        # Read the body here, counting, so an undeclared (chunked) body is cut off at the limit.
        chunks: list[bytes] = []
        size = 0
        more = True
        while more:
            message = await receive()
            if message["type"] == "http.disconnect":
                return
            chunk = message.get("body", b"")
            size += len(chunk)
            if size > self.max_bytes:
                await send_json(send, 413, "body_too_large", self._message(size, at_least=True))
                return
            chunks.append(chunk)
            more = bool(message.get("more_body", False))
        body = b"".join(chunks)
        replayed = False

        async def replay() -> Message:
            nonlocal replayed
            if not replayed:
                replayed = True
                return {"type": "http.request", "body": body, "more_body": False}
            return await receive()  # after the body: wait for disconnect as usual

        await self.app(scope, replay, send)

    def _message(self, size: int, *, at_least: bool = False) -> str:
        over = "more than " if at_least else ""
        return f"the request body is {over}{size} bytes; the limit is {self.max_bytes} bytes"


async def send_json(
    send: Send, status: int, code: str, message: str, *, retry_after: str | None = None
) -> None:
    """Answer with kgmem's JSON error (and ``Retry-After`` if given), closing the connection:
    the request's body may be unread."""
    body = json.dumps({"error": {"code": code, "message": message}}).encode()
    headers = [
        (b"content-type", b"application/json"),
        (b"content-length", str(len(body)).encode()),
        (b"connection", b"close"),
    ]
    if retry_after is not None:
        headers.append((b"retry-after", retry_after.encode()))
    await send({"type": "http.response.start", "status": status, "headers": headers})
    await send({"type": "http.response.body", "body": body})


# --- GraphQL document limits -----------------------------------------------------------------


def validation_extensions(settings: Settings) -> list[Callable[[], SchemaExtension]]:
    """Factories (one fresh extension per request) for the document limits, and the caches of
    parsed and validated documents.

    Validating a recall's document was 15 % of an API process's CPU under load, for the same
    few documents every time (clients send their values as variables): a document's parse and
    its validation outcome are kept (LRU, ``DOCUMENT_CACHE`` texts). The outcome depends only
    on the document, the schema and the rules, so the rule classes are built once here, not per
    request (a class built per request would be a new cache key every time).
    """
    rules: list[type[ASTValidationRule]] = [
        depth_rule(settings.api_max_query_depth, None, None),
        complexity_rule(settings.api_max_query_complexity, settings.api_max_page_size),
        alias_rule(settings.api_max_aliases),
    ]

    def token_limit() -> SchemaExtension:
        return MaxTokensLimiter(max_token_count=MAX_TOKENS)

    def limits() -> SchemaExtension:
        return AddValidationRules(rules)

    def parse_cache() -> SchemaExtension:
        return ParserCache(maxsize=DOCUMENT_CACHE)

    def validation_cache() -> SchemaExtension:
        return ValidationCache(maxsize=DOCUMENT_CACHE)

    return [token_limit, limits, parse_cache, validation_cache]


def describe(settings: Settings) -> dict[str, Any]:
    """The limits in force, for /readyz and the docs."""
    return {
        "max_page_size": settings.api_max_page_size,
        "max_query_depth": settings.api_max_query_depth,
        "max_query_complexity": settings.api_max_query_complexity,
        "max_aliases": settings.api_max_aliases,
        "max_body_bytes": settings.api_max_body_bytes,
    }
