"""``Kgmem``: the in-process memory service (SDK form), owning the graph client and the models.

One object per process (or per app lifespan): it holds the settings, the graph gateway and the
lazily-loaded models, and exposes the operations — ``remember``, ``recall`` and friends — as
async methods that the CLI, the API and notebooks all call. Constructing it does no I/O; use
``async with Kgmem(settings) as km:`` (or ``await km.open()`` / ``await km.close()``).
"""

from __future__ import annotations

import uuid
from collections.abc import Callable, Mapping, Sequence
from datetime import UTC, datetime
from pathlib import Path
from types import TracebackType
from typing import Any

from kgmem.errors import ConcurrentWrite, InvalidInput, NotFound
from kgmem.graph import api_repository, repository, topic_repository
from kgmem.graph.client import GraphClient, Row
from kgmem.graph.schema import SchemaReport, apply_schema
from kgmem.ingest import explicit, extraction, intake
from kgmem.ingest.episodes import as_utc
from kgmem.ingest.ingestor import ExtractionReport, Ingestor
from kgmem.ingest.intake import ObserveReport
from kgmem.ingest.normalize import content_hash, normalize_name
from kgmem.lifecycle.report import ConsolidationReport, StepReport
from kgmem.lifecycle.resume import ResumeContext
from kgmem.lifecycle.strength import UTILITY_PRIOR, utility_update
from kgmem.ml.embedder import Embedder
from kgmem.ml.llm import LLMClient
from kgmem.ml.nlp import Nlp
from kgmem.recall.engine import RecallResult, build_request, recall
from kgmem.recall.xray import Xray
from kgmem.records import Turn, WriteReceipt
from kgmem.settings import Settings
from kgmem.taxonomy import Category, ConflictStrategy, Status, Tier, check_transition, parse_enum
from kgmem.transfer import exporter, importer
from kgmem.transfer.records import BATCH_SIZE, ProgressFn, TransferReport
from kgmem.validation import check_limit, check_namespace, check_text


