"""What an API caller may see of a failure: a short message and a stable code, never internals.

Three kinds of failure reach the GraphQL layer. *Expected* ones — bad input, an unknown id, a
lost write race — are caller mistakes or ordinary outcomes; mutations (and ``recall``) return
them as a ``Rejected`` union member, other fields as a GraphQL error with the same message and
code. *Policy* refusals (``ApiError``: a namespace the key may not use, a page larger than
allowed) are GraphQL errors with their own code. Everything else — Neo4j down, a model missing,
a bug — is *internal*: it is logged with its traceback on ``kgmem.api`` and the caller gets a
fixed message and code, so no stack trace, Cypher, query name or server address ever leaves the
process; Neo4j or a model being down is ``unavailable``, also when a task group wrapped it in an
exception group (``kgmem.errors.primary`` unwraps it). A variable of the wrong type is
``invalid_input`` naming the variable, logged without a traceback.
:class:`PublicErrors` is the Strawberry extension that enforces this on every response.
"""

from __future__ import annotations

import logging
from collections.abc import Iterator

from graphql import GraphQLError
from strawberry.extensions import SchemaExtension

from kgmem.errors import (
    ConcurrentWrite,
    GraphAuthError,
    GraphUnavailable,
    InvalidInput,
    KgmemError,
    ModelUnavailable,
    NotFound,
    primary,
)

log = logging.getLogger("kgmem.api")

UNAVAILABLE = "the memory service cannot answer right now (its database or models are not ready)"
INTERNAL = "internal error; it has been logged"


class ApiError(KgmemError):
    """A refusal by API policy, safe to show as is; ``code`` goes to the error's extensions.

    Under the one root like every error kgmem raises on purpose. It is never *expected* in
    :func:`is_expected`'s sense (its codes are not in ``EXPECTED_CODES`` and it is not a bare
    ``KgmemError``), so a resolver does not turn it into ``Rejected``; :func:`public` and the MCP
    tools test for it before any other ``KgmemError`` and show its own code."""

    code = "api_error"

    def __init__(self, message: str) -> None:
        super().__init__(message)
        # graphql-core copies an original error's ``extensions`` onto the located error.
        self.extensions = {"code": self.code}


class Forbidden(ApiError):
    """The API key may not read or write this namespace."""

    code = "forbidden"


class PageTooLarge(ApiError):
    """``first``/``limit`` is above ``api_max_page_size``."""

    code = "page_too_large"


# Codes of KgmemErrors a caller can act on: bad input, an unknown id, a lost write race, a
# consolidation lease held (or lost) by another worker — try again later.
EXPECTED_CODES = frozenset(
    {InvalidInput.code, NotFound.code, ConcurrentWrite.code, "lease_held", "lease_lost"}
)


def is_expected(exc: BaseException) -> bool:
    """A KgmemError the caller caused or can act on, whose message says nothing internal.

    A bare ``KgmemError`` raised *from* another exception wraps a driver failure (see
    ``graph.client.translated_errors``) and is internal; one raised on its own is a message
    written for users (e.g. "observe needs a non-empty list of turns").
    """
    if not isinstance(exc, KgmemError):
        return False
    if exc.code in EXPECTED_CODES:
        return True
    return type(exc) is KgmemError and exc.__cause__ is None


def is_unavailable(exc: BaseException) -> bool:
    return isinstance(exc, GraphUnavailable | GraphAuthError | ModelUnavailable)


def _original(error: GraphQLError) -> BaseException | None:
    original = error.original_error
    return None if original is None else primary(original)


def is_bad_variable(error: GraphQLError) -> bool:
    """A variable the document declares got a value of the wrong type (``text: 123``): graphql
    coerces variables before anything runs, so the error has no path, and its message names the
    variable and the field inside it."""
    return error.path is None and isinstance(error.original_error, GraphQLError)


def public(error: GraphQLError) -> GraphQLError:
    """The version of ``error`` a caller may see."""
    original = _original(error)
    if original is None:  # syntax or validation error: about the caller's document only
        code = (error.extensions or {}).get("code", "invalid_query")
        message, extensions = error.message, {**(error.extensions or {}), "code": code}
    elif is_bad_variable(error):
        message, extensions = error.message, {"code": InvalidInput.code}
    elif isinstance(original, KgmemError) and (
        isinstance(original, ApiError) or is_expected(original)
    ):
        message, extensions = original.message, {"code": original.code}
    elif is_unavailable(original):
        message, extensions = UNAVAILABLE, {"code": "unavailable"}
    else:
        message, extensions = INTERNAL, {"code": "internal_error"}
    return GraphQLError(
        message,
        nodes=error.nodes,
        source=error.source,
        positions=error.positions,
        path=error.path,
        original_error=None,
        extensions=extensions,
    )


def log_errors(errors: list[GraphQLError]) -> None:
    """Log what the caller will not see: internal failures with their traceback."""
    for error in errors:
        original = _original(error)
        if original is None or isinstance(original, ApiError):
            continue
        if is_bad_variable(error):
            log.debug("refused variables: %s", error.message)
            continue
        if isinstance(original, KgmemError) and is_expected(original):
            log.debug("rejected: %s", original.message)
        elif is_unavailable(original):
            log.warning("unavailable: %s", original)
        else:
            log.error("internal error in %s", error.path, exc_info=original)


class PublicErrors(SchemaExtension):
    """Rewrites every error of a result with :func:`public` once the operation is done."""

    def on_operation(self) -> Iterator[None]:
        yield
        result = self.execution_context.result
        errors = getattr(result, "errors", None)
        if result is not None and errors:
            result.errors = [public(e) for e in errors]
