"""GraphQL types of a recall: the hits and, with ``explain: true``, the X-ray.

They mirror ``kgmem.recall.results.RecallHit`` and ``kgmem.recall.xray.Xray``: each hit's factor
contributions (they add up to its final score), channel ranks, graph path with edge confidences
and source episodes; dropped candidates with their reason; stage timings; the queries run; and
``raw``, the whole X-ray as one JSON object (``Xray.to_dict()``). A hit's ``memory`` loads through
the request's memory DataLoader, one statement for all hits. A hit of ``kind`` episode is an
observed turn no memory stands for (``kgmem.recall.episode_hits``): its ``memory`` is null.
"""

from __future__ import annotations

from collections.abc import Mapping
from datetime import datetime

import strawberry
from strawberry.scalars import JSON

from kgmem.api.context import Info, resolver
from kgmem.api.types import Memory
from kgmem.recall.results import RecallHit, RecallResult
from kgmem.recall.xray import ChannelEvidence, Dropped, HitExplain, PathStep, Xray


@strawberry.type
class FactorValue:
    factor: str
    value: float


def _factors(values: Mapping[str, float]) -> list[FactorValue]:
    return [FactorValue(factor=k, value=float(v)) for k, v in values.items()]


@strawberry.type(description="One channel's view of a hit: its rank there and raw score.")
class ChannelScore:
    channel: str
    rank: int
    raw_score: float

    @classmethod
    def of(cls, c: ChannelEvidence) -> ChannelScore:
        return cls(channel=c.channel, rank=c.rank, raw_score=c.raw_score)


@strawberry.type(description="A node on the graph path that led to a hit, and the edge into it.")
class PathNode:
    node_id: str
    label: str
    name: str
    edge_type: str | None
    edge_confidence: float | None

    @classmethod
    def of(cls, p: PathStep) -> PathNode:
        return cls(
            node_id=p.node_id,
            label=p.label,
            name=p.name,
            edge_type=p.edge_type,
            edge_confidence=p.edge_confidence,
        )


@strawberry.type(description="Why one hit came back.")
class HitExplanation:
    memory_id: strawberry.ID
    content: str
    final_score: float
    contributions: list[FactorValue] = strawberry.field(
        description="Each factor's share of the final score (they add up to it)."
    )
    factors: list[FactorValue] = strawberry.field(description="Raw factor values before weights.")
    channels: list[ChannelScore]
    path: list[PathNode]
    episodes: list[str]
    valid_from: datetime | None
    valid_until: datetime | None
    status: str
    injection: str | None
    kind: str = strawberry.field(description="memory, or episode: a turn no memory stands for.")

    @classmethod
    def of(cls, h: HitExplain) -> HitExplanation:
        return cls(
            memory_id=strawberry.ID(h.memory_id),
            content=h.content,
            final_score=h.final_score,
            contributions=_factors(h.contributions),
            factors=_factors(h.factors),
            channels=[ChannelScore.of(c) for c in h.channels],
            path=[PathNode.of(p) for p in h.path],
            episodes=list(h.episodes),
            valid_from=h.valid_from,
            valid_until=h.valid_until,
            status=h.status,
            injection=h.injection,
            kind=h.kind,
        )


@strawberry.type(description="A candidate left out of the hits, and why.")
class DroppedCandidate:
    memory_id: strawberry.ID
    content: str
    reason: str
    detail: str
    best_score: float | None

    @classmethod
    def of(cls, d: Dropped) -> DroppedCandidate:
        return cls(
            memory_id=strawberry.ID(d.memory_id),
            content=d.content,
            reason=str(d.reason),
            detail=d.detail,
            best_score=d.best_score,
        )


@strawberry.type
class StageTiming:
    stage: str
    ms: float


@strawberry.type(description="One recall, explained.")
class XrayReport:
    query: str
    intent: str
    sub_queries: list[str]
    hyde: list[str]
    hits: list[HitExplanation]
    all_dropped: strawberry.Private[list[DroppedCandidate]]
    timings: list[StageTiming]
    queries_run: list[str]
    channels: list[str] = strawberry.field(
        description="The searches run: the request's channels, or its intent's."
    )
    raw: JSON = strawberry.field(description="The whole X-ray as one JSON object.")

    @classmethod
    def of(cls, x: Xray) -> XrayReport:
        return cls(
            query=x.query,
            intent=x.intent,
            sub_queries=list(x.sub_queries),
            hyde=list(x.hyde),
            hits=[HitExplanation.of(h) for h in x.hits],
            all_dropped=[DroppedCandidate.of(d) for d in x.dropped],
            timings=[StageTiming(stage=k, ms=float(v)) for k, v in x.timings.items()],
            queries_run=list(x.queries_run),
            channels=list(x.channels),
            raw=JSON(x.to_dict()),
        )

    @resolver(description="Candidates left out of the hits, best first.")
    def dropped(self, info: Info, first: int = 50) -> list[DroppedCandidate]:
        return self.all_dropped[: info.context.page(first)]


@strawberry.type(
    description="One recalled memory, or (kind episode) an observed turn no memory stands for."
)
class Hit:
    ns: strawberry.Private[str]
    kind: str = strawberry.field(
        description="memory, or episode: the turn itself (memoryId is then the episode's id, "
        "turnIds its own turn, category episode), returned when no memory stands for it."
    )
    memory_id: strawberry.ID
    content: str
    score: float
    category: str
    status: str
    injection: str = strawberry.field(description="full, abbreviated or skipped (confidence gate).")
    turn_ids: list[str]
    valid_from: datetime | None
    valid_until: datetime | None
    channels: list[ChannelScore]

    @classmethod
    def of(cls, h: RecallHit, namespace: str) -> Hit:
        return cls(
            ns=namespace,
            kind=h.kind,
            memory_id=strawberry.ID(h.memory_id),
            content=h.content,
            score=h.score,
            category=h.category,
            status=h.status,
            injection=h.injection,
            turn_ids=list(h.turn_ids),
            valid_from=h.valid_from,
            valid_until=h.valid_until,
            channels=[ChannelScore.of(c) for c in h.channels],
        )

    @resolver(description="The whole memory (loaded in one batch for all hits); null for a turn.")
    async def memory(self, info: Info) -> Memory | None:
        if self.kind != "memory":
            return None
        row = await info.context.loaders.memory.load((self.ns, str(self.memory_id)))
        return None if row is None else Memory.of(row, self.ns)


@strawberry.type
class RecallOk:
    namespace: str
    hits: list[Hit]
    skipped: str | None = strawberry.field(
        description="Why no search ran (e.g. a greeting), or null."
    )
    xray: XrayReport | None = strawberry.field(description="Present when explain: true.")

    @classmethod
    def of(cls, result: RecallResult, namespace: str, explain: bool) -> RecallOk:
        return cls(
            namespace=namespace,
            hits=[Hit.of(h, namespace) for h in result.hits],
            skipped=result.skipped,
            xray=XrayReport.of(result.xray) if explain else None,
        )
