"""An entity's facts: its current attributes from the claims of its memories, with their history.

Contract. :func:`entity_facts` turns one ``find_entity_facts`` read (the entity, if one matched,
and the memories whose claim subject it is, newest first) into an :class:`EntityFacts`: one
:class:`SlotFacts` per claim key ("residence", "preference:milk"), whose ``current`` values are
the live memories' (active, stale, challenged; a value with polarity "ended" says the attribute
no longer holds) and whose ``history`` holds the superseded values, each naming the memories that
superseded it, newest first. Slots come in key order. A claim below ``min_confidence`` (the
write gate's ``claim_min_confidence``) is left out: it is a guess kgmem does not act on, so it
is no attribute to show either. :func:`check_slot` validates a slot filter
against the claim vocabulary (``taxonomy.slots``). Pure: no I/O.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from kgmem.core.time import as_utc
from kgmem.errors import InvalidInput
from kgmem.taxonomy.slots import Slot, is_multi_valued, parse_slot_key

LIVE = frozenset({"active", "stale", "challenged"})


@dataclass(frozen=True)
class FactValue:
    """One asserted value of a slot, and the memory that asserts it."""

    value: str
    polarity: str  # holds | ended
    memory_id: str
    content: str
    status: str
    confidence: float | None
    valid_from: datetime | None
    valid_until: datetime | None
    superseded_by: tuple[str, ...] = ()


@dataclass(frozen=True)
class SlotFacts:
    """A claim key's current values and the superseded ones before them (newest first)."""

    slot: str
    multi_valued: bool
    current: tuple[FactValue, ...]
    history: tuple[FactValue, ...]


@dataclass(frozen=True)
class EntityFacts:
    """What kgmem holds true about one entity now, slot by slot."""

    subject: str  # the entity as asked for (normalised name or id)
    entity_id: str | None
    name: str | None
    slots: tuple[SlotFacts, ...]


def check_slot(slot: str | None) -> str | None:
    """A slot filter: a claim family ("preference") or key ("preference:milk"), or None."""
    if slot is None:
        return None
    key = slot.strip().lower()
    if not key or parse_slot_key(key) is None:
        raise InvalidInput(f"slot must be one of {sorted(s.value for s in Slot)}, got {slot!r}")
    return key


def _dt(value: Any) -> datetime | None:
    return None if value is None else as_utc(value)


def _value(row: Mapping[str, Any]) -> FactValue:
    conf = row.get("claim_confidence")
    return FactValue(
        value=str(row.get("claim_value") or ""),
        polarity=str(row.get("claim_polarity") or "holds"),
        memory_id=str(row["id"]),
        content=str(row.get("content") or ""),
        status=str(row.get("status") or "active"),
        confidence=None if conf is None else float(conf),
        valid_from=_dt(row.get("valid_from") or row.get("created_at")),
        valid_until=_dt(row.get("valid_until")),
        superseded_by=tuple(sorted(str(i) for i in row.get("superseded_by") or ())),
    )


def entity_facts(
    subject: str,
    entity: Mapping[str, Any] | None,
    claims: Sequence[Mapping[str, Any]],
    min_confidence: float = 0.0,
) -> EntityFacts:
    """The read's rows as slots: ``claims`` come newest first and keep that order per slot."""
    by_slot: dict[str, list[FactValue]] = {}
    for row in claims:
        sure = float(row.get("claim_confidence") or 0.0) >= min_confidence
        if row.get("claim_slot") and sure:
            by_slot.setdefault(str(row["claim_slot"]), []).append(_value(row))
    slots = []
    for key in sorted(by_slot):
        values = by_slot[key]
        parsed = parse_slot_key(key)
        slots.append(
            SlotFacts(
                slot=key,
                multi_valued=parsed is not None and is_multi_valued(parsed[0]),
                current=tuple(v for v in values if v.status in LIVE),
                history=tuple(v for v in values if v.status not in LIVE),
            )
        )
    return EntityFacts(
        subject=subject,
        entity_id=None if entity is None else str(entity["id"]),
        name=None if entity is None else entity.get("name"),
        slots=tuple(slots),
    )
