"""Turn gate decisions, scores and entity resolutions into the rows of one write transaction.

Pure. The orchestrator has done all the reading (neighbours, entity candidates, open boxes) and
the models have run; ``plan_writes`` decides every row the graph batch will write — memories to
create, memories to reinforce or update, supersessions with their audit records, memory links,
entities, mentions, typed entity relations (with inferred reverse edges), boxes and traces — and
the receipt for each candidate. Nothing is ever dropped silently: a candidate that creates no
memory gets a receipt that says why and names the memory it was folded into.
"""

from __future__ import annotations

import uuid
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from kgmem.ingest.boxes import (
    Box,
    BoxState,
    Trace,
    assign_box,
    thread_trace,
    topics_of,
    trace_overlap,
)
from kgmem.ingest.entities import Resolution
from kgmem.ingest.gate import GateAction, GateDecision, Neighbour
from kgmem.ingest.linking import REINFORCE_DELTA, MemoryFeatures, detect_relations
from kgmem.ingest.normalize import content_hash, normalize_name
from kgmem.ingest.scoring import CAPTURE_STABILITY_BOOST, WriteScores
from kgmem.memory_kind import classify_kind
from kgmem.records import ExtractedFact, WriteReceipt
from kgmem.taxonomy import (
    DEFAULT_MEMORY_TYPE,
    MEMORY_REL_TYPE,
    MemoryRelation,
    RelationType,
    inverse_of,
    parse_enum,
)

REINFORCE_STABILITY = 1.1  # a restated fact is rehearsed: modest stability gain


@dataclass(frozen=True)
class Candidate:
    """One extracted fact ready for the gate, with its embedding and provenance."""

    key: int
    fact: ExtractedFact
    hash: str
    embedding: list[float]
    entities: frozenset[str]  # normalised entity names
    episode_ids: tuple[str, ...]
    session_id: str | None
    at: datetime  # when it was said (the turn's own time)
    source: str


@dataclass
class WritePlan:
    memories: list[dict[str, Any]] = field(default_factory=list)
    updates: list[dict[str, Any]] = field(default_factory=list)
    changes: list[dict[str, Any]] = field(default_factory=list)
    links: list[dict[str, Any]] = field(default_factory=list)
    entities: list[dict[str, Any]] = field(default_factory=list)
    mentions: list[dict[str, Any]] = field(default_factory=list)
    relations: list[dict[str, Any]] = field(default_factory=list)
    boxes: list[dict[str, Any]] = field(default_factory=list)
    members: list[dict[str, Any]] = field(default_factory=list)
    traces: list[dict[str, Any]] = field(default_factory=list)
    receipts: list[WriteReceipt] = field(default_factory=list)
    memory_ids: dict[int, str] = field(default_factory=dict)  # candidate key → memory id


def memory_row(
    c: Candidate, memory_id: str, scores: WriteScores, now: datetime, captured: bool
) -> dict[str, Any]:
    f = c.fact
    stability = scores.stability_multiplier * (CAPTURE_STABILITY_BOOST if captured else 1.0)
    return {
        "id": memory_id,
        "content": f.content,
        "content_hash": c.hash,
        "category": f.category,
        "kind": classify_kind(parse_enum_category(f.category), f.content, f.tags),
        "type": str(DEFAULT_MEMORY_TYPE[parse_enum_category(f.category)]),
        "tier": "working",
        "status": "active",
        "lifecycle_state": "active",
        "verification_state": "user_confirmed" if c.source == "human" else "unverified",
        "policy_class": "durable",
        "importance": scores.importance,
        "priority": scores.priority,
        "confidence": scores.confidence,
        "confidence_tier": scores.confidence_tier,
        "source": c.source,
        "source_trust": scores.source_trust,
        "utility": scores.utility,
        "surprise": scores.surprise,
        "novelty": scores.novelty,
        "stability": stability,  # multiplier on the category's base stability (lifecycle)
        "difficulty": 5.0,
        "storage_strength": 1.0,
        "access_count": 0,
        "repetition_count": 1,
        "created_at": c.at,
        "last_accessed": c.at,
        "modified_at": now,
        "recorded_at": now,
        "valid_from": f.valid_from or c.at,
        "valid_until": f.valid_until,
        "pinned": scores.pinned,
        "immutable": False,
        "flashbulb": scores.flashbulb,
        "valence": f.valence,
        "arousal": f.arousal,
        "emotion": f.emotion,
        "tags": list(f.tags),
        "session_id": c.session_id,
        "embedding": c.embedding,
    }


def parse_enum_category(value: str) -> Any:
    from kgmem.taxonomy import Category

    return parse_enum(Category, value, "category")


def _receipt(
    action: str, memory_id: str, reason: str, related: Sequence[str | None], c: Candidate
) -> WriteReceipt:
    return WriteReceipt(
        action,
        memory_id,
        reason,
        tuple(r for r in related if r),
        tuple(dict.fromkeys(e.name for e in c.fact.entities)),
    )


