"""The MCP tools: observe, remember, recall, explain, forget, correct, timeline, entity, stats.

Contract. :func:`register` adds the tools to an ``MCPServer``, each a thin call of one
:class:`~kgmem.service.Kgmem` method — the same ones the GraphQL resolvers call, with the same
namespace and page checks (:mod:`kgmem.mcp.calls`) — whose answer is a typed result of
:mod:`kgmem.mcp.shapes`. Every body runs through :func:`kgmem.mcp.calls.answer`, so a failure is
a tool error with a message, never an empty success. The descriptions are written for the model
that picks the tool: what it does, when to use it, what comes back.
"""

from __future__ import annotations

from typing import Annotated

from mcp.server.mcpserver import MCPServer
from mcp_types import ToolAnnotations
from pydantic import Field

from kgmem.mcp import calls
from kgmem.mcp.calls import Backend, Ctx, answer
from kgmem.mcp.params import (
    AsOf,
    Categories,
    Category_,
    IncludeSuperseded,
    Limit,
    MemoryId,
    MinConfidence,
    Mode,
    Namespace,
    Profile,
    Query,
    SessionId,
    Source,
    Strategy,
    Tiers,
    TurnIn,
)
from kgmem.mcp.shapes import (
    Corrected,
    Counts,
    EntityCard,
    Explanation,
    Forgotten,
    Observed,
    Recalled,
    Receipt,
    Remembered,
    Timeline,
    TimelineEntry,
)
from kgmem.recall.options import RecallOptions
from kgmem.records import Turn

READS = ToolAnnotations(read_only_hint=True, open_world_hint=False)
WRITES = ToolAnnotations(read_only_hint=False, destructive_hint=False, open_world_hint=False)
ERASES = ToolAnnotations(read_only_hint=False, destructive_hint=True, open_world_hint=False)


def register(server: MCPServer, backend: Backend) -> None:
    """Add every kgmem tool to ``server``, answering through ``backend``."""
    register_writes(server, backend)
    register_reads(server, backend)


def register_writes(server: MCPServer, backend: Backend) -> None:
    @server.tool(
        annotations=WRITES,
        description="Store conversation turns in long-term memory. Every turn is kept as an "
        "episode; memories (facts, preferences, plans, ...) are extracted from them when a "
        "trigger fires — a strong signal, enough pending turns, or flush=true (use it at the "
        "end of a conversation). The result is the receipt: the episode ids, the status "
        "(extracted, pending: a worker is extracting, buffered: waiting for more turns) and "
        "every memory written, with its id and what happened (created, reinforced, "
        "superseded, ...).",
    )
    async def observe(
        turns: Annotated[list[TurnIn], Field(min_length=1, description="The turns, in order.")],
        ctx: Ctx,
        flush: Annotated[bool, Field(description="Extract now, without waiting.")] = False,
        wait_seconds: Annotated[
            float,
            Field(ge=0, description="When a worker extracts: wait this long for it (capped)."),
        ] = 0.0,
        namespace: Namespace = None,
    ) -> Observed:
        async def run() -> Observed:
            ns = calls.namespace(backend, ctx, namespace)
            km = await backend.service(ctx)
            report = await km.observe(
                [Turn(**t.model_dump()) for t in turns],
                namespace=ns,
                flush=flush,
                wait=wait_seconds,
            )
            return Observed.of(report, ns)

        return await answer("observe", run)

    @server.tool(
        annotations=WRITES,
        description="Store one explicit memory, as said (e.g. 'Ana is allergic to penicillin'). "
        "The write gate may reinforce an identical memory, or supersede one it contradicts "
        "(kept in the history). The receipt says which, with the memory id.",
    )
    async def remember(
        text: Annotated[str, Field(min_length=1, description="The memory, one statement.")],
        ctx: Ctx,
        category: Category_ = "fact",
        source: Source = "human",
        strategy: Strategy = "temporal",
        namespace: Namespace = None,
    ) -> Remembered:
        async def run() -> Remembered:
            ns = calls.namespace(backend, ctx, namespace)
            km = await backend.service(ctx)
            receipt = await km.remember(
                text, namespace=ns, category=category, source=source, strategy=strategy
            )
            return Remembered(namespace=ns, receipt=Receipt.of(receipt))

        return await answer("remember", run)

    @server.tool(
        annotations=WRITES,
        description="Replace a wrong memory with corrected text: the correction is stored and "
        "supersedes the named memory (which stays in the history with its validity ended).",
    )
    async def correct(
        memory_id: MemoryId,
        text: Annotated[str, Field(min_length=1, description="What is true instead.")],
        ctx: Ctx,
        namespace: Namespace = None,
    ) -> Corrected:
        async def run() -> Corrected:
            ns = calls.namespace(backend, ctx, namespace)
            km = await backend.service(ctx)
            receipt = await km.correct(memory_id, text, namespace=ns, actor=backend.actor(ctx))
            return Corrected(namespace=ns, corrected_id=memory_id, receipt=Receipt.of(receipt))

        return await answer("correct", run)

    @server.tool(
        annotations=ERASES,
        description="Forget a memory. Soft (default): its status becomes deleted and recall no "
        "longer returns it; it can still be audited until the purge. hard=true erases it now, "
        "with everything derived from it that would reveal what it said (irreversible).",
    )
    async def forget(
        memory_id: MemoryId,
        ctx: Ctx,
        hard: Annotated[bool, Field(description="Erase now, irreversibly.")] = False,
        reason: Annotated[str | None, Field(description="Why (kept for a soft forget).")] = None,
        namespace: Namespace = None,
    ) -> Forgotten:
        async def run() -> Forgotten:
            ns = calls.namespace(backend, ctx, namespace)
            km = await backend.service(ctx)
            row = await km.forget(
                memory_id,
                hard=hard,
                reason=reason or "forgotten on request",
                namespace=ns,
                actor=backend.actor(ctx),
            )
            return Forgotten.of(row, ns, memory_id, hard)

        return await answer("forget", run)


