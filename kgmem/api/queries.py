"""GraphQL queries: recall (with the X-ray), memories and entities, entity facts, timelines, audit,
stats.

Every field takes an optional ``namespace``; ``ctx.namespace`` resolves and authorises it before
any I/O. List fields take ``first`` (at most ``api_max_page_size``; ``kgmem.api.cost``).
Resolvers only call ``kgmem.service.Kgmem`` and shape its rows; nested fields load through the
request's DataLoaders. ``recall`` is a query although a non-``dry`` recall touches its hits
(access counts, stability, co-activation): that is part of what recalling a memory means, as in
the SDK. ``recall(bookmarks: ...)`` reads after the writes a consistency token names (the
``extensions.bookmarks`` of their responses), on whichever cluster member serves the reads.
"""

from __future__ import annotations

import time
from datetime import datetime

import strawberry

from kgmem.api.context import Info, resolver
from kgmem.api.fact_types import EntityFactsResult, facts_result
from kgmem.api.groups import Box, Relation, Stats, Topic, Trace
from kgmem.api.inputs import MemoryConnection, MemoryFilters, RecallFilters, decode_cursor
from kgmem.api.recall_types import RecallOk
from kgmem.api.rejected import attempt
from kgmem.api.results import RecallResultUnion
from kgmem.api.types import Entity, Memory, StatusChange
from kgmem.recall.options import RecallOptions