def plan_writes(
    candidates: Sequence[Candidate],
    decisions: Sequence[GateDecision],
    scores: Sequence[WriteScores],
    captured: frozenset[int],
    resolutions: dict[int, list[Resolution]],
    neighbours: dict[int, list[Neighbour]],
    merged_embeddings: dict[int, list[float]],
    *,
    now: datetime,
    actor: str,
    new_id: Callable[[], str] = lambda: str(uuid.uuid4()),
) -> WritePlan:
    plan = WritePlan()
    for c, d, s in zip(candidates, decisions, scores, strict=True):
        _apply_decision(plan, c, d, s, c.key in captured, merged_embeddings, now, actor, new_id)
    _plan_entities(plan, candidates, resolutions)
    _plan_memory_links(plan, candidates, neighbours)
    return plan


def _apply_decision(
    plan: WritePlan,
    c: Candidate,
    d: GateDecision,
    s: WriteScores,
    captured: bool,
    merged_embeddings: dict[int, list[float]],
    now: datetime,
    actor: str,
    new_id: Callable[[], str],
) -> None:
    target = d.target_id
    if d.action in (GateAction.REINFORCE, GateAction.UPDATE):
        assert target is not None
        update = d.action == GateAction.UPDATE and d.merged_content is not None
        plan.updates.append(
            {
                "id": target,
                "at": c.at,
                "confidence": s.confidence,
                "stability_factor": REINFORCE_STABILITY,
                "content": d.merged_content if update else None,
                "content_hash": content_hash(d.merged_content)
                if update and d.merged_content
                else None,
                "embedding": merged_embeddings.get(c.key) if update else None,
                "episode_ids": list(c.episode_ids),
                "similarity": d.similarity,
            }
        )
        action = "updated" if update else "reinforced"
        plan.memory_ids[c.key] = target
        plan.receipts.append(_receipt(action, target, d.reason, [target], c))
        return
    if d.action == GateAction.SKIP:
        plan.receipts.append(_receipt("skipped", target or "", d.reason, [target], c))
        return
    memory_id = new_id()
    plan.memory_ids[c.key] = memory_id
    row = memory_row(c, memory_id, s, now, captured)
    if d.candidate_is_history:
        row["valid_until"] = d.new_valid_until
    plan.memories.append({"key": c.key, "props": row, "episode_ids": list(c.episode_ids)})
    if d.action == GateAction.CREATE:
        if target is not None and d.relation is not None:  # e.g. a detail beside an immutable one
            plan.links.append(
                {
                    "source_id": memory_id,
                    "target_id": target,
                    "type": MEMORY_REL_TYPE[d.relation],
                    "confidence": c.fact.confidence,
                    "at": now,
                    "reason": d.reason,
                }
            )
        plan.receipts.append(_receipt("created", memory_id, d.reason, [target], c))
        return
    assert target is not None
    if d.action == GateAction.SUPERSEDE:
        winner, loser = (target, memory_id) if d.candidate_is_history else (memory_id, target)
        until = d.new_valid_until if d.candidate_is_history else d.old_valid_until
        plan.changes.append(
            {
                "winner_id": winner,
                "loser_id": loser,
                "valid_until": until or c.at,
                "at": now,
                "confidence": c.fact.confidence,
                "reason": d.reason,
                "actor": actor,
                "change_id": new_id(),
            }
        )
        action = "superseded"
    else:  # FLAG: both kept, the contradiction recorded for resolution (strategy "ask")
        rel = d.relation or MemoryRelation.CONTRADICTS
        plan.links.append(
            {
                "source_id": memory_id,
                "target_id": target,
                "type": MEMORY_REL_TYPE[rel],
                "confidence": c.fact.confidence,
                "at": now,
                "reason": d.reason,
            }
        )
        action = "flagged"
    plan.receipts.append(_receipt(action, memory_id, d.reason, [target], c))


