"""GraphQL result types: recall hits and the X-ray, write receipts, and the union results.

Operations that can fail in an expected way return a union, ``<Operation>Ok | Rejected``, so a
client handles "no such memory" or "empty text" by matching on ``__typename`` instead of parsing
error strings (``consolidate`` also answers ``Unavailable`` where no consolidation job is
installed). ``Rejected.code`` is a stable code (``invalid_input``, ``not_found``,
``concurrent_write``, ``lease_held``, ...) and ``reason`` a sentence for people. The X-ray
mirrors ``kgmem.recall.xray.Xray``: each hit's factor contributions (they add up to its final
score), channel ranks, graph path with edge confidences and source episodes; dropped candidates
with their reason; stage timings; the queries run; ``raw`` is ``Xray.to_dict()``.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import fields, is_dataclass
from datetime import datetime
from enum import Enum
from typing import Annotated

import strawberry
from strawberry.scalars import JSON

from kgmem.api.recall_types import RecallOk
from kgmem.api.rejected import Rejected
from kgmem.api.types import Memory
from kgmem.ingest.reports import ObserveReport
from kgmem.records import WriteReceipt


@strawberry.type(description="The operation exists but cannot run in this deployment yet.")
class Unavailable:
    message: str
    code: str = "unavailable"


@strawberry.type(description="One consolidation run (dream cycle): its per-step report.")
class ConsolidateOk:
    namespace: str
    dry_run: bool
    report: JSON

    @classmethod
    def of(cls, report: object, namespace: str, dry_run: bool) -> ConsolidateOk:
        to_dict = getattr(report, "to_dict", None)
        data = to_dict() if callable(to_dict) else report
        return cls(namespace=namespace, dry_run=dry_run, report=JSON(jsonable(data)))


def jsonable(value: object) -> object:
    """Plain JSON values: datetimes as ISO 8601, enums as values, dataclasses as dicts."""
    if is_dataclass(value) and not isinstance(value, type):
        return {f.name: jsonable(getattr(value, f.name)) for f in fields(value)}
    if isinstance(value, datetime):
        return value.isoformat()
    if isinstance(value, Enum):
        return jsonable(value.value)
    if isinstance(value, Mapping):
        return {str(k): jsonable(v) for k, v in value.items()}
    if isinstance(value, list | tuple | set | frozenset):
        return [jsonable(v) for v in value]
    if value is None or isinstance(value, str | int | float | bool):
        return value
    return str(value)


@strawberry.type(description="What one write did to one memory.")
class Receipt:
    action: str = strawberry.field(
        description="created, reinforced, updated, superseded, flagged or skipped."
    )
    memory_id: strawberry.ID
    reason: str
    related_ids: list[strawberry.ID]
    entities: list[str]

    @classmethod
    def of(cls, r: WriteReceipt) -> Receipt:
        return cls(
            action=r.action,
            memory_id=strawberry.ID(r.memory_id),
            reason=r.reason,
            related_ids=[strawberry.ID(i) for i in r.related_ids if i],
            entities=list(r.entities),
        )


# --- recall and the X-ray --------------------------------------------------------------------


# --- mutation results ------------------------------------------------------------------------


@strawberry.type(description="A turn that gave no memory, and why (recorded on its Episode).")
class SkippedTurn:
    episode_id: strawberry.ID
    reasons: list[str] = strawberry.field(
        description="The observer filters' (too_short, code_heavy, ...) or the extractor's "
        "(question, filler, no_words, no_statement)."
    )


@strawberry.type
class ObserveOk:
    episode_ids: list[strawberry.ID]
    new_episodes: int
    trigger: str = strawberry.field(
        description="high_signal, max_turns, max_age, flush, or buffered (no extraction yet)."
    )
    status: str = strawberry.field(
        description="extracted (every turn of this call is extracted), pending (a trigger fired "
        "and a worker has not finished them: no wait, or the wait ended first) or buffered (no "
        "trigger fired; the turns wait for more)."
    )
    extracted_episodes: int
    pending_episodes: int = strawberry.field(
        description="Turns of this call a worker has not extracted yet (0 when extracted here)."
    )
    skipped_turns: int
    skipped: list[SkippedTurn]
    engine: str | None
    receipts: list[Receipt] = strawberry.field(
        description="What the extraction wrote, when it ran in this request (inline mode); after "
        "waiting for a worker, see memoryIds."
    )
    memory_ids: list[strawberry.ID] = strawberry.field(
        description="After waiting for a worker: the memories derived from this call's turns."
    )
    conflicts: int = strawberry.field(
        description="Batches another writer extracted first (their memories stand)."
    )
    deferred: bool = strawberry.field(
        description="Extraction stopped early under contention; the turns are stored and pending."
    )
    waited: bool = strawberry.field(
        description="This call waited for a worker: extractedEpisodes, pendingEpisodes, skipped, "
        "memoryIds and engine are what the graph had committed for its turns when it answered."
    )

    @classmethod
    def of(cls, r: ObserveReport) -> ObserveOk:
        x, o = r.extraction, r.outcome
        skips = x.skips if x else (list(o.skips) if o else [])
        if x:
            extracted, pending = x.episodes, 0 if r.status == "extracted" else len(r.episode_ids)
        elif o:
            extracted, pending = o.extracted, o.pending
        else:
            extracted, pending = 0, 0 if r.status == "buffered" else len(set(r.episode_ids))
        return cls(
            episode_ids=[strawberry.ID(i) for i in r.episode_ids],
            new_episodes=r.new_episodes,
            trigger=r.trigger,
            status=r.status,
            extracted_episodes=extracted,
            pending_episodes=pending,
            skipped_turns=len(skips),
            skipped=[
                SkippedTurn(episode_id=strawberry.ID(k.turn_id), reasons=list(k.reasons))
                for k in skips
            ],
            engine=x.engine if x else (o.engine if o else None),
            receipts=[Receipt.of(w) for w in x.receipts] if x else [],
            memory_ids=[strawberry.ID(i) for i in o.memory_ids] if o else [],
            conflicts=x.conflicts if x else 0,
            deferred=x.deferred if x else False,
            waited=o is not None,
        )


@strawberry.type
class RememberOk:
    receipt: Receipt


@strawberry.type
class CorrectOk:
    corrected_id: strawberry.ID
    receipt: Receipt


@strawberry.type
class StatusChanged:
    memory_id: strawberry.ID
    old: str | None
    new: str


@strawberry.type
class PinOk:
    memory: Memory


@strawberry.type
class Forgotten:
    memory_id: strawberry.ID
    hard: bool
    status: str | None = strawberry.field(description="deleted (soft), or null (hard).")
    episodes_deleted: int
    audit_records_deleted: int
    memories_erased: int = strawberry.field(
        description="Hard: the memory, those merged into it and those built from it."
    )
    entities_deleted: int = strawberry.field(description="Hard: entities only they mentioned.")
    episodes_redacted: int = strawberry.field(
        description="Hard: turns that also yielded a memory that stays, kept with no text."
    )


@strawberry.type
class FeedbackOk:
    memory_id: strawberry.ID
    useful: bool
    utility_before: float
    utility: float


@strawberry.type
class ConflictResolved:
    kept_id: strawberry.ID
    dropped_id: strawberry.ID
    dropped_status_before: str | None
    contradictions_resolved: int


RecallResultUnion = Annotated[RecallOk | Rejected, strawberry.union("RecallResult")]
ObserveResult = Annotated[ObserveOk | Rejected, strawberry.union("ObserveResult")]
RememberResult = Annotated[RememberOk | Rejected, strawberry.union("RememberResult")]
CorrectResult = Annotated[CorrectOk | Rejected, strawberry.union("CorrectResult")]
SetStatusResult = Annotated[StatusChanged | Rejected, strawberry.union("SetStatusResult")]
PinResult = Annotated[PinOk | Rejected, strawberry.union("PinResult")]
ForgetResult = Annotated[Forgotten | Rejected, strawberry.union("ForgetResult")]
FeedbackResult = Annotated[FeedbackOk | Rejected, strawberry.union("FeedbackResult")]
ResolveConflictResult = Annotated[
    ConflictResolved | Rejected, strawberry.union("ResolveConflictResult")
]
ConsolidateResult = Annotated[
    ConsolidateOk | Unavailable | Rejected, strawberry.union("ConsolidateResult")
]
