"""``Kgmem``: the in-process memory service (SDK form), owning the graph client and the models.

One object per process (or per app lifespan): it holds the settings, the graph gateway and the
lazily-loaded models, and exposes the operations — ``remember``, ``recall`` and friends — as
async methods that the CLI, the API and notebooks all call. Constructing it does no I/O; use
``async with Kgmem(settings) as km:`` (or ``await km.open()`` / ``await km.close()``).
"""

from __future__ import annotations

import uuid
from collections.abc import Sequence
from datetime import UTC, datetime
from types import TracebackType
from typing import Any

from kgmem.errors import NotFound
from kgmem.graph import repository
from kgmem.graph.client import GraphClient
from kgmem.graph.schema import SchemaReport, apply_schema
from kgmem.ingest import pipeline
from kgmem.ingest.episodes import as_utc
from kgmem.ml.embedder import Embedder
from kgmem.ml.llm import LLMClient
from kgmem.ml.nlp import Nlp
from kgmem.recall.engine import RecallResult, build_request, recall
from kgmem.records import Turn, WriteReceipt
from kgmem.settings import Settings
from kgmem.taxonomy import ConflictStrategy, Status, check_transition, parse_enum
from kgmem.validation import check_namespace, check_text


class Kgmem:
    def __init__(self, settings: Settings | None = None) -> None:
        self.settings = settings or Settings()
        self.graph = GraphClient(self.settings)
        self.embedder = Embedder(self.settings)
        self.nlp = Nlp(self.settings)
        self.llm = LLMClient(self.settings)
        self.ingestor = pipeline.Ingestor(
            self.settings, self.graph, self.embedder, self.nlp, self.llm
        )

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
    ) -> pipeline.ObserveReport:
        """Store turns durably as episodes; extract them when a smart-buffer trigger fires."""
        return await pipeline.observe(
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
    ) -> pipeline.ExtractionReport:
        """Extract every buffered episode now (also resumes after a crash)."""
        return await pipeline.extract_pending(
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
        return await pipeline.remember(
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
        return await repository.get_status_history(
            self.graph, namespace=self._ns(namespace), memory_id=check_text(memory_id, what="id")
        )

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