def _plan_entities(
    plan: WritePlan, candidates: Sequence[Candidate], resolutions: dict[int, list[Resolution]]
) -> None:
    seen_entities: set[tuple[str, str]] = set()
    for c in candidates:
        memory_id = plan.memory_ids.get(c.key)
        if memory_id is None:
            continue
        by_norm: dict[str, Resolution] = {}
        for r in resolutions.get(c.key, []):
            by_norm[r.normalized_name] = r
            if (r.entity_id, r.normalized_name) not in seen_entities:
                seen_entities.add((r.entity_id, r.normalized_name))
                plan.entities.append(
                    {
                        "id": r.entity_id,
                        "name": r.surface if r.is_new else r.name,
                        "normalized_name": r.normalized_name,
                        "type": r.type,
                        "first_token": r.normalized_name.split(" ", 1)[0],
                        "at": c.at,
                        "embedding": None,
                    }
                )
            plan.mentions.append(
                {
                    "memory_id": memory_id,
                    "entity_id": r.entity_id,
                    "confidence": c.fact.confidence,
                    "at": c.at,
                    "surface": r.surface,
                    "resolved_by": r.resolved_by,
                }
            )
        for rel in c.fact.relations:
            src = by_norm.get(normalize_name(rel.source))
            dst = by_norm.get(normalize_name(rel.target))
            if src is None or dst is None or src.entity_id == dst.entity_id:
                continue
            rtype = parse_enum(RelationType, rel.type, "relation type")
            base = {
                "confidence": rel.confidence,
                "at": c.at,
                "delta": REINFORCE_DELTA,
                "memory_id": memory_id,
            }
            plan.relations.append(
                {
                    **base,
                    "source_id": src.entity_id,
                    "target_id": dst.entity_id,
                    "type": str(rtype),
                    "inferred": False,
                }
            )
            inverse = inverse_of(rtype)
            if inverse is not None:  # bidirectional types infer their reverse edge (seed 003)
                plan.relations.append(
                    {
                        **base,
                        "source_id": dst.entity_id,
                        "target_id": src.entity_id,
                        "type": str(inverse),
                        "inferred": True,
                    }
                )


def _plan_memory_links(
    plan: WritePlan, candidates: Sequence[Candidate], neighbours: dict[int, list[Neighbour]]
) -> None:
    created = {m["key"] for m in plan.memories}
    feats: dict[str, MemoryFeatures] = {}
    for c in candidates:
        if c.key in created:
            feats[plan.memory_ids[c.key]] = MemoryFeatures(
                plan.memory_ids[c.key], c.fact.content, c.fact.category, c.entities, c.session_id
            )
    existing_pairs = {(link["source_id"], link["target_id"]) for link in plan.links}
    for c in candidates:
        if c.key not in created:
            continue
        me = feats[plan.memory_ids[c.key]]
        others = [f for mid, f in feats.items() if mid < me.id]
        others += [
            MemoryFeatures(n.memory_id, n.content, n.category, frozenset(n.entities))
            for n in neighbours.get(c.key, [])
            if n.memory_id not in feats
        ]
        for link in detect_relations(me, others):
            if (link.source, link.target) in existing_pairs:
                continue
            plan.links.append(
                {
                    "source_id": link.source,
                    "target_id": link.target,
                    "type": MEMORY_REL_TYPE[link.type],
                    "confidence": link.confidence,
                    "at": c.at,
                    "reason": link.reason,
                }
            )


def plan_boxes(
    plan: WritePlan,
    candidates: Sequence[Candidate],
    open_boxes: dict[str, BoxState],
    traces: list[Trace],
    new_id: Callable[[], str] = lambda: str(uuid.uuid4()),
) -> None:
    """Assign each new memory to its session's open box; weave sealed boxes into traces."""
    created = {m["key"] for m in plan.memories}
    state = dict(open_boxes)
    touched: dict[str, BoxState] = {}
    sealed: list[tuple[str, Box]] = []
    for c in candidates:
        if c.key not in created:
            continue
        session = c.session_id or "-"
        memory_id = plan.memory_ids[c.key]
        topics = topics_of(c.fact.content, c.entities)
        box, done = assign_box(state.get(session), memory_id, topics, c.at, new_id=new_id)
        if done is not None:
            sealed.append((session, done))
        state[session] = box
        touched[box.id] = box
        plan.members.append({"memory_id": memory_id, "box_id": box.id, "at": c.at})
    for session, done_box in sealed:
        plan.boxes.append(
            _box_row(
                session,
                done_box.id,
                done_box.topics,
                len(done_box.memory_ids),
                done_box.opened_at,
                done_box.last_at,
                "sealed",
                done_box.sealed_at,
                str(done_box.reason),
            )
        )
        if not done_box.topics:
            continue  # a box with no topics joins no trace
        trace = thread_trace(done_box, traces, new_id=new_id)
        plan.traces.append(
            {
                "id": trace.id,
                "box_id": done_box.id,
                "topics": sorted(trace.topics),
                "at": done_box.sealed_at,
                "overlap": trace_overlap(done_box.topics, trace.topics),
            }
        )
        traces[:] = [t for t in traces if t.id != trace.id] + [trace]
    for session, box_state in state.items():
        if box_state.id in touched:
            plan.boxes.append(
                _box_row(
                    session,
                    box_state.id,
                    box_state.topics,
                    len(box_state.memory_ids),
                    box_state.opened_at,
                    box_state.last_at,
                    "open",
                    None,
                    None,
                )
            )


def _box_row(
    session: str,
    box_id: str,
    topics: frozenset[str],
    count: int,
    opened: datetime,
    last: datetime,
    status: str,
    sealed_at: datetime | None,
    reason: str | None,
) -> dict[str, Any]:
    return {
        "id": box_id,
        "session_id": session,
        "topics": sorted(topics),
        "memory_count": count,
        "opened_at": opened,
        "last_at": last,
        "status": status,
        "sealed_at": sealed_at,
        "seal_reason": reason,
    }
