"""One batch, one transaction: gate and plan a prepared batch, then write the plan together with
the claim of its episodes (``write_steps``), so the batch lands whole or not at all.

The claim is checked inside the transaction: if another writer extracted any of these episodes
first, the claim count falls short, ``ConcurrentWrite`` rolls everything back and the caller
re-reads what is still pending. A plan that creates memories or entities first takes the
namespace's write lock (``acquire_write_lock``): if a concurrent writer stored one of them after
the plan was read, ``WriteRace`` (a ``ConcurrentWrite``) rolls back the same way and the caller
plans again, so concurrent writes of one memory or entity converge on one node whose counts
sum (the later writers reinforce it) rather than each writing a copy. This lock is kgmem's
uniqueness rule for content identity; a schema constraint cannot state it (see README).
``write_steps`` emits only the steps the plan needs, in the order the queries assume (the lock
first, memories before links, entities before relations, boxes last).
"""

from __future__ import annotations

import time
from datetime import datetime

from kgmem.errors import ConcurrentWrite, WriteRace
from kgmem.graph import repository
from kgmem.graph.client import Row, Step
from kgmem.ingest.extractors.preparation import Prepared
from kgmem.ingest.gate.write_gate import LIVE_STATUSES
from kgmem.ingest.ingestor import Ingestor
from kgmem.ingest.plan.planner import gate_and_plan
from kgmem.ingest.plan.records import WritePlan
from kgmem.ingest.reports import ExtractionReport
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


_LIVE = sorted(LIVE_STATUSES)


def _unraced(rows: list[Row]) -> None:
    """Under the namespace's write lock: nothing this plan creates was stored since it was read."""
    memories, entities = rows[0]["memories"], rows[0]["entities"]
    if memories or entities:
        raise WriteRace(
            f"a concurrent writer stored {len(memories)} of these memories and "
            f"{len(entities)} of these entities first; planning again"
        )


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
    steps = []
    hashes = sorted({m["props"]["content_hash"] for m in plan.memories})
    retiring = sorted({c["loser_id"] for c in plan.changes})
    names = sorted({e["normalized_name"] for e in plan.entities if e.get("is_new")})
    if hashes or names:
        steps.append(
            r.acquire_write_lock(
                namespace=ns,
                hashes=hashes,
                names=names,
                live=_LIVE,
                now=now,
                retiring=retiring,
                check=_unraced,
            )
        )
    steps.append(
        r.claim_episodes(namespace=ns, ids=episode_ids, now=now, engine=engine, check=claimed_all)
    )
    if skips:
        rows = [{"id": s.turn_id, "reasons": list(s.reasons)} for s in skips]
        steps.append(r.skip_episodes(namespace=ns, skips=rows))
    if plan.memories:
        steps.append(
            r.create_memories(namespace=ns, memories=plan.memories, live=_LIVE, retiring=retiring)
        )
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