def register_reads(server: MCPServer, backend: Backend) -> None:
    @server.tool(
        annotations=READS,
        description="Recall the memories that best answer a question, ranked. Each hit has its "
        "id (for forget, correct, explain), its content, when it was valid (valid_until is set "
        "once a newer memory replaced it) and a short 'why' (the searches that found it and its "
        "strongest ranking factors). Use as_of to ask what was true at an earlier time.",
    )
    async def recall(
        query: Query,
        ctx: Ctx,
        limit: Limit = 10,
        profile: Profile = None,
        mode: Mode = None,
        categories: Categories = None,
        tiers: Tiers = None,
        min_confidence: MinConfidence = 0.0,
        include_superseded: IncludeSuperseded = False,
        as_of: AsOf = None,
        session_id: SessionId = None,
        namespace: Namespace = None,
    ) -> Recalled:
        async def run() -> Recalled:
            ns = calls.namespace(backend, ctx, namespace)
            km = await backend.service(ctx)
            options = RecallOptions.parse(
                limit=calls.limit(backend, limit),
                profile=profile,
                mode=mode,
                categories=categories,
                tiers=tiers,
                min_confidence=min_confidence,
                include_superseded=include_superseded,
                as_of=as_of,
                session_id=session_id,
            )
            result = await km.recall(query, options, namespace=ns)
            return Recalled.of(result, ns)

        return await answer("recall", run)

    @server.tool(
        annotations=READS,
        description="Explain a recall (the X-ray): how the question was understood, which "
        "searches ran, each hit's score broken into its factors with the graph path that led "
        "to it, the candidates left out and why, and the time each stage took. Reads only: "
        "explaining does not count as using the memories.",
    )
    async def explain(
        query: Query,
        ctx: Ctx,
        limit: Limit = 10,
        profile: Profile = None,
        mode: Mode = None,
        as_of: AsOf = None,
        namespace: Namespace = None,
    ) -> Explanation:
        async def run() -> Explanation:
            ns = calls.namespace(backend, ctx, namespace)
            km = await backend.service(ctx)
            options = RecallOptions.parse(
                limit=calls.limit(backend, limit),
                profile=profile,
                mode=mode,
                as_of=as_of,
                dry=True,  # explaining a recall is not an access to its memories
            )
            xray = await km.explain(query, options, namespace=ns)
            return Explanation.of(xray, ns)

        return await answer("explain", run)

    @server.tool(
        annotations=READS,
        description="The history of an entity (a person, place, thing: by name or id) or of "
        "a topic: its memories in the order they became true, replaced ones included with "
        "the ids of what replaced them. Give exactly one of entity or topic.",
    )
    async def timeline(
        ctx: Ctx,
        entity: Annotated[str | None, Field(description="An entity's name, alias or id.")] = None,
        topic: Annotated[str | None, Field(description="A topic's name or id.")] = None,
        limit: Annotated[int, Field(ge=1, description="How many entries at most.")] = 50,
        namespace: Namespace = None,
    ) -> Timeline:
        async def run() -> Timeline:
            ns = calls.namespace(backend, ctx, namespace)
            km = await backend.service(ctx)
            rows = await km.timeline(
                entity=entity, topic=topic, namespace=ns, limit=calls.limit(backend, limit)
            )
            return Timeline(namespace=ns, entries=[TimelineEntry.of(r) for r in rows])

        return await answer("timeline", run)

    @server.tool(
        annotations=READS,
        description="What is known about one entity now: its type, aliases and summary, and "
        "each of its attributes (residence, job, preference:..., ...) with the current value "
        "and the values it had before (newest first), each backed by a memory id.",
    )
    async def entity(
        name: Annotated[
            str, Field(min_length=1, description="The entity's name, an alias, or its id.")
        ],
        ctx: Ctx,
        slot: Annotated[
            str | None, Field(description='Only this attribute ("residence", "preference").')
        ] = None,
        namespace: Namespace = None,
    ) -> EntityCard:
        async def run() -> EntityCard:
            ns = calls.namespace(backend, ctx, namespace)
            km = await backend.service(ctx)
            facts = await km.entity_facts(name, slot=slot, namespace=ns)
            row = await km.get_entity(id=facts.entity_id, namespace=ns) if facts.entity_id else None
            return EntityCard.of(row, facts, ns)

        return await answer("entity", run)

    @server.tool(
        annotations=READS,
        description="Counts of what the namespace holds: nodes by label, memories by status, "
        "relationships by type.",
    )
    async def stats(ctx: Ctx, namespace: Namespace = None) -> Counts:
        async def run() -> Counts:
            ns = calls.namespace(backend, ctx, namespace)
            km = await backend.service(ctx)
            return Counts.of(await km.stats(namespace=ns), ns)

        return await answer("stats", run)
