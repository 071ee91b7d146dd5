"""One batch, one transaction: gate and plan a prepared batch, then write the plan together with
the claim of its episodes (``write_steps``), so the batch lands whole or not at all.

The claim is checked inside the transaction: if another writer extracted any of these episodes
first, the claim count falls short, ``ConcurrentWrite`` rolls everything back and the caller
re-reads what is still pending. ``write_steps`` emits only the steps the plan needs, in the order
the queries assume (memories before links, entities before relations, boxes last).
"""

from __future__ import annotations

import time
from datetime import datetime

from kgmem.errors import ConcurrentWrite
from kgmem.graph import repository
from kgmem.graph.client import Row, Step
from kgmem.ingest.ingestor import ExtractionReport, Ingestor
from kgmem.ingest.planning import gate_and_plan
from kgmem.ingest.preparation import Prepared
from kgmem.ingest.write_plan import WritePlan
from kgmem.records import TurnSkip
from kgmem.taxonomy import ConflictStrategy


async def commit_batch(
    ing: Ingestor,
    ns: str,
    prepared: Prepared,
    strategy: ConflictStrategy,
    now: datetime,
) -> ExtractionReport:
    rep = prepared.report
    turns = prepared.turns
    _, plan = await gate_and_plan(
        ing, ns, prepared.facts, prepared.vectors, turns, strategy, now, rep
    )
    t0 = time.perf_counter()
    steps = write_steps(ns, plan, [t.turn_id or "" for t in turns], prepared.skips, now, rep.engine)
    await ing.graph.write_batch(steps)
    rep.tick("neo4j_write", t0)
    rep.receipts = plan.receipts
    return rep


def write_steps(
    ns: str,
    plan: WritePlan,
    episode_ids: list[str],
    skips: list[TurnSkip],
    now: datetime,
    engine: str,
) -> list[Step]:
    wanted = len(episode_ids)

    def claimed_all(rows: list[Row]) -> None:
        if rows[0]["claimed"] != wanted:
            raise ConcurrentWrite("another worker extracted these turns first; retry")

    r = repository
    steps = [
        r.claim_episodes(namespace=ns, ids=episode_ids, now=now, engine=engine, check=claimed_all)
    ]
    if skips:
        rows = [{"id": s.turn_id, "reasons": list(s.reasons)} for s in skips]
        steps.append(r.skip_episodes(namespace=ns, skips=rows))
    if plan.memories:
        steps.append(r.create_memories(namespace=ns, memories=plan.memories))
    if plan.updates:
        steps.append(r.update_memories(namespace=ns, updates=plan.updates))
    if plan.changes:
        steps.append(r.supersede_memories(namespace=ns, changes=plan.changes))
    if plan.links:
        steps.append(r.link_memories(namespace=ns, links=plan.links))
    if plan.entities or plan.mentions:
        steps.append(r.merge_entities(namespace=ns, entities=plan.entities, mentions=plan.mentions))
    if plan.relations:
        steps.append(r.relate_entities(namespace=ns, relations=plan.relations))
    if plan.memories or plan.updates or plan.changes or plan.links:
        steps.append(r.bump_namespace(namespace=ns, now=now))
    if plan.boxes or plan.members:
        steps.append(
            r.write_boxes(namespace=ns, boxes=plan.boxes, members=plan.members, traces=plan.traces)
        )
    return steps
