"""GraphQL mutations: observe, remember, correct, setStatus, pin/unpin, forget, feedback,
resolveConflict, consolidate (when a consolidation job is installed).

Each one resolves and authorises its namespace first (a refusal is a ``forbidden`` GraphQL error
and nothing is read or written), then calls one ``Kgmem`` method; an expected failure comes back
as ``Rejected`` with nothing written. Writes are audited with the caller's key fingerprint as
the actor and counted in ``kgmem_writes_total`` by receipt action.
"""

from __future__ import annotations

from typing import Any

import strawberry

from kgmem.api.context import ApiContext, Info, mutation
from kgmem.api.inputs import RememberInput, TurnInput
from kgmem.api.rejected import attempt
from kgmem.api.results import (
    ConflictResolved,
    ConsolidateOk,
    ConsolidateResult,
    CorrectOk,
    CorrectResult,
    FeedbackOk,
    FeedbackResult,
    ForgetResult,
    Forgotten,
    ObserveOk,
    ObserveResult,
    PinOk,
    PinResult,
    Receipt,
    RememberOk,
    RememberResult,
    ResolveConflictResult,
    SetStatusResult,
    StatusChanged,
    Unavailable,
)
from kgmem.api.types import Memory
from kgmem.errors import InvalidInput
from kgmem.records import Turn
from kgmem.taxonomy import DEFAULT_CONFLICT_STRATEGY

CONSOLIDATE_UNAVAILABLE = (
    "consolidation (the dream cycle) is not available in this install: the lifecycle job that "
    "runs it (Kgmem.consolidate) is not there. Retention is still computed at read time, so "
    "recall stays correct; statuses, tiers and merges change only through the write path and "
    "these mutations."
)


async def _pin(ctx: ApiContext, id: strawberry.ID, pinned: bool, namespace: str | None) -> PinOk:
    ns = ctx.namespace(namespace)
    row = await ctx.km.pin(str(id), pinned, namespace=ns)
    ctx.metrics.writes.inc(action="pinned" if pinned else "unpinned")
    return PinOk(memory=Memory.of(row, ns))


