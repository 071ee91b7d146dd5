"""BEAM (dev split) loading for the retrieval benchmark.

Contract: ``load_beam(root)`` reads ``turns/100K_<n>.jsonl`` (one message a line) and the four
``items_<ability>.jsonl`` files into frozen records: ``BeamTurn`` (the BEAM ``id``, role, text,
batch and the batch's ``date``; ``at`` = the date at 00:00 UTC + ``id`` minutes, so turns of one
date keep their id order) grouped into ``Conversation``s, and ``BeamItem``s, one per question,
with the turn ids the gold lists point to as strings (kgmem's ``turn_id``). An event-ordering
item keeps its order as steps (``order``: a step is one id, or several ids the data groups as one
event). Only ``question`` and the id lists are read from an item; answers, rubrics and the
items' turn texts never leave this module. ``split_of`` names a conversation's dev half. Pure
apart from reading the files.
"""

from __future__ import annotations

import json
import os
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, replace
from datetime import UTC, date, datetime, time, timedelta
from pathlib import Path
from typing import Any

from benchmarks.common.paths import BEAM

DEFAULT_DATA = BEAM

ABILITIES = (
    "knowledge_update",
    "contradiction_resolution",
    "temporal_reasoning",
    "event_ordering",
)
# The dev split's two halves, by conversation number (``100K/<n>``).
HALVES: dict[str, frozenset[int]] = {
    "dev 1-5": frozenset(range(1, 6)),
    "dev 6-10": frozenset(range(6, 11)),
}
ALL = "dev (all)"


@dataclass(frozen=True)
class BeamTurn:
    conv: str  # e.g. "100K/1"
    id: int  # BEAM's message id: gapless, chronological within a conversation
    role: str  # user | assistant
    text: str
    batch: int
    day: date  # the batch's date, carried forward

    @property
    def turn_id(self) -> str:
        return str(self.id)

    @property
    def at(self) -> datetime:
        return turn_time(self.day, self.id)


@dataclass(frozen=True)
class Conversation:
    conv: str
    turns: tuple[BeamTurn, ...]

    @property
    def user_turns(self) -> tuple[BeamTurn, ...]:
        return tuple(t for t in self.turns if t.role == "user")

    @property
    def number(self) -> int:
        return conv_number(self.conv)


@dataclass(frozen=True)
class BeamItem:
    """One question; the id fields an ability does not use stay empty."""

    ability: str  # one of ABILITIES
    item_id: str
    conv: str
    question: str
    new_ids: tuple[str, ...] = ()  # knowledge update: the turn(s) with the current value
    old_ids: tuple[str, ...] = ()  # knowledge update: the turn(s) with the outdated value
    clean: bool = False  # knowledge update: answer in the new turn only, old turn first
    first_ids: tuple[str, ...] = ()  # contradiction: one side
    second_ids: tuple[str, ...] = ()  # contradiction: the other side
    order: tuple[tuple[str, ...], ...] = ()  # event ordering: steps in the order they happened
    evidence_ids: tuple[str, ...] = ()  # temporal: the turns the answer needs

    @property
    def evidence(self) -> tuple[str, ...]:
        """Every turn the item points to, de-duplicated, in first-mention order."""
        ids = (
            *self.new_ids,
            *self.old_ids,
            *self.first_ids,
            *self.second_ids,
            *(t for step in self.order for t in step),
            *self.evidence_ids,
        )
        return tuple(dict.fromkeys(ids))


@dataclass(frozen=True)
class Beam:
    conversations: tuple[Conversation, ...]
    items: tuple[BeamItem, ...]


def turn_time(day: date, turn_id: int) -> datetime:
    """The timestamp of a turn: its date at 00:00 UTC plus ``turn_id`` minutes."""
    return datetime.combine(day, time(0, 0), tzinfo=UTC) + timedelta(minutes=turn_id)


def conv_number(conv: str) -> int:
    """``"100K/7"`` → 7."""
    return int(conv.rsplit("/", 1)[1])


def split_of(conv: str) -> str:
    """The dev half a conversation belongs to (a key of ``HALVES``)."""
    n = conv_number(conv)
    return next(name for name, numbers in HALVES.items() if n in numbers)


def _ids(value: Iterable[Any]) -> tuple[str, ...]:
    return tuple(str(v) for v in value)


def _steps(value: Iterable[Any]) -> tuple[tuple[str, ...], ...]:
    """Ordered evidence: a step is an id or a list of ids that happened together."""
    return tuple(_ids(v) if isinstance(v, list) else (str(v),) for v in value)


def parse_turn(row: Mapping[str, Any]) -> BeamTurn:
    return BeamTurn(
        conv=str(row["conv"]),
        id=int(row["id"]),
        role=str(row["role"]),
        text=str(row["content"]),
        batch=int(row["batch"]),
        day=date.fromisoformat(str(row["date"])),
    )


def parse_item(ability: str, row: Mapping[str, Any]) -> BeamItem:
    """One item of an ``items_<ability>.jsonl`` file: its question and its id lists only."""
    base = BeamItem(ability, str(row["item_id"]), str(row["conv"]), str(row["question"]))
    if ability == "knowledge_update":
        return replace(
            base,
            new_ids=_ids(row["new_ids"]),
            old_ids=_ids(row["old_ids"]),
            clean=bool(row["clean"]),
        )
    if ability == "contradiction_resolution":
        return replace(base, first_ids=_ids(row["first_ids"]), second_ids=_ids(row["second_ids"]))
    if ability == "temporal_reasoning":
        return replace(base, evidence_ids=_ids(row["evidence_ids"]))
    if ability == "event_ordering":
        return replace(base, order=_steps(row["ordered_evidence_ids"]))
    raise ValueError(f"unknown BEAM ability: {ability!r}")


def _jsonl(path: Path) -> list[dict[str, Any]]:
    with open(path, encoding="utf-8") as fh:
        return [json.loads(line) for line in fh if line.strip()]


def load_beam(
    root: str | os.PathLike[str] = DEFAULT_DATA, conversations: Sequence[str] | None = None
) -> Beam:
    """The dev split's conversations (in number order) and items (only those of the named
    conversations, ``"100K/3"`` or ``"3"``, when given)."""
    base = Path(root)
    convs = []
    for path in sorted(base.glob("turns/100K_*.jsonl"), key=lambda p: int(p.stem.split("_")[1])):
        turns = tuple(sorted((parse_turn(r) for r in _jsonl(path)), key=lambda t: t.id))
        convs.append(Conversation(turns[0].conv, turns))
    if conversations:
        wanted = {c if "/" in c else f"100K/{c}" for c in conversations}
        convs = [c for c in convs if c.conv in wanted]
    names = {c.conv for c in convs}
    items = tuple(
        item
        for ability in ABILITIES
        for item in (parse_item(ability, r) for r in _jsonl(base / f"items_{ability}.jsonl"))
        if item.conv in names
    )
    return Beam(tuple(convs), items)
