"""Run-time bounds of one GraphQL request: a result-size cap and a timeout, each a typed error.

The complexity estimate (``kgmem.api.cost``) refuses a document before it runs; these two hold
while it runs, for what an estimate cannot see (a slow database, a huge X-ray):

* :class:`ResultBudget` counts the fields resolved; past ``api_max_result_fields`` every further
  field fails at once, and the operation answers one ``result_too_large`` error and no data.
* :func:`within_deadline` runs a *query* for at most ``api_request_timeout_s`` and answers one
  ``timeout`` error when it is cut off (cancelled at its next await, so a Neo4j read in flight is
  abandoned). Mutations are not cut off: a write stopped halfway would leave the caller not
  knowing whether it happened; they are bounded by the statement and LLM timeouts instead.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable, Iterator
from typing import Any

from graphql import GraphQLError, OperationType, get_operation_ast, parse
from strawberry.extensions import SchemaExtension
from strawberry.types import ExecutionResult

from kgmem.api.errors import ApiError
from kgmem.settings import Settings

log = logging.getLogger("kgmem.api")


class ResultTooLarge(ApiError):
    """The response would resolve more fields than ``api_max_result_fields``."""

    code = "result_too_large"


def _only_error(message: str, code: str) -> GraphQLError:
    return GraphQLError(message, extensions={"code": code})


def result_budget(settings: Settings) -> Callable[[], SchemaExtension]:
    cap = settings.api_max_result_fields

    def make() -> SchemaExtension:
        return ResultBudget(cap)

    return make


class ResultBudget(SchemaExtension):
    """Fails every field past the cap, then replaces the result with one error (no data)."""

    def __init__(self, cap: int) -> None:
        self.cap, self.resolved = cap, 0

    def resolve(self, _next: Callable[..., Any], root: Any, info: Any, *a: Any, **kw: Any) -> Any:
        self.resolved += 1
        if self.resolved > self.cap:
            raise ResultTooLarge("over the cap")  # stops this branch; the message is replaced
        return _next(root, info, *a, **kw)

    def on_operation(self) -> Iterator[None]:
        yield
        result = self.execution_context.result
        if result is not None and self.resolved > self.cap:
            log.warning("a response passed %d fields and was refused", self.cap)
            result.data = None
            result.errors = [
                _only_error(
                    f"the response would hold more than {self.cap} fields: ask for smaller "
                    "pages or fewer nested fields",
                    ResultTooLarge.code,
                )
            ]


def is_query(document: str | None, operation_name: str | None) -> bool:
    """Whether the request runs a query (False for a mutation or a document that won't parse)."""
    if not document:
        return False
    try:
        op = get_operation_ast(parse(document), operation_name)
    except GraphQLError:
        return False
    return op is not None and op.operation == OperationType.QUERY


async def within_deadline(run: Awaitable[ExecutionResult], timeout_s: float) -> ExecutionResult:
    """``run``'s result, or one ``timeout`` error if it takes longer than ``timeout_s``."""
    try:
        async with asyncio.timeout(timeout_s):
            return await run
    except TimeoutError:
        log.warning("a query ran past %.1f s and was stopped", timeout_s)
        message = (
            f"the query ran longer than {timeout_s:g} s and was stopped: ask for smaller pages "
            "or fewer nested fields"
        )
        return ExecutionResult(data=None, errors=[_only_error(message, "timeout")])
