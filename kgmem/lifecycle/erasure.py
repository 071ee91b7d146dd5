"""Hard forget's rules: what is erased, and what an entity that outlives the erasure is called.

Contract. A hard forget erases a memory and everything derived from it that would reveal it
(see ``kgmem.service.curation``): the graph read ``find_erasure_scope`` answers which memories go
(:class:`ErasureScope`: the memory, the memories merged into it and those built from any of them)
and, for each entity they mention that other memories still mention, a :class:`SharedEntity`.
Such an entity stays, but a name or alias of it that only the erased memories said would still
tell what they said, so :func:`rename` returns the :class:`EntityNames` to store instead: the
aliases keep only the names a surviving memory's text still says; the name stays when it is
still said, else becomes the first alias still said, else the first way a surviving memory wrote
it (its mention's surface). ``None`` means nothing to change: every name is still said, or no
survivor offers another name (the entity keeps its own; a documented gap: it was resolved to the
survivors' mentions by similarity, so they stand for it under that name). Pure: no I/O.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any

from kgmem.core.text import first_token, normalize_name


@dataclass(frozen=True)
class SharedEntity:
    """An entity the erased memories mention and other memories still mention."""

    id: str
    name: str
    aliases: tuple[str, ...]
    said: frozenset[str]  # of the name and aliases, those a surviving memory's text says
    surfaces: tuple[str, ...]  # how surviving memories wrote it, when they recorded it

    @classmethod
    def of(cls, row: Mapping[str, Any]) -> SharedEntity:
        return cls(
            id=str(row["id"]),
            name=str(row["name"] or ""),
            aliases=tuple(str(a) for a in row.get("aliases") or ()),
            said=frozenset(str(s) for s in row.get("said") or ()),
            surfaces=tuple(str(s) for s in row.get("surfaces") or ()),
        )


@dataclass(frozen=True)
class ErasureScope:
    """What one hard forget erases: ``ids`` (the named memory first) and the entities to keep."""

    memory_id: str
    status: str
    ids: tuple[str, ...]
    shared: tuple[SharedEntity, ...]

    @classmethod
    def of(cls, memory_id: str, row: Mapping[str, Any]) -> ErasureScope:
        return cls(
            memory_id=memory_id,
            status=str(row["status"]),
            ids=tuple(dict.fromkeys(str(i) for i in row["ids"])),
            shared=tuple(SharedEntity.of(e) for e in row.get("shared") or ()),
        )


@dataclass(frozen=True)
class EntityNames:
    """The names to store on an entity that outlives an erasure."""

    id: str
    name: str
    normalized_name: str
    first_token: str
    aliases: tuple[str, ...]
    aliases_norm: tuple[str, ...]
    renamed: bool  # the name itself changed: its name embedding must be computed again

    def params(self) -> dict[str, Any]:
        """The query parameters of the rename (lists, not tuples)."""
        return {
            "id": self.id,
            "name": self.name,
            "normalized_name": self.normalized_name,
            "first_token": self.first_token,
            "aliases": list(self.aliases),
            "aliases_norm": list(self.aliases_norm),
        }


def _distinct(items: Iterable[str]) -> tuple[str, ...]:
    return tuple(dict.fromkeys(i for i in items if i))


def rename(entity: SharedEntity) -> EntityNames | None:
    """The entity's names once the erased memories are gone (None: keep them as they are)."""
    kept = [a for a in entity.aliases if a in entity.said]
    name = entity.name
    if name not in entity.said:
        offered = [*kept, *(s for s in entity.surfaces if normalize_name(s))]
        if not offered:
            return None
        name = offered[0]
    if name == entity.name and len(kept) == len(entity.aliases):
        return None
    aliases = _distinct([*kept, name])
    normalized = normalize_name(name)
    return EntityNames(
        id=entity.id,
        name=name,
        normalized_name=normalized,
        first_token=first_token(normalized),
        aliases=aliases,
        aliases_norm=_distinct(normalize_name(a) for a in aliases),
        renamed=name != entity.name,
    )


def renames(scope: ErasureScope) -> list[EntityNames]:
    return [n for n in (rename(e) for e in scope.shared) if n is not None]
