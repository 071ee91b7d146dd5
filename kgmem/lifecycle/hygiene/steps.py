"""Runners for the steps that restructure and measure the graph: entities (merges by name and by
name embedding, edge decay, relation pruning) and centrality (the topics runner is in
:mod:`~kgmem.lifecycle.topics.steps`).

Contract: like every runner, each one reads (GDS runs on a throw-away projection of the
namespace, dropped afterwards), decides with the pure rules (:mod:`~kgmem.lifecycle.hygiene.rules`)
and writes all it decided in one transaction. Entity merges are written reversibly and their ids
reported for ``undo_entity_merge``. kNN and PageRank run single-threaded (OpenGDS allows up to 4)
with fixed seeds, so the same graph gives the same pairs and scores, which is what makes a
second run a no-op.
"""

from __future__ import annotations

import uuid
from datetime import timedelta
from typing import Any

from kgmem.core.time import as_utc
from kgmem.graph import hygiene_repository, topic_repository
from kgmem.graph.client import Row
from kgmem.lifecycle.consolidation.context import StepContext, first_count
from kgmem.lifecycle.hygiene.rules import (
    EdgeState,
    EntityRecord,
    LinkRow,
    SimilarEntities,
    decay_edge,
    plan_entity_merges,
    prune_victims,
)
from kgmem.lifecycle.records import ACTOR
from kgmem.lifecycle.redundancy.rules import cosine_from_gds, gds_cutoff
from kgmem.taxonomy import MemoryRelation
from kgmem.taxonomy.parsing import parse_enum
from kgmem.taxonomy.relation_tables import MEMORY_REL_PRUNE_PRIORITY, MEMORY_REL_TYPE

CENTRALITY_DIGITS = 6  # PageRank written rounded, so float noise is not a "change"


# --- entities and edges ----------------------------------------------------------------------


def _entity(row: dict[str, Any]) -> EntityRecord:
    created = row.get("created_at")
    return EntityRecord(
        id=str(row["id"]),
        name=str(row.get("name") or ""),
        normalized_name=str(row.get("normalized_name") or ""),
        type=str(row.get("type") or "other"),
        aliases_norm=tuple(row.get("aliases_norm") or ()),
        mention_count=int(row.get("mention_count") or 0),
        created_at=as_utc(created) if created is not None else None,
        distinct_from=tuple(str(x) for x in row.get("distinct_from") or ()),
    )


async def _similar_entities(ctx: StepContext) -> list[SimilarEntities]:
    """Entity pairs whose name embeddings are close: GDS kNN (topK bounded, one thread and a
    fixed seed, so the same graph gives the same pairs) on a projection of the namespace's
    embedded entities."""
    p = ctx.policy
    if p.entity_similarity >= 1.0:  # the embedding rule is off
        return []
    async with ctx.projection("entities") as name:
        proj = await hygiene_repository.project_entity_graph(
            ctx.graph, name=name, namespace=ctx.namespace
        )
        nodes = int(proj["nodes"] or 0)  # null: no entity has an embedding, nothing projected
        ctx.stat("entities_embedded", nodes)
        if nodes < 2:
            return []
        rows = await hygiene_repository.find_similar_entities(
            ctx.graph,
            name=name,
            namespace=ctx.namespace,
            top_k=min(p.entity_similarity_top_k, nodes - 1),
            cutoff=gds_cutoff(p.entity_similarity),
            limit=ctx.caps.entity_merges * 20,
        )
    return [
        SimilarEntities(_entity(r["a"]), _entity(r["b"]), cosine_from_gds(float(r["similarity"])))
        for r in rows
    ]


