"""GraphQL object types of the memory graph: Memory, Entity, Episode, StatusChange and the
links between memories and between entities (groupings are in ``kgmem.api.groups``).

Each type is built from a service row by ``of(row, namespace)`` and carries its namespace
privately, so nested fields load from the same namespace the parent came from. Nested fields go
through the request's DataLoaders (``kgmem.api.loaders``): asking for the entities of a hundred
memories is one query, not a hundred. Every nested list is a page: ``first`` (default in the
signature, at most ``api_max_page_size``), which the complexity estimate reads from the schema.
Absent graph properties read as null (or an empty list).
An entity's ``facts`` (its attributes from the claims) are typed in ``kgmem.api.fact_types``.
"""

from __future__ import annotations

from datetime import datetime

import strawberry

from kgmem.api.context import Info, resolver
from kgmem.api.fact_types import EntityFactsResult, facts_result
from kgmem.core.browse_records import ChangeFields, EpisodeFields
from kgmem.graph.client import Row


def as_float(row: Row, key: str) -> float | None:
    value = row.get(key)
    return None if value is None else float(value)


def as_int(row: Row, key: str) -> int:
    value = row.get(key)
    return 0 if value is None else int(value)


def as_str(row: Row, key: str) -> str | None:
    value = row.get(key)
    return None if value is None else str(value)


def as_time(row: Row, key: str) -> datetime | None:
    value = row.get(key)
    return value if isinstance(value, datetime) else None


def as_strs(row: Row, key: str) -> list[str]:
    return [str(v) for v in row.get(key) or []]


@strawberry.type(description="What a memory asserts, normalised: subject's slot has value.")
class Claim:
    subject: str
    slot: str = strawberry.field(description='A claim key: "residence", "preference:milk".')
    value: str
    polarity: str = strawberry.field(description="holds, or ended: no longer holds.")
    confidence: float | None

    @classmethod
    def of(cls, row: Row) -> Claim | None:
        if not row.get("claim_slot"):
            return None
        return cls(
            subject=str(row.get("claim_subject") or ""),
            slot=str(row["claim_slot"]),
            value=str(row.get("claim_value") or ""),
            polarity=str(row.get("claim_polarity") or "holds"),
            confidence=as_float(row, "claim_confidence"),
        )


@strawberry.type(description="One atomic memory.")
class Memory:
    ns: strawberry.Private[str]
    id: strawberry.ID
    namespace: str
    content: str
    category: str | None
    kind: str | None
    type: str | None
    tier: str | None
    status: str | None
    importance: float | None
    confidence: float | None
    utility: float | None
    source: str | None
    pinned: bool
    immutable: bool
    flashbulb: bool
    access_count: int
    repetition_count: int
    stability: float | None
    emotion: str | None
    valence: float | None
    arousal: float | None
    tags: list[str]
    session_id: str | None
    verification_state: str | None
    lifecycle_state: str | None
    policy_class: str | None
    versions: list[str] = strawberry.field(description="Earlier texts of an updated memory.")
    created_at: datetime | None
    modified_at: datetime | None
    last_accessed: datetime | None
    valid_from: datetime | None
    valid_until: datetime | None
    recorded_at: datetime | None
    claim: Claim | None = strawberry.field(description="What it asserts, when it has a claim.")

    @classmethod
    def of(cls, row: Row, namespace: str) -> Memory:
        return cls(
            ns=namespace,
            id=strawberry.ID(str(row["id"])),
            namespace=str(row.get("namespace") or namespace),
            content=str(row.get("content") or ""),
            category=as_str(row, "category"),
            kind=as_str(row, "kind"),
            type=as_str(row, "type"),
            tier=as_str(row, "tier"),
            status=as_str(row, "status"),
            importance=as_float(row, "importance"),
            confidence=as_float(row, "confidence"),
            utility=as_float(row, "utility"),
            source=as_str(row, "source"),
            pinned=bool(row.get("pinned")),
            immutable=bool(row.get("immutable")),
            flashbulb=bool(row.get("flashbulb")),
            access_count=as_int(row, "access_count"),
            repetition_count=as_int(row, "repetition_count"),
            stability=as_float(row, "stability"),
            emotion=as_str(row, "emotion"),
            valence=as_float(row, "valence"),
            arousal=as_float(row, "arousal"),
            tags=as_strs(row, "tags"),
            session_id=as_str(row, "session_id"),
            verification_state=as_str(row, "verification_state"),
            lifecycle_state=as_str(row, "lifecycle_state"),
            policy_class=as_str(row, "policy_class"),
            versions=as_strs(row, "versions"),
            created_at=as_time(row, "created_at"),
            modified_at=as_time(row, "modified_at"),
            last_accessed=as_time(row, "last_accessed"),
            valid_from=as_time(row, "valid_from"),
            valid_until=as_time(row, "valid_until"),
            recorded_at=as_time(row, "recorded_at"),
            claim=Claim.of(row),
        )

    @resolver(description="The entities this memory mentions.")
    async def entities(self, info: Info, first: int = 10) -> list[Entity]:
        first = info.context.page(first)
        rows = await info.context.loaders.memory_entities.load((self.ns, str(self.id)))
        return [Entity.of(r["entity"], self.ns) for r in rows[:first]]

    @resolver(description="The observed turns this memory was extracted from.")
    async def episodes(self, info: Info, first: int = 10) -> list[Episode]:
        first = info.context.page(first)
        rows = await info.context.loaders.memory_episodes.load((self.ns, str(self.id)))
        return [Episode.of(r.episode) for r in rows[:first]]

    @resolver(description="Every status change of this memory, oldest first.")
    async def status_history(self, info: Info, first: int = 20) -> list[StatusChange]:
        first = info.context.page(first)
        rows = await info.context.loaders.memory_history.load((self.ns, str(self.id)))
        return [StatusChange.of(r.change) for r in rows[:first]]

    @resolver(description="Edges to other memories (SUPERSEDES, CONTRADICTS, ...).")
    async def links(self, info: Info, first: int = 20) -> list[MemoryLink]:
        first = info.context.page(first)
        rows = await info.context.loaders.memory_links.load((self.ns, str(self.id)))
        return [MemoryLink.of(r, self.ns) for r in rows[:first]]

    @resolver(description="Ids of the memories that superseded this one.")
    async def superseded_by(self, info: Info) -> list[strawberry.ID]:
        rows = await info.context.loaders.memory_links.load((self.ns, str(self.id)))
        return [
            strawberry.ID(r["other"]["id"])
            for r in rows
            if r["type"] == "SUPERSEDES" and r["direction"] == "in"
        ]


