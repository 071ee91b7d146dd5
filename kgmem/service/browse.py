"""The service's browsing reads for the API: one record, a page, or batch loads keyed by id.

Contract. Every method reads only, checks its namespace, ids and limits, and answers with graph
rows. Batch loads take many ids and answer in one query, keyed by id, so the API's per-request
DataLoaders never make one query per parent (no N+1). ``memory_page`` pages newest first after a
``(created_at, id)`` cursor; ``get_entity`` and ``timeline`` take exactly one of their two keys;
``entity_facts`` reads an entity's attributes from its memories' claims (``kgmem.facts``).
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime

from kgmem.core.browse_records import (
    BoxRecord,
    ChangeFields,
    MemoryEpisode,
    RelationRecord,
    StatusChangeRecord,
    TopicRecord,
    TraceRecord,
)
from kgmem.core.text import normalize_name
from kgmem.core.validation import check_limit, check_text
from kgmem.errors import InvalidInput, NotFound
from kgmem.facts import EntityFacts, check_slot, entity_facts
from kgmem.graph import api_repository, repository, topic_repository
from kgmem.graph.client import Row
from kgmem.service.core import ServiceCore, check_id
from kgmem.taxonomy import Category, Status, Tier
from kgmem.taxonomy.parsing import parse_enum


class BrowseOps(ServiceCore):
    """Browsing the graph: memories, entities, topics, boxes, traces."""

    async def get_memory(self, memory_id: str, *, namespace: str | None = None) -> Row | None:
        row = await repository.get_memory(
            self.graph, namespace=self._ns(namespace), memory_id=check_id(memory_id)
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
    ) -> dict[str, list[MemoryEpisode]]:
        return await api_repository.find_memory_episodes(
            self.graph, namespace=self._ns(namespace), ids=list(ids)
        )

    async def memory_status_changes(
        self, ids: Sequence[str], *, namespace: str | None = None
    ) -> dict[str, list[StatusChangeRecord]]:
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
            id=check_id(id) if id is not None else None,
            normalized=normalize_name(check_text(name, what="name", limit=200))
            if name is not None
            else None,
        )

    async def entities(self, *, namespace: str | None = None, limit: int = 50) -> list[Row]:
        return await repository.find_entities(
            self.graph, namespace=self._ns(namespace), limit=check_limit(limit, high=10_000)
        )

    async def relations(
        self, *, namespace: str | None = None, limit: int = 50
    ) -> list[RelationRecord]:
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

    async def entity_facts(
        self,
        entity: str,
        *,
        slot: str | None = None,
        namespace: str | None = None,
        limit: int = 500,
    ) -> EntityFacts:
        """An entity's current attributes from its memories' claims, slot by slot, each with
        the superseded values before it (one read). ``entity`` is an id, name or alias;
        ``slot`` keeps one claim family or key. ``NotFound`` when neither an entity nor a claim
        subject of that name exists."""
        subject = normalize_name(check_text(entity, what="entity", limit=200)) or entity.strip()
        row = await api_repository.find_entity_facts(
            self.graph,
            namespace=self._ns(namespace),
            entity=subject,
            slot=check_slot(slot),
            limit=check_limit(limit, high=10_000),
        )
        if row["entity"] is None and not row["claims"]:
            raise NotFound(f"no entity or claim subject {entity!r}")
        claims = row["claims"]
        return entity_facts(subject, row["entity"], claims, self.settings.claim_min_confidence)

    async def topics(self, *, namespace: str | None = None, limit: int = 50) -> list[TopicRecord]:
        return await topic_repository.find_topics(
            self.graph, namespaces=[self._ns(namespace)], limit=check_limit(limit, high=10_000)
        )

    async def boxes(
        self, *, namespace: str | None = None, status: str | None = None, limit: int = 50
    ) -> list[BoxRecord]:
        if status is not None and status not in ("open", "sealed"):
            raise InvalidInput(f"box status must be open or sealed, got {status!r}")
        return await api_repository.find_boxes(
            self.graph,
            namespace=self._ns(namespace),
            status=status,
            limit=check_limit(limit, high=10_000),
        )

    async def traces(self, *, namespace: str | None = None, limit: int = 50) -> list[TraceRecord]:
        return await api_repository.find_traces(
            self.graph, namespace=self._ns(namespace), limit=check_limit(limit, high=10_000)
        )

    async def status_history(
        self, memory_id: str, *, namespace: str | None = None
    ) -> list[ChangeFields]:
        mid = check_text(memory_id, what="id")
        rows = await api_repository.find_status_changes(
            self.graph, namespace=self._ns(namespace), ids=[mid]
        )
        return [r.change for r in rows.get(mid, [])]
