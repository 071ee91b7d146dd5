"""Turn gate decisions, scores and entity resolutions into the rows of one write transaction.

Pure. The orchestrator has done all the reading (neighbours, entity candidates, open boxes) and
the models have run; ``plan_writes`` decides every row the graph batch will write — memories to
create, memories to reinforce or update, supersessions with their audit records, memory links,
and (through ``entity_rows``) entities, mentions and typed entity relations with inferred
reverse edges — and the receipt for each candidate; ``box_rows`` adds the boxes and traces.
Nothing is ever dropped silently: a candidate that creates no memory gets a receipt that says
why and names the memory it was folded into.
"""

from __future__ import annotations

import uuid
from collections.abc import Callable, Sequence
from datetime import datetime

from kgmem.core.text import content_hash
from kgmem.ingest.gate.records import GateAction, GateDecision, Neighbour
from kgmem.ingest.link.entities import Resolution
from kgmem.ingest.link.linking import MemoryFeatures, detect_relations
from kgmem.ingest.plan.entity_rows import plan_entities
from kgmem.ingest.plan.reconcile import resolve_batch_refs
from kgmem.ingest.plan.records import Candidate, WritePlan, memory_row
from kgmem.ingest.plan.scoring import WriteScores
from kgmem.records import WriteReceipt
from kgmem.taxonomy import MemoryRelation
from kgmem.taxonomy.relation_tables import MEMORY_REL_TYPE

REINFORCE_STABILITY = 1.1  # a restated fact is rehearsed: modest stability gain


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
    resolve_batch_refs(plan)  # a decision may name an earlier fact of the batch (reconcile)
    plan_entities(plan, candidates, resolutions)
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