@strawberry.type(description="An edge between two memories, seen from one of them.")
class MemoryLink:
    type: str
    direction: str = strawberry.field(description="out: from this memory; in: towards it.")
    confidence: float | None
    count: int | None
    resolved: bool | None
    created_at: datetime | None
    memory: Memory

    @classmethod
    def of(cls, row: Row, namespace: str) -> MemoryLink:
        return cls(
            type=str(row["type"]),
            direction=str(row["direction"]),
            confidence=as_float(row, "confidence"),
            count=row.get("count"),
            resolved=row.get("resolved"),
            created_at=as_time(row, "created_at"),
            memory=Memory.of(row["other"], namespace),
        )


@strawberry.type(description="A person, organisation, place, product, concept or event.")
class Entity:
    ns: strawberry.Private[str]
    id: strawberry.ID
    namespace: str
    name: str
    normalized_name: str | None
    type: str | None
    aliases: list[str]
    mention_count: int
    summary: str | None
    created_at: datetime | None

    @classmethod
    def of(cls, row: Row, namespace: str) -> Entity:
        return cls(
            ns=namespace,
            id=strawberry.ID(str(row["id"])),
            namespace=namespace,
            name=str(row.get("name") or ""),
            normalized_name=as_str(row, "normalized_name"),
            type=as_str(row, "type"),
            aliases=as_strs(row, "aliases"),
            mention_count=as_int(row, "mention_count"),
            summary=as_str(row, "summary"),
            created_at=as_time(row, "created_at"),
        )

    @resolver(description="Memories that mention this entity, newest first.")
    async def memories(self, info: Info, first: int = 20) -> list[Memory]:
        first = info.context.page(first)
        rows = await info.context.loaders.entity_memories.load((self.ns, str(self.id)))
        return [Memory.of(r["memory"], self.ns) for r in rows[:first]]

    @resolver(
        description="The entity's current attributes from its memories' claims (one read), "
        "each with the superseded values before it; slot keeps one claim family or key."
    )
    async def facts(self, info: Info, slot: str | None = None) -> EntityFactsResult:
        subject = self.normalized_name or self.name
        return await facts_result(info.context.km, subject, slot, self.ns)

    @resolver(description="Typed relations to other entities, strongest first.")
    async def relations(self, info: Info, first: int = 20) -> list[EntityRelation]:
        first = info.context.page(first)
        rows = await info.context.loaders.entity_links.load((self.ns, str(self.id)))
        return [EntityRelation.of(r, self.ns) for r in rows[:first]]


@strawberry.type(description="A typed relation seen from one of its entities.")
class EntityRelation:
    type: str
    direction: str
    confidence: float | None
    count: int | None
    inferred: bool | None
    last_reinforced_at: datetime | None
    entity: Entity

    @classmethod
    def of(cls, row: Row, namespace: str) -> EntityRelation:
        return cls(
            type=str(row["type"]),
            direction=str(row["direction"]),
            confidence=as_float(row, "confidence"),
            count=row.get("count"),
            inferred=row.get("inferred"),
            last_reinforced_at=as_time(row, "last_reinforced_at"),
            entity=Entity.of(row["other"], namespace),
        )


@strawberry.type(description="A raw observed turn, stored before any extraction.")
class Episode:
    id: strawberry.ID
    session_id: str | None
    role: str | None
    speaker: str | None
    text: str
    at: datetime | None
    turn_id: str | None
    extracted: bool | None
    recorded_at: datetime | None

    @classmethod
    def of(cls, row: EpisodeFields) -> Episode:
        return cls(
            id=strawberry.ID(row.id),
            session_id=row.session_id,
            role=row.role,
            speaker=row.speaker,
            text=row.text,
            at=row.at,
            turn_id=row.turn_id,
            extracted=row.extracted,
            recorded_at=row.recorded_at,
        )


@strawberry.type(description="One audited status transition.")
class StatusChange:
    old: str | None
    new: str
    reason: str | None
    actor: str | None
    at: datetime | None
    related_id: str | None

    @classmethod
    def of(cls, row: ChangeFields) -> StatusChange:
        return cls(
            old=row.old,
            new=row.new,
            reason=row.reason,
            actor=row.actor,
            at=row.at,
            related_id=row.related_id,
        )