@strawberry.type
class Mutation:
    @mutation(
        description="Store turns as episodes; when a trigger fires they are extracted, here or "
        "(worker mode, the API's default) by a kgmem worker: waitSeconds waits that long at most "
        "(capped by KGMEM_OBSERVE_MAX_WAIT_S) for it, and status says whether it finished."
    )
    async def observe(
        self,
        info: Info,
        turns: list[TurnInput],
        flush: bool = False,
        strategy: str | None = None,
        namespace: str | None = None,
        wait_seconds: float = 0.0,
    ) -> ObserveResult:
        ctx = info.context

        async def run() -> ObserveOk:
            ns = ctx.namespace(namespace)
            if not turns:
                raise InvalidInput("observe needs at least one turn")
            report = await ctx.km.observe(
                [
                    Turn(
                        text=t.text,
                        role=t.role,
                        speaker=t.speaker,
                        session_id=t.session_id,
                        at=t.at,
                        turn_id=t.turn_id,
                    )
                    for t in turns
                ],
                namespace=ns,
                strategy=strategy or DEFAULT_CONFLICT_STRATEGY,
                flush=flush,
                wait=wait_seconds,
            )
            ctx.metrics.writes.inc(len(turns), action="observed")
            for receipt in report.extraction.receipts if report.extraction else []:
                ctx.metrics.writes.inc(action=receipt.action)
            return ObserveOk.of(report)

        return await attempt(run)

    @mutation(description="Store one explicit memory as said.")
    async def remember(self, info: Info, input: RememberInput) -> RememberResult:
        ctx = info.context

        async def run() -> RememberOk:
            ns = ctx.namespace(input.namespace)
            receipt = await ctx.km.remember(
                input.text,
                namespace=ns,
                category=input.category,
                source=input.source,
                strategy=input.strategy or DEFAULT_CONFLICT_STRATEGY,
            )
            ctx.metrics.writes.inc(action=receipt.action)
            return RememberOk(receipt=Receipt.of(receipt))

        return await attempt(run)

    @mutation(description="Remember corrected text that supersedes a memory.")
    async def correct(
        self, info: Info, id: strawberry.ID, text: str, namespace: str | None = None
    ) -> CorrectResult:
        ctx = info.context

        async def run() -> CorrectOk:
            ns = ctx.namespace(namespace)
            receipt = await ctx.km.correct(str(id), text, namespace=ns, actor=ctx.actor)
            ctx.metrics.writes.inc(action=receipt.action)
            return CorrectOk(corrected_id=id, receipt=Receipt.of(receipt))

        return await attempt(run)

    @mutation(description="Move a memory to another status (audited).")
    async def set_status(
        self,
        info: Info,
        id: strawberry.ID,
        status: str,
        reason: str,
        namespace: str | None = None,
    ) -> SetStatusResult:
        ctx = info.context

        async def run() -> StatusChanged:
            ns = ctx.namespace(namespace)
            changed = await ctx.km.set_status(
                str(id), status, reason=reason, namespace=ns, actor=ctx.actor
            )
            ctx.metrics.writes.inc(action="status_changed")
            return StatusChanged(memory_id=id, old=changed.get("old"), new=str(changed["new"]))

        return await attempt(run)

    @mutation(description="Pin a memory: no decay, no demotion, no silent supersede.")
    async def pin(self, info: Info, id: strawberry.ID, namespace: str | None = None) -> PinResult:
        return await attempt(lambda: _pin(info.context, id, True, namespace))

    @mutation(description="Unpin a memory.")
    async def unpin(self, info: Info, id: strawberry.ID, namespace: str | None = None) -> PinResult:
        return await attempt(lambda: _pin(info.context, id, False, namespace))

    @mutation(
        description="Forget a memory: soft (status deleted, audited, kept until the purge) or "
        "hard (erased now with everything derived from it that would reveal it)."
    )
    async def forget(
        self,
        info: Info,
        id: strawberry.ID,
        hard: bool = False,
        reason: str | None = None,
        namespace: str | None = None,
    ) -> ForgetResult:
        ctx = info.context

        async def run() -> Forgotten:
            ns = ctx.namespace(namespace)
            row = await ctx.km.forget(
                str(id),
                hard=hard,
                reason=reason or "forgotten on request",
                namespace=ns,
                actor=ctx.actor,
            )
            ctx.metrics.writes.inc(action="purged" if hard else "deleted")
            return Forgotten(
                memory_id=id,
                hard=hard,
                status=None if hard else str(row.get("new")),
                episodes_deleted=int(row.get("episodes") or 0),
                audit_records_deleted=int(row.get("changes") or 0),
                memories_erased=int(row.get("memories") or 0),
                entities_deleted=int(row.get("entities_deleted") or 0),
                episodes_redacted=int(row.get("episodes_redacted") or 0),
            )

        return await attempt(run)

    @mutation(description="Say whether a memory was useful (the utility update).")
    async def feedback(
        self, info: Info, id: strawberry.ID, useful: bool, namespace: str | None = None
    ) -> FeedbackResult:
        ctx = info.context

        async def run() -> FeedbackOk:
            ns = ctx.namespace(namespace)
            before, after = await ctx.km.feedback(str(id), useful, namespace=ns)
            ctx.metrics.writes.inc(action="feedback")
            return FeedbackOk(memory_id=id, useful=useful, utility_before=before, utility=after)

        return await attempt(run)

    @mutation(
        description="Settle a contradiction kept open by the ask strategy: drop is superseded."
    )
    async def resolve_conflict(
        self,
        info: Info,
        keep_id: strawberry.ID,
        drop_id: strawberry.ID,
        reason: str | None = None,
        namespace: str | None = None,
    ) -> ResolveConflictResult:
        ctx = info.context

        async def run() -> ConflictResolved:
            ns = ctx.namespace(namespace)
            row = await ctx.km.resolve_conflict(
                str(keep_id),
                str(drop_id),
                reason=reason or "conflict resolved",
                namespace=ns,
                actor=ctx.actor,
            )
            ctx.metrics.writes.inc(action="resolved")
            return ConflictResolved(
                kept_id=keep_id,
                dropped_id=drop_id,
                dropped_status_before=row.get("old"),
                contradictions_resolved=int(row.get("resolved") or 0),
            )

        return await attempt(run)

    @mutation(
        description="Run one consolidation (dream cycle) on a namespace; Unavailable when this "
        "install has no consolidation job."
    )
    async def consolidate(
        self,
        info: Info,
        namespace: str | None = None,
        steps: list[str] | None = None,
        dry_run: bool = False,
    ) -> ConsolidateResult:
        ctx = info.context
        ns = ctx.namespace(namespace)  # refuse a namespace the key may not use, in any case
        # The job lives in kgmem.lifecycle and is reached through Kgmem.consolidate, like the
        # CLI does; an install without it answers Unavailable instead of failing.
        job = getattr(ctx.km, "consolidate", None)
        if not callable(job):
            return Unavailable(message=CONSOLIDATE_UNAVAILABLE)

        async def run() -> ConsolidateOk:
            options: dict[str, Any] = {"namespace": ns, "dry_run": dry_run}
            if steps:  # omitted otherwise, so the job's default (every step) applies
                options["steps"] = list(steps)
            report = await job(**options)
            ctx.metrics.writes.inc(action="consolidation_dry_run" if dry_run else "consolidated")
            return ConsolidateOk.of(report, ns, dry_run)

        return await attempt(run)
