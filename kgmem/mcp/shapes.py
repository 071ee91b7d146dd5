"""What the MCP tools answer: typed, JSON-ready results built from the service's records.

Contract. Each model is frozen pydantic, so the SDK derives every tool's output schema from it
and a host sees the exact shape it will get. The ``of`` constructors only reshape what
:class:`~kgmem.service.Kgmem` returned (a receipt, a recall, an X-ray, graph rows); nothing here
reads or decides. Write results are receipts: what was stored, under which ids, and why — so an
agent never has to guess whether a write happened. The X-ray is summarised for a model's
context window: each hit's strongest factors and channels, the drops counted by reason with the
best few named, the stage timings.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from datetime import datetime
from typing import Any

from pydantic import BaseModel, ConfigDict

from kgmem.facts import EntityFacts, FactValue
from kgmem.ingest.reports import ObserveReport
from kgmem.recall.results import RecallHit, RecallResult
from kgmem.recall.xray import HitExplain, PathStep, Xray
from kgmem.records import WriteReceipt

TOP_FACTORS = 3  # a hit's "why" names its strongest factors; explain lists them all
DROPPED_SHOWN = 10  # the best-scored drops an explanation names (the rest are only counted)


class Shape(BaseModel):
    model_config = ConfigDict(frozen=True)


class Receipt(Shape):
    """What one write did to one memory."""

    action: str  # created | reinforced | updated | superseded | merged | rejected | ...
    memory_id: str
    reason: str
    related_ids: list[str]
    entities: list[str]

    @classmethod
    def of(cls, r: WriteReceipt) -> Receipt:
        return cls(
            action=r.action,
            memory_id=r.memory_id,
            reason=r.reason,
            related_ids=list(r.related_ids),
            entities=list(r.entities),
        )


class Observed(Shape):
    namespace: str
    episode_ids: list[str]  # every turn is stored as one episode, extracted or not
    new_episodes: int  # a turn sent before is stored once
    trigger: str  # high_signal | max_turns | max_age | flush | buffered
    status: str  # extracted | pending (a worker will extract) | buffered (waits for more turns)
    memories: list[Receipt]  # the memories this call's extraction wrote (status extracted here)
    memory_ids: list[str]  # the memories the turns gave, when a worker extracted them
    turns_without_memory: dict[str, int]  # reason -> turns (too short, nothing stated, ...)

    @classmethod
    def of(cls, report: ObserveReport, namespace: str) -> Observed:
        extraction, outcome = report.extraction, report.outcome
        skips: Counter[str] = Counter()
        for skip in (extraction.skips if extraction else []) or (outcome.skips if outcome else ()):
            skips.update(skip.reasons)
        return cls(
            namespace=namespace,
            episode_ids=list(report.episode_ids),
            new_episodes=report.new_episodes,
            trigger=report.trigger,
            status=report.status,
            memories=[Receipt.of(r) for r in extraction.receipts] if extraction else [],
            memory_ids=list(outcome.memory_ids) if outcome else [],
            turns_without_memory=dict(skips),
        )


class Remembered(Shape):
    namespace: str
    receipt: Receipt


class Hit(Shape):
    id: str
    kind: str  # memory, or episode: a stored turn no memory stands for
    content: str
    score: float
    category: str
    status: str
    valid_from: datetime | None
    valid_until: datetime | None  # set once a newer memory superseded this one
    turn_ids: list[str]
    why: str

    @classmethod
    def of(cls, h: RecallHit, explained: HitExplain | None) -> Hit:
        return cls(
            id=h.memory_id,
            kind=h.kind,
            content=h.content,
            score=round(h.score, 4),
            category=h.category,
            status=h.status,
            valid_from=h.valid_from,
            valid_until=h.valid_until,
            turn_ids=list(h.turn_ids),
            why=_why(h, explained),
        )


def _why(h: RecallHit, explained: HitExplain | None) -> str:
    found = ", ".join(f"{c.channel} #{c.rank}" for c in h.channels) or "no channel"
    if explained is None:
        return f"found by {found}"
    return f"found by {found}; strongest factors {_top(explained.contributions, TOP_FACTORS)}"


def _top(contributions: Mapping[str, float], n: int | None) -> str:
    ranked = sorted(contributions.items(), key=lambda kv: -abs(kv[1]))[:n]
    return ", ".join(f"{k} {v:+.3f}" for k, v in ranked)


class Recalled(Shape):
    namespace: str
    hits: list[Hit]
    skipped: str | None  # why no search ran (a greeting, ...), or null

    @classmethod
    def of(cls, result: RecallResult, namespace: str) -> Recalled:
        explained = {h.memory_id: h for h in result.xray.hits}
        return cls(
            namespace=namespace,
            hits=[Hit.of(h, explained.get(h.memory_id)) for h in result.hits],
            skipped=result.skipped,
        )


class ExplainedHit(Shape):
    id: str
    kind: str
    content: str
    score: float
    status: str
    valid_from: datetime | None
    valid_until: datetime | None
    contributions: str  # every factor's share of the score, largest first (they add up to it)
    channels: list[str]  # "vector #1": each search that found it, and its rank there
    path: str  # the graph path that led to it, with edge confidences ("" if none)


class DroppedHit(Shape):
    id: str
    reason: str  # status | validity | confidence_floor | mmr | limit | superseded | namespace
    detail: str
    best_score: float | None


class Explanation(Shape):
    namespace: str
    query: str
    intent: str
    sub_queries: list[str]
    channels: list[str]  # the searches run
    hits: list[ExplainedHit]
    dropped_by_reason: dict[str, int]
    dropped: list[DroppedHit]  # the best-scored few of them
    timings_ms: dict[str, float]

    @classmethod
    def of(cls, x: Xray, namespace: str) -> Explanation:
        best = sorted(x.dropped, key=lambda d: -(d.best_score or 0.0))[:DROPPED_SHOWN]
        return cls(
            namespace=namespace,
            query=x.query,
            intent=x.intent,
            sub_queries=list(x.sub_queries),
            channels=list(x.channels),
            hits=[
                ExplainedHit(
                    id=h.memory_id,
                    kind=h.kind,
                    content=h.content,
                    score=round(h.final_score, 4),
                    status=h.status,
                    valid_from=h.valid_from,
                    valid_until=h.valid_until,
                    contributions=_top(h.contributions, None),
                    channels=[f"{c.channel} #{c.rank}" for c in h.channels],
                    path=_path(h.path),
                )
                for h in x.hits
            ],
            dropped_by_reason=dict(Counter(str(d.reason) for d in x.dropped)),
            dropped=[
                DroppedHit(
                    id=d.memory_id, reason=str(d.reason), detail=d.detail, best_score=d.best_score
                )
                for d in best
            ],
            timings_ms={k: round(float(v), 2) for k, v in x.timings.items()},
        )


def _path(steps: Sequence[PathStep]) -> str:
    parts: list[str] = []
    for s in steps:
        if s.edge_type is not None:
            confidence = "" if s.edge_confidence is None else f" {s.edge_confidence:.2f}"
            parts.append(f"-[{s.edge_type}{confidence}]->")
        parts.append(f"{s.label}({s.name})")
    return " ".join(parts)


class Forgotten(Shape):
    namespace: str
    memory_id: str
    hard: bool
    status: str | None  # deleted (soft); null when erased
    memories_erased: int
    episodes_deleted: int
    episodes_redacted: int
    entities_deleted: int
    audit_records_deleted: int

    @classmethod
    def of(cls, row: Mapping[str, Any], namespace: str, memory_id: str, hard: bool) -> Forgotten:
        return cls(
            namespace=namespace,
            memory_id=memory_id,
            hard=hard,
            status=None if hard else str(row.get("new")),
            memories_erased=int(row.get("memories") or 0),
            episodes_deleted=int(row.get("episodes") or 0),
            episodes_redacted=int(row.get("episodes_redacted") or 0),
            entities_deleted=int(row.get("entities_deleted") or 0),
            audit_records_deleted=int(row.get("changes") or 0),
        )


class Corrected(Shape):
    namespace: str
    corrected_id: str
    receipt: Receipt


class TimelineEntry(Shape):
    id: str
    content: str
    category: str | None
    status: str | None
    valid_from: datetime | None
    valid_until: datetime | None
    created_at: datetime | None
    superseded_by: list[str]

    @classmethod
    def of(cls, row: Mapping[str, Any]) -> TimelineEntry:
        m = row["memory"]
        return cls(
            id=str(m["id"]),
            content=str(m.get("content") or ""),
            category=_text(m.get("category")),
            status=_text(m.get("status")),
            valid_from=_time(m.get("valid_from")),
            valid_until=_time(m.get("valid_until")),
            created_at=_time(m.get("created_at")),
            superseded_by=[str(i) for i in row.get("superseded_by") or []],
        )


class Timeline(Shape):
    namespace: str
    entries: list[TimelineEntry]  # in the order they became true


class Fact(Shape):
    value: str
    polarity: str  # holds | ended
    memory_id: str
    content: str
    status: str
    valid_from: datetime | None
    valid_until: datetime | None
    superseded_by: list[str]

    @classmethod
    def of(cls, f: FactValue) -> Fact:
        return cls(
            value=f.value,
            polarity=f.polarity,
            memory_id=f.memory_id,
            content=f.content,
            status=f.status,
            valid_from=f.valid_from,
            valid_until=f.valid_until,
            superseded_by=list(f.superseded_by),
        )


class Slot(Shape):
    slot: str  # a claim key: "residence", "preference:milk"
    current: list[Fact]
    history: list[Fact]  # the values before, newest first


class EntityCard(Shape):
    namespace: str
    entity_id: str | None
    name: str | None
    type: str | None
    aliases: list[str]
    mentions: int
    summary: str | None
    facts: list[Slot]

    @classmethod
    def of(cls, row: Mapping[str, Any] | None, facts: EntityFacts, namespace: str) -> EntityCard:
        e = row or {}
        return cls(
            namespace=namespace,
            entity_id=facts.entity_id or _text(e.get("id")),
            name=facts.name or _text(e.get("name")) or facts.subject,
            type=_text(e.get("type")),
            aliases=[str(a) for a in e.get("aliases") or []],
            mentions=int(e.get("mention_count") or 0),
            summary=_text(e.get("summary")),
            facts=[
                Slot(
                    slot=s.slot,
                    current=[Fact.of(f) for f in s.current],
                    history=[Fact.of(f) for f in s.history],
                )
                for s in facts.slots
            ],
        )


class Counts(Shape):
    namespace: str
    nodes: int
    labels: dict[str, int]
    statuses: dict[str, int]  # memories by status
    relationships: dict[str, int]

    @classmethod
    def of(cls, stats: Mapping[str, Any], namespace: str) -> Counts:
        def counts(values: Mapping[str, Any]) -> dict[str, int]:
            return {str(k): int(v) for k, v in sorted(values.items(), key=str)}

        return cls(
            namespace=namespace,
            nodes=int(stats["nodes"]),
            labels=counts(stats["labels"]),
            statuses=counts(stats["statuses"]),
            relationships=counts(stats["relationships"]),
        )


def _text(value: object) -> str | None:
    return None if value is None else str(value)


def _time(value: object) -> datetime | None:
    return value if isinstance(value, datetime) else None