async def run_entities(ctx: StepContext) -> None:
    """Merge fragmented entities (reversibly) — same name or alias, or name
    embeddings above the policy's threshold — decay unreinforced edges, prune memory links
    above the relation cap."""
    p = ctx.policy
    dup_rows = await hygiene_repository.find_entity_duplicates(
        ctx.graph, namespace=ctx.namespace, limit=ctx.caps.entity_merges * 20
    )
    similar = await _similar_entities(ctx)
    ctx.stat("similar_entity_pairs", len(similar))
    plan, due = plan_entity_merges(
        [(_entity(r["a"]), _entity(r["b"])) for r in dup_rows],
        ctx.caps.entity_merges,
        similar,
        p.entity_similarity,
    )
    ctx.report.capped = due > len(plan)
    merges: list[dict[str, Any]] = [
        {
            "merge_id": str(uuid.uuid4()),
            "canonical": m.canonical,
            "loser": m.loser,
            "reason": m.reason,
            "rule": m.rule,
            "confidence": m.similarity,
            "actor": ACTOR,
        }
        for m in plan
    ]
    before = ctx.now - timedelta(days=p.edge_decay_grace_days + p.edge_decay_window_days)
    edge_rows = await hygiene_repository.find_decaying_edges(
        ctx.graph,
        namespace=ctx.namespace,
        before=before,
        floor=p.edge_decay_floor,
        limit=ctx.caps.batch,
    )
    decays = []
    for r in edge_rows:
        anchor = r.get("decay_anchor")
        state = EdgeState(
            str(r["edge"]),
            float(r["confidence"]),
            as_utc(r["anchor"]),
            as_utc(anchor) if anchor is not None else None,
            int(r["decay_windows"]),
        )
        d = decay_edge(state, ctx.now, p)
        if d is not None:
            decays.append(
                {
                    "edge": d.edge,
                    "old": d.old,
                    "confidence": d.confidence,
                    "anchor": d.anchor,
                    "windows": d.windows,
                }
            )
    ctx.report.capped |= len(edge_rows) >= ctx.caps.batch
    victims: list[str] = []
    if p.relation_cap > 0:
        total = await hygiene_repository.get_memory_link_count(ctx.graph, namespace=ctx.namespace)
        ctx.stat("memory_links", total)
        if total > p.relation_cap:
            priorities = {
                MEMORY_REL_TYPE[rel]: rank
                for rel, rank in MEMORY_REL_PRUNE_PRIORITY.items()
                if rank is not None
            }
            link_rows = await hygiene_repository.find_prunable_links(
                ctx.graph,
                namespace=ctx.namespace,
                priorities=priorities,
                limit=min(total - p.relation_target, ctx.caps.batch),
            )
            links = [
                LinkRow(
                    str(r["edge"]),
                    parse_enum(MemoryRelation, r["type"], "memory relation"),
                    float(r["confidence"]),
                    str(r["source"]),
                    str(r["target"]),
                )
                for r in link_rows
            ]
            victims, link_due = prune_victims(
                total, links, p.relation_cap, p.relation_target, ctx.caps.batch
            )
            ctx.report.capped |= link_due > len(victims)
    steps = []
    # decay first: a merge then copies an edge's decayed confidence, not the stale one
    if decays:
        steps.append(
            hygiene_repository.decay_edge_confidences(
                namespace=ctx.namespace, decays=decays, now=ctx.now
            )
        )
    if merges:
        steps.append(
            hygiene_repository.merge_entity_duplicates(
                namespace=ctx.namespace, merges=merges, now=ctx.now
            )
        )
    if victims:
        steps.append(hygiene_repository.delete_memory_links(namespace=ctx.namespace, edges=victims))
    out = await ctx.commit(steps)
    i = 0
    if decays:
        ctx.report.count("edges_decayed", first_count(out[i], "decayed", len(decays), ctx.dry_run))
        i += 1
    if merges:
        ctx.report.count("entities_merged", first_count(out[i], "merged", len(merges), ctx.dry_run))
        ctx.report.ids["entity_merges"] = [m["merge_id"] for m in merges]
        for planned in plan:
            ctx.stat(f"merged_by:{planned.rule}")
        i += 1
    if victims:
        ctx.report.count("links_pruned", first_count(out[i], "deleted", len(victims), ctx.dry_run))


# --- centrality ---------------------------------------------------------------------


async def run_centrality(ctx: StepContext) -> None:
    """The PageRank, over the memory–entity graph weighted by edge confidence, written
    back as ``Memory.centrality`` on the server (rounded; only the values that changed), so no
    score travels through Python."""
    digits, tolerance = CENTRALITY_DIGITS, 10.0**-CENTRALITY_DIGITS
    async with ctx.projection("centrality") as name:
        proj = await topic_repository.project_topic_graph(
            ctx.graph, name=name, namespace=ctx.namespace
        )
        ctx.stat("projected", int(proj["nodes"]))
        if int(proj["relationships"]) == 0:
            return
        if ctx.dry_run:  # the same PageRank, rounding and tolerance, counted rather than written
            due = await topic_repository.get_centrality_changes(
                ctx.graph, name=name, namespace=ctx.namespace, digits=digits, tolerance=tolerance
            )
            ctx.report.count("centrality_updated", due)
            return
        # PageRank runs once: the write touches only the values that moved, and the namespace
        # version advances only when one did (an unchanged graph leaves recall's projection valid)
        out = await ctx.commit(
            [
                topic_repository.set_memory_centrality(
                    name=name,
                    namespace=ctx.namespace,
                    digits=digits,
                    tolerance=tolerance,
                )
            ],
            changed=_centrality_updated,
        )
    ctx.report.count("centrality_updated", _updated(out[0]))


def _updated(rows: list[Row]) -> int:
    return int(rows[0]["updated"]) if rows else 0


def _centrality_updated(out: list[list[Row]]) -> bool:
    return _updated(out[0]) > 0