@strawberry.type
class Query:
    @resolver(
        description=(
            "Ranked memories for a query; explain: true adds the X-ray. bookmarks: the "
            "consistency token (extensions.bookmarks) of earlier writes, to read them."
        )
    )
    async def recall(
        self,
        info: Info,
        query: str,
        profile: str | None = None,
        mode: str | None = None,
        filters: RecallFilters | None = None,
        as_of: datetime | None = None,
        limit: int = 10,
        dry: bool = False,
        explain: bool = False,
        session_id: str | None = None,
        namespace: str | None = None,
        episode_hits: bool = True,
        bookmarks: list[str] | None = None,
    ) -> RecallResultUnion:
        ctx = info.context
        ctx.page(limit, "limit")
        f = filters or RecallFilters()

        async def run() -> RecallOk:
            ns = ctx.namespace(namespace)
            t0 = time.perf_counter()
            try:
                options = RecallOptions.parse(
                    limit=limit,
                    profile=profile,
                    mode=mode,
                    categories=f.categories,
                    tiers=f.tiers,
                    min_confidence=f.min_confidence,
                    include_superseded=f.include_superseded,
                    as_of=as_of,
                    dry=dry,
                    session_id=session_id,
                    episode_hits=episode_hits,
                )
                result = await ctx.km.recall(
                    query, options, namespace=ns, bookmarks=bookmarks or ()
                )
            finally:
                ctx.metrics.recall_seconds.observe(time.perf_counter() - t0)
            return RecallOk.of(result, ns, explain)

        return await attempt(run)

    @resolver(description="One memory by id (any status), or null.")
    async def memory(
        self, info: Info, id: strawberry.ID, namespace: str | None = None
    ) -> Memory | None:
        ns = info.context.namespace(namespace)
        row = await info.context.km.get_memory(str(id), namespace=ns)
        return None if row is None else Memory.of(row, ns)

    @resolver(description="Memories newest first, cursor-paginated.")
    async def memories(
        self,
        info: Info,
        filters: MemoryFilters | None = None,
        first: int = 20,
        after: str | None = None,
        namespace: str | None = None,
    ) -> MemoryConnection:
        ctx = info.context
        first = ctx.page(first)
        ns = ctx.namespace(namespace)
        f = filters or MemoryFilters()
        rows = await ctx.km.memory_page(
            namespace=ns,
            statuses=f.statuses,
            categories=f.categories,
            tiers=f.tiers,
            min_confidence=f.min_confidence,
            include_superseded=f.include_superseded,
            after=decode_cursor(after) if after else None,
            limit=first + 1,  # one more tells whether there is a next page
        )
        return MemoryConnection.of(rows, first, ns)

    @resolver(description="One entity by id or by name (normalised name or alias).")
    async def entity(
        self,
        info: Info,
        id: strawberry.ID | None = None,
        name: str | None = None,
        namespace: str | None = None,
    ) -> Entity | None:
        ns = info.context.namespace(namespace)
        row = await info.context.km.get_entity(
            id=str(id) if id is not None else None, name=name, namespace=ns
        )
        return None if row is None else Entity.of(row, ns)

    @resolver(
        description="An entity's current attributes from its memories' claims, with the "
        "superseded values before them (entity: id, name or alias; slot: a claim family or key)."
    )
    async def facts(
        self, info: Info, entity: str, slot: str | None = None, namespace: str | None = None
    ) -> EntityFactsResult:
        ns = info.context.namespace(namespace)
        return await facts_result(info.context.km, entity, slot, ns)

    @resolver(description="Entities, most mentioned first.")
    async def entities(
        self, info: Info, first: int = 50, namespace: str | None = None
    ) -> list[Entity]:
        ctx = info.context
        first = ctx.page(first)
        ns = ctx.namespace(namespace)
        return [Entity.of(r, ns) for r in await ctx.km.entities(namespace=ns, limit=first)]

    @resolver(description="Typed entity relations, most confident first.")
    async def relations(
        self, info: Info, first: int = 50, namespace: str | None = None
    ) -> list[Relation]:
        ctx = info.context
        first = ctx.page(first)
        ns = ctx.namespace(namespace)
        return [Relation.of(r) for r in await ctx.km.relations(namespace=ns, limit=first)]

    @resolver(
        description="Memories about an entity or a topic in the order they became true, "
        "superseded ones included."
    )
    async def timeline(
        self,
        info: Info,
        entity: str | None = None,
        topic: str | None = None,
        first: int = 50,
        namespace: str | None = None,
    ) -> list[Memory]:
        ctx = info.context
        first = ctx.page(first)
        ns = ctx.namespace(namespace)
        rows = await ctx.km.timeline(entity=entity, topic=topic, namespace=ns, limit=first)
        return [Memory.of(r["memory"], ns) for r in rows]

    @resolver(description="Every status change of one memory, oldest first.")
    async def status_history(
        self, info: Info, id: strawberry.ID, first: int = 50, namespace: str | None = None
    ) -> list[StatusChange]:
        first = info.context.page(first)
        ns = info.context.namespace(namespace)
        rows = await info.context.km.status_history(str(id), namespace=ns)
        return [StatusChange.of(r) for r in rows[:first]]

    @resolver(description="Topics (named memory clusters), largest first.")
    async def topics(
        self, info: Info, first: int = 50, namespace: str | None = None
    ) -> list[Topic]:
        ctx = info.context
        first = ctx.page(first)
        ns = ctx.namespace(namespace)
        return [Topic.of(r) for r in await ctx.km.topics(namespace=ns, limit=first)]

    @resolver(description="Memory boxes, most recent first (status: open or sealed).")
    async def boxes(
        self,
        info: Info,
        status: str | None = None,
        first: int = 50,
        namespace: str | None = None,
    ) -> list[Box]:
        ctx = info.context
        first = ctx.page(first)
        ns = ctx.namespace(namespace)
        rows = await ctx.km.boxes(namespace=ns, status=status, limit=first)
        return [Box.of(r, ns) for r in rows]

    @resolver(description="Traces (boxes sharing topics over time), most recent first.")
    async def traces(
        self, info: Info, first: int = 50, namespace: str | None = None
    ) -> list[Trace]:
        ctx = info.context
        first = ctx.page(first)
        ns = ctx.namespace(namespace)
        return [Trace.of(r) for r in await ctx.km.traces(namespace=ns, limit=first)]

    @resolver(description="Counts of the namespace's nodes, statuses and edges.")
    async def stats(self, info: Info, namespace: str | None = None) -> Stats:
        ns = info.context.namespace(namespace)
        return Stats.of(await info.context.km.stats(namespace=ns), ns)