class Kgmem:
    def __init__(self, settings: Settings | None = None) -> None:
        self.settings = settings or Settings()
        self.graph = GraphClient(self.settings)
        self.embedder = Embedder(self.settings)
        self.nlp = Nlp(self.settings)
        self.llm = LLMClient(self.settings)
        self.ingestor = Ingestor(self.settings, self.graph, self.embedder, self.nlp, self.llm)

    async def open(self) -> Kgmem:
        await self.graph.connect()
        return self

    async def close(self) -> None:
        await self.graph.close()

    async def __aenter__(self) -> Kgmem:
        return await self.open()

    async def __aexit__(
        self, et: type[BaseException] | None, ev: BaseException | None, tb: TracebackType | None
    ) -> None:
        await self.close()

    async def init_schema(self) -> SchemaReport:
        return await apply_schema(self.graph)

    def _ns(self, namespace: str | None) -> str:
        return check_namespace(namespace or self.settings.namespace)

    async def observe(
        self,
        turns: Sequence[Turn],
        *,
        namespace: str | None = None,
        strategy: ConflictStrategy | str = ConflictStrategy.TEMPORAL,
        flush: bool = False,
        now: datetime | None = None,
    ) -> ObserveReport:
        """Store turns durably as episodes; extract them when a smart-buffer trigger fires."""
        return await intake.observe(
            self.ingestor,
            turns,
            namespace=self._ns(namespace),
            strategy=parse_enum(ConflictStrategy, strategy, "conflict strategy"),
            flush=flush,
            now=now,
        )

    async def extract_pending(
        self,
        *,
        namespace: str | None = None,
        strategy: ConflictStrategy | str = ConflictStrategy.TEMPORAL,
    ) -> ExtractionReport:
        """Extract every buffered episode now (also resumes after a crash)."""
        return await extraction.extract_pending(
            self.ingestor,
            namespace=self._ns(namespace),
            strategy=parse_enum(ConflictStrategy, strategy, "conflict strategy"),
        )

    async def remember(
        self,
        text: str,
        *,
        namespace: str | None = None,
        category: str = "fact",
        source: str = "human",
        strategy: ConflictStrategy | str = ConflictStrategy.TEMPORAL,
        now: datetime | None = None,
    ) -> WriteReceipt:
        return await explicit.remember(
            self.ingestor,
            text,
            namespace=self._ns(namespace),
            category=category,
            source=source,
            strategy=parse_enum(ConflictStrategy, strategy, "conflict strategy"),
            now=now,
        )

    async def status_history(
        self, memory_id: str, *, namespace: str | None = None
    ) -> list[dict[str, Any]]:
        mid = check_text(memory_id, what="id")
        rows = await api_repository.find_status_changes(
            self.graph, namespace=self._ns(namespace), ids=[mid]
        )
        return [r["change"] for r in rows.get(mid, [])]

    async def set_status(
        self,
        memory_id: str,
        status: str,
        *,
        reason: str,
        namespace: str | None = None,
        actor: str = "user",
        now: datetime | None = None,
    ) -> dict[str, Any]:
        """Move a memory to another status (checked against the allowed transitions)."""
        ns = self._ns(namespace)
        new = parse_enum(Status, status, "status")
        row = await repository.get_memory(self.graph, namespace=ns, memory_id=memory_id)
        if row is None:
            raise NotFound(f"no memory {memory_id!r} in namespace {ns!r}")
        check_transition(parse_enum(Status, row["memory"]["status"], "status"), new)
        when = as_utc(now) if now else datetime.now(UTC)
        changed = await repository.set_memory_status(
            self.graph,
            namespace=ns,
            memory_id=memory_id,
            status=str(new),
            reason=check_text(reason, what="reason", limit=1000),
            actor=actor,
            now=when,
            change_id=str(uuid.uuid4()),
        )
        assert changed is not None
        return changed

    async def recall(
        self, query: str, *, namespace: str | None = None, limit: int = 10, **options: Any
    ) -> RecallResult:
        """Recall memories for a query; options: profile, mode, categories, tiers,
        min_confidence, as_of, include_superseded, dry, channels, session_id."""
        request = build_request(query, namespace or self.settings.namespace, limit=limit, **options)
        return await recall(self.graph, self.embedder, self.nlp, request)

    async def stats(self, *, namespace: str | None = None) -> dict[str, Any]:
        return await repository.get_namespace_stats(self.graph, namespace=self._ns(namespace))

    async def server_info(self) -> dict[str, str]:
        row = await repository.get_server_info(self.graph)
        return {k: str(v) for k, v in row.items()}

    async def wipe_namespace(self, namespace: str) -> int:
        from kgmem.validation import check_namespace

        return await repository.delete_namespace(self.graph, namespace=check_namespace(namespace))

    # --- API operations (kgmem/api): browse, page, batch loads, pin, feedback, forget, resolve --
    # Batch loads take many ids and answer in one query, keyed by id, so the API's per-request
    # DataLoaders never make one query per parent (no N+1).

    async def get_memory(self, memory_id: str, *, namespace: str | None = None) -> Row | None:
        row = await repository.get_memory(
            self.graph, namespace=self._ns(namespace), memory_id=_id(memory_id)
        )
        return None if row is None else row["memory"]

    async def memory_page(
        self,
        *,
        namespace: str | None = None,
        statuses: Sequence[str] | None = None,
        categories: Sequence[str] | None = None,
        tiers: Sequence[str] | None = None,
        min_confidence: float = 0.0,
        include_superseded: bool = False,
        after: tuple[datetime, str] | None = None,
        limit: int = 20,
    ) -> list[Row]:
        """Memories newest first after a ``(created_at, id)`` cursor; active ones (and superseded
        with ``include_superseded``) unless ``statuses`` names others."""
        if statuses:
            wanted = sorted({str(parse_enum(Status, s, "status")) for s in statuses})
        else:
            wanted = ["active", "superseded"] if include_superseded else ["active"]
        if not 0.0 <= min_confidence <= 1.0:
            raise InvalidInput(f"min_confidence must be in [0, 1], got {min_confidence}")
        return await api_repository.find_memory_page(
            self.graph,
            namespace=self._ns(namespace),
            statuses=wanted,
            categories=[str(parse_enum(Category, c, "category")) for c in categories]
            if categories
            else None,
            tiers=[str(parse_enum(Tier, t, "tier")) for t in tiers] if tiers else None,
            min_confidence=float(min_confidence),
            after_at=after[0] if after else None,
            after_id=after[1] if after else None,
            limit=check_limit(limit, low=1, high=10_000),
        )

    async def memories_by_id(
        self, ids: Sequence[str], *, namespace: str | None = None
    ) -> list[Row]:
        return await api_repository.find_memories_by_id(
            self.graph, namespace=self._ns(namespace), ids=list(ids)
        )

    async def memory_entities(
        self, ids: Sequence[str], *, namespace: str | None = None
    ) -> dict[str, list[Row]]:
        return await api_repository.find_memory_entities(
            self.graph, namespace=self._ns(namespace), ids=list(ids)
        )

    async def memory_episodes(
        self, ids: Sequence[str], *, namespace: str | None = None
    ) -> dict[str, list[Row]]:
        return await api_repository.find_memory_episodes(
            self.graph, namespace=self._ns(namespace), ids=list(ids)
        )

    async def memory_status_changes(
        self, ids: Sequence[str], *, namespace: str | None = None
    ) -> dict[str, list[Row]]:
        return await api_repository.find_status_changes(
            self.graph, namespace=self._ns(namespace), ids=list(ids)
        )

    async def memory_links(
        self, ids: Sequence[str], *, namespace: str | None = None
    ) -> dict[str, list[Row]]:
        return await api_repository.find_memory_links(
            self.graph, namespace=self._ns(namespace), ids=list(ids)
        )

    async def entity_memories(
        self, ids: Sequence[str], *, namespace: str | None = None, limit: int = 50
    ) -> dict[str, list[Row]]:
        return await api_repository.find_entity_memories(
            self.graph,
            namespace=self._ns(namespace),
            ids=list(ids),
            limit=check_limit(limit, low=1, high=10_000),
        )

    async def entity_links(
        self, ids: Sequence[str], *, namespace: str | None = None
    ) -> dict[str, list[Row]]:
        return await api_repository.find_entity_links(
            self.graph, namespace=self._ns(namespace), ids=list(ids)
        )

    async def get_entity(
        self, *, id: str | None = None, name: str | None = None, namespace: str | None = None
    ) -> Row | None:
        """One entity by id, or by name (matched on its normalised name or an alias)."""
        if (id is None) == (name is None):
            raise InvalidInput("give exactly one of an entity id or an entity name")
        return await api_repository.get_entity(
            self.graph,
            namespace=self._ns(namespace),
            id=_id(id) if id is not None else None,
            normalized=normalize_name(check_text(name, what="name", limit=200))
            if name is not None
            else None,
        )

    async def entities(self, *, namespace: str | None = None, limit: int = 50) -> list[Row]:
        return await repository.find_entities(
            self.graph, namespace=self._ns(namespace), limit=check_limit(limit, high=10_000)
        )

    async def relations(self, *, namespace: str | None = None, limit: int = 50) -> list[Row]:
        return await repository.find_entity_relations(
            self.graph, namespace=self._ns(namespace), limit=check_limit(limit, high=10_000)
        )

    async def timeline(
        self,
        *,
        entity: str | None = None,
        topic: str | None = None,
        namespace: str | None = None,
        limit: int = 50,
    ) -> list[Row]:
        """Memories about an entity (id or name) or a topic in the order they became true,
        superseded ones included so the history shows what replaced what."""
        if (entity is None) == (topic is None):
            raise InvalidInput("give exactly one of an entity or a topic")
        return await api_repository.find_memory_timeline(
            self.graph,
            namespace=self._ns(namespace),
            entity=normalize_name(check_text(entity, what="entity", limit=200))
            if entity is not None
            else None,
            topic=check_text(topic, what="topic", limit=200).lower() if topic is not None else None,
            limit=check_limit(limit, high=10_000),
        )

    async def topics(self, *, namespace: str | None = None, limit: int = 50) -> list[Row]:
        return await topic_repository.find_topics(
            self.graph, namespaces=[self._ns(namespace)], limit=check_limit(limit, high=10_000)
        )

    async def boxes(
        self, *, namespace: str | None = None, status: str | None = None, limit: int = 50
    ) -> list[Row]:
        if status is not None and status not in ("open", "sealed"):
            raise InvalidInput(f"box status must be open or sealed, got {status!r}")
        return await api_repository.find_boxes(
            self.graph,
            namespace=self._ns(namespace),
            status=status,
            limit=check_limit(limit, high=10_000),
        )

    async def traces(self, *, namespace: str | None = None, limit: int = 50) -> list[Row]:
        return await api_repository.find_traces(
            self.graph, namespace=self._ns(namespace), limit=check_limit(limit, high=10_000)
        )

    async def pin(
        self, memory_id: str, pinned: bool = True, *, namespace: str | None = None
    ) -> Row:
        """Pin (or unpin) a memory: pinned memories are exempt from decay and demotion, and a
        contradiction never supersedes them silently."""
        ns = self._ns(namespace)
        row = await api_repository.set_memory_pinned(
            self.graph, namespace=ns, memory_id=_id(memory_id), pinned=pinned, now=datetime.now(UTC)
        )
        if row is None:
            raise NotFound(f"no memory {memory_id!r} in namespace {ns!r}")
        return row

    async def feedback(
        self, memory_id: str, useful: bool, *, namespace: str | None = None
    ) -> tuple[float, float]:
        """Seed 004's utility update after a use of the memory; returns (before, after).

        Read, compute (pure), compare-and-set: a concurrent update makes the write miss, and the
        read is repeated, so no feedback is lost.
        """
        ns = self._ns(namespace)
        mid = _id(memory_id)
        for _ in range(FEEDBACK_ATTEMPTS):
            row = await repository.get_memory(self.graph, namespace=ns, memory_id=mid)
            if row is None:
                raise NotFound(f"no memory {memory_id!r} in namespace {ns!r}")
            before = row["memory"].get("utility")
            before = UTILITY_PRIOR if before is None else float(before)
            after = utility_update(before, bool(useful))
            if await api_repository.set_memory_utility(
                self.graph,
                namespace=ns,
                memory_id=mid,
                previous=before,
                utility=after,
                now=datetime.now(UTC),
            ):
                return before, after
        raise ConcurrentWrite(f"memory {memory_id!r} kept changing; try the feedback again")

    async def forget(
        self,
        memory_id: str,
        *,
        hard: bool = False,
        reason: str = "forgotten on request",
        namespace: str | None = None,
        actor: str = "user",
    ) -> Row:
        """Soft: status ``deleted`` with an audit record (purged later by the lifecycle job).
        Hard: the memory, its edges, its audit records and the episodes only it came from are
        removed now (entity mention counts drop)."""
        ns = self._ns(namespace)
        mid = _id(memory_id)
        if not hard:
            changed = await self.set_status(
                mid, "deleted", reason=reason, namespace=ns, actor=actor
            )
            return {"memory_id": mid, "hard": False, **changed}
        row = await api_repository.delete_memory(self.graph, namespace=ns, memory_id=mid)
        if row is None:
            raise NotFound(f"no memory {memory_id!r} in namespace {ns!r}")
        return {"memory_id": mid, "hard": True, **row}

    async def correct(
        self,
        memory_id: str,
        text: str,
        *,
        namespace: str | None = None,
        actor: str = "user",
        now: datetime | None = None,
    ) -> WriteReceipt:
        """Remember ``text`` as a correction (strategy use_new) that supersedes ``memory_id``.

        The gate may already supersede it (it saw the contradiction); if it did not (the texts
        were too far apart to be compared), the supersession is recorded explicitly, since the
        caller named the memory that is wrong.
        """
        ns = self._ns(namespace)
        mid = _id(memory_id)
        clean = check_text(text, limit=self.settings.max_content_chars)
        row = await repository.get_memory(self.graph, namespace=ns, memory_id=mid)
        if row is None:
            raise NotFound(f"no memory {memory_id!r} in namespace {ns!r}")
        old = row["memory"]
        check_transition(parse_enum(Status, old["status"], "status"), Status.SUPERSEDED)
        if content_hash(clean) == old.get("content_hash"):
            raise InvalidInput("the correction says exactly what the memory already says")
        receipt = await self.remember(
            clean, namespace=ns, category="correction", strategy=ConflictStrategy.USE_NEW, now=now
        )
        if not receipt.memory_id or receipt.memory_id == mid:
            return receipt  # merged into the memory itself (write-time synthesis)
        if receipt.action == "superseded" and mid in receipt.related_ids:
            return receipt
        reason = f"corrected by {receipt.memory_id}"
        await api_repository.supersede_memory(
            self.graph,
            namespace=ns,
            winner_id=receipt.memory_id,
            loser_id=mid,
            reason=reason,
            actor=actor,
            now=as_utc(now) if now else datetime.now(UTC),
            change_id=str(uuid.uuid4()),
        )
        related = (mid, *(r for r in receipt.related_ids if r != mid))
        return WriteReceipt("superseded", receipt.memory_id, reason, related, receipt.entities)

    async def resolve_conflict(
        self,
        keep_id: str,
        drop_id: str,
        *,
        reason: str = "conflict resolved",
        namespace: str | None = None,
        actor: str = "user",
    ) -> Row:
        """Settle a contradiction the ``ask`` strategy kept open: ``drop_id`` is superseded by
        ``keep_id`` (SUPERSEDES edge, valid_until now, audit record, CONTRADICTS resolved)."""
        ns = self._ns(namespace)
        keep, drop = _id(keep_id, "keep id"), _id(drop_id, "drop id")
        if keep == drop:
            raise InvalidInput("keep and drop name the same memory")
        rows = {r["id"]: r for r in await self.memories_by_id([keep, drop], namespace=ns)}
        for mid in (keep, drop):
            if mid not in rows:
                raise NotFound(f"no memory {mid!r} in namespace {ns!r}")
        kept = parse_enum(Status, rows[keep]["status"], "status")
        if kept not in (Status.ACTIVE, Status.CHALLENGED, Status.STALE):
            raise InvalidInput(f"memory {keep!r} is {kept.value}; only a live memory can be kept")
        check_transition(parse_enum(Status, rows[drop]["status"], "status"), Status.SUPERSEDED)
        changed = await api_repository.supersede_memory(
            self.graph,
            namespace=ns,
            winner_id=keep,
            loser_id=drop,
            reason=check_text(reason, what="reason", limit=1000),
            actor=actor,
            now=datetime.now(UTC),
            change_id=str(uuid.uuid4()),
        )
        if changed is None:  # deleted between the read and the write
            raise NotFound(f"memory {drop!r} or {keep!r} is gone from namespace {ns!r}")
        return {"kept": keep, "dropped": drop, **changed}

    # --- export / import (kgmem.transfer) and explain -----------------------------------------

    async def export_graph(
        self,
        path: Path | str,
        *,
        namespace: str | None = None,
        progress: ProgressFn | None = None,
    ) -> TransferReport:
        """Write one namespace (every namespace when None) to a JSONL file, losslessly."""
        return await exporter.export_graph(
            self.graph, Path(path), namespace=namespace, progress=progress
        )

    async def import_graph(
        self,
        path: Path | str,
        *,
        batch_size: int = BATCH_SIZE,
        progress: ProgressFn | None = None,
    ) -> TransferReport:
        """Load a file written by ``export_graph``: validated whole first, then batched and
        idempotent (see ``kgmem.transfer``)."""
        return await importer.import_graph(
            self.graph, Path(path), batch_size=batch_size, progress=progress
        )

    async def explain(
        self, query: str, *, namespace: str | None = None, limit: int = 10, **options: Any
    ) -> Xray:
        """The X-ray of a recall. Dry unless ``dry=False`` is passed: explaining a recall should
        not count as an access to the memories it shows."""
        options.setdefault("dry", True)
        result = await self.recall(query, namespace=namespace, limit=limit, **options)
        return result.xray

    # --- lifecycle: the consolidation job, resume, undo (kgmem/lifecycle) ------------------

    async def consolidate(
        self,
        namespace: str | None = None,
        *,
        steps: Sequence[str] | str | None = None,
        dry_run: bool = False,
        now: datetime | None = None,
        caps: Mapping[str, int] | None = None,
        progress: Callable[[StepReport], None] | None = None,
    ) -> ConsolidationReport:
        """Run the consolidation job ("dream cycle") on a namespace: ``steps`` (default all, see
        ``kgmem.lifecycle.policy.StepName``), bounded by ``caps``, under the namespace's lease;
        ``dry_run`` reports what would change and writes nothing. See
        ``kgmem.lifecycle.consolidate``."""
        from kgmem.lifecycle.consolidate import consolidate

        return await consolidate(
            self.graph,
            self.settings,
            self._ns(namespace),
            steps=steps,
            dry_run=dry_run,
            now=now,
            caps=caps,
            llm=self.llm,
            progress=progress,
        )

    async def resume(
        self,
        namespace: str | None = None,
        *,
        token_budget: int = 3_600,
        recent_hours: float = 24.0,
        now: datetime | None = None,
    ) -> ResumeContext:
        """Seed 002's session-recovery context (core memories, recent changes, topics with
        counts, triggers) within ``token_budget`` approximate tokens. Reads only."""
        from kgmem.lifecycle.consolidate import check_now
        from kgmem.lifecycle.resume import check_budget, resume

        if isinstance(recent_hours, bool) or not isinstance(recent_hours, int | float):
            raise InvalidInput(f"recent_hours must be a number, got {recent_hours!r}")
        if not 0 < recent_hours <= 24 * 365:
            raise InvalidInput(f"recent_hours must be in (0, 8760], got {recent_hours}")
        return await resume(
            self.graph,
            self._ns(namespace),
            check_budget(token_budget),
            check_now(now),
            float(recent_hours),
        )

    async def undo_merge(
        self, merge_id: str, *, namespace: str | None = None, now: datetime | None = None
    ) -> dict[str, Any]:
        """Reverse one consolidation merge (by merge id, merged memory id or theme id)."""
        from kgmem.lifecycle.consolidate import check_now
        from kgmem.lifecycle.undo import undo_merge

        return await undo_merge(
            self.graph, self._ns(namespace), _id(merge_id, "merge id"), check_now(now)
        )

    async def undo_entity_merge(
        self, merge_id: str, *, namespace: str | None = None, now: datetime | None = None
    ) -> dict[str, Any]:
        """Reverse one consolidation entity merge (by merge id or merged entity id)."""
        from kgmem.lifecycle.consolidate import check_now
        from kgmem.lifecycle.undo import undo_entity_merge

        return await undo_entity_merge(
            self.graph, self._ns(namespace), _id(merge_id, "merge id"), check_now(now)
        )


FEEDBACK_ATTEMPTS = 5


def _id(value: object, what: str = "id") -> str:
    return check_text(value, what=what, limit=200)
