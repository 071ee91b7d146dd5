"""The GraphQL schema: Query + Mutation, the document limits, public errors, operation metrics.

``build_schema(settings)`` assembles it once per app. Extensions run per request, in order:
token, depth, complexity and alias limits at validation (a refused document runs nothing); the
result-size cap while it runs (``kgmem.api.budget``, which also times out a slow query);
:class:`OperationMetrics` (count and latency by root fields and outcome);
:class:`ConsistencyToken` (a response that wrote carries its bookmarks); and
:class:`~kgmem.api.errors.PublicErrors`, which rewrites every error into what a caller may see.
``KgmemSchema.process_errors`` logs the originals first — internal ones with their traceback —
so the server log keeps what the response leaves out.
"""

from __future__ import annotations

import time
from collections.abc import Iterator
from typing import Any

import strawberry
from graphql import FieldNode, GraphQLError, OperationDefinitionNode
from strawberry.extensions import SchemaExtension
from strawberry.schema.base import BaseSchema
from strawberry.types import ExecutionContext, ExecutionResult

from kgmem.api.budget import is_query, result_budget, within_deadline
from kgmem.api.context import ApiContext
from kgmem.api.errors import PublicErrors, log_errors
from kgmem.api.limits import validation_extensions
from kgmem.api.mutations import Mutation
from kgmem.api.queries import Query
from kgmem.settings import Settings


class KgmemSchema(strawberry.Schema):
    timeout_s: float = 30.0

    async def execute(  # type: ignore[override]
        self, query: str | None, *args: Any, **kwargs: Any
    ) -> ExecutionResult:
        run = super().execute(query, *args, **kwargs)
        if not is_query(query, kwargs.get("operation_name")):
            return await run
        return await within_deadline(run, self.timeout_s)

    def process_errors(
        self, errors: list[GraphQLError], execution_context: ExecutionContext | None = None
    ) -> None:
        log_errors(errors)


def _operation_label(ec: ExecutionContext, known: frozenset[str]) -> str:
    """The root fields of the operation, e.g. ``recall`` or ``memory+stats``; ``invalid`` when
    the document did not parse or names fields the schema lacks (labels stay a bounded set)."""
    document = ec.graphql_document
    if document is None:
        return "invalid"
    for definition in document.definitions:
        if not isinstance(definition, OperationDefinitionNode):
            continue
        if ec.operation_name and (
            definition.name is None or definition.name.value != ec.operation_name
        ):
            continue
        names = {
            s.name.value
            for s in definition.selection_set.selections
            if isinstance(s, FieldNode) and s.name.value != "__typename"
        }
        if not names:
            return "introspection" if definition.selection_set.selections else "invalid"
        if names <= known:
            return "+".join(sorted(names))
        if all(n.startswith("__") for n in names):
            return "introspection"
        return "invalid"
    return "invalid"


class ConsistencyToken(SchemaExtension):
    """Adds ``extensions.bookmarks`` to a response whose operation wrote: the driver's bookmarks
    of its commits, the consistency token a later ``recall(bookmarks: ...)`` passes back."""

    def get_results(self) -> dict[str, Any]:
        ctx = self.execution_context.context
        if isinstance(ctx, ApiContext) and ctx.bookmarks:
            return {"bookmarks": sorted(ctx.bookmarks)}
        return {}


class OperationMetrics(SchemaExtension):
    """Counts each operation and times it, labelled by its root fields and outcome."""

    def on_operation(self) -> Iterator[None]:
        t0 = time.perf_counter()
        yield
        ec = self.execution_context
        ctx = ec.context
        if not isinstance(ctx, ApiContext):
            return
        label = _operation_label(ec, _root_fields(ec.schema))
        outcome = "error" if getattr(ec.result, "errors", None) else "ok"
        ctx.metrics.operations.inc(operation=label, outcome=outcome)
        ctx.metrics.operation_seconds.observe(time.perf_counter() - t0, operation=label)


def _root_fields(schema: BaseSchema) -> frozenset[str]:
    gql = getattr(schema, "_schema", None)
    if gql is None:
        return frozenset()
    names = set(gql.query_type.fields)
    if gql.mutation_type is not None:
        names |= set(gql.mutation_type.fields)
    return frozenset(names)


def build_schema(settings: Settings) -> strawberry.Schema:
    schema = KgmemSchema(
        query=Query,
        mutation=Mutation,
        extensions=[
            *validation_extensions(settings),
            result_budget(settings),
            OperationMetrics,
            ConsistencyToken,
            PublicErrors,
        ],
    )
    schema.timeout_s = settings.api_request_timeout_s
    return schema
