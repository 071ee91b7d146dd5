"""Runner for the consolidation step that merges duplicated memories (redundancy); contradictions
are settled by :mod:`~kgmem.lifecycle.contradictions.steps`.

Contract: like every runner, it reads, decides with the pure rules of
:mod:`~kgmem.lifecycle.redundancy.rules` and writes all it decided in one transaction. Redundancy
finds near-duplicates with the memory vector index (HNSW; top-k per memory, the same cosine score
GDS kNN gave, no projection) from a bounded window of memories not compared since they were written
or changed to every live memory of the namespace (read in chunks, stopping once it holds more pairs
than the run may decide), and marks the window checked in the step's transaction when no pair was
left over; every merge is written reversibly (MERGED_INTO keeps the merged memory's previous state)
and its id reported for ``undo_merge``.
"""

from __future__ import annotations

import uuid
from collections.abc import Sequence
from typing import Any

from kgmem.core.text import content_hash
from kgmem.core.time import as_utc
from kgmem.core.trust import source_trust
from kgmem.graph import redundancy_repository
from kgmem.graph.client import Row
from kgmem.lifecycle.consolidation.context import StepContext, first_count
from kgmem.lifecycle.records import ACTOR, derived_memory_props
from kgmem.lifecycle.redundancy.rules import (
    Cluster,
    DupMember,
    SimilarPair,
    ThemeSource,
    cosine_from_gds,
    covering_member,
    gds_cutoff,
    mean_embedding,
    plan_clusters,
    theme_category,
    theme_content,
)
from kgmem.taxonomy import Category
from kgmem.taxonomy.category_tables import DEFAULT_MEMORY_TYPE
from kgmem.taxonomy.parsing import parse_enum

THEME_IMPORTANCE = 0.8  # theme-level memories are written at importance 0.8
THEME_SOURCE = "consolidation"
# Rows read from the (all-namespace) vector index per window memory before keeping this
# namespace's top-k: room for other namespaces' copies of a text without missing our own.
VECTOR_CANDIDATES = 100
# Window memories read per vector query; reading stops once a run has more pairs than it may
# decide, so a window full of duplicates costs a few chunks rather than the whole window.
READ_CHUNK = 100


# --- redundancy ------------------------------------------------------------------------------


def _num(row: dict[str, Any], key: str, default: float) -> float:
    value = row.get(key)
    return default if value is None else float(value)


def _member(row: dict[str, Any]) -> DupMember:
    return DupMember(
        id=str(row["id"]),
        utility=_num(row, "utility", 0.5),
        importance=_num(row, "importance", 0.5),
        access_count=int(row.get("access_count") or 0),
        created_at=as_utc(row["created_at"]),
        pinned=bool(row.get("pinned")),
        immutable=bool(row.get("immutable")),
    )


def _source(row: dict[str, Any]) -> ThemeSource:
    return ThemeSource(
        id=str(row["id"]),
        content=str(row.get("content") or ""),
        category=str(row.get("category") or "fact"),
        created_at=as_utc(row["created_at"]),
        embedding=row.get("embedding"),
        entities=tuple(row.get("entities") or ()),
        tags=tuple(row.get("tags") or ()),
        utility=_num(row, "utility", 0.5),
        confidence=_num(row, "confidence", 0.5),
        stability=float(row.get("stability") or 1.0),
        access_count=int(row.get("access_count") or 0),
        repetition_count=int(row.get("repetition_count") or 1),
        valid_from=as_utc(row["valid_from"]) if row.get("valid_from") is not None else None,
    )


def _theme_props(ctx: StepContext, merge_id: str, sources: Sequence[ThemeSource]) -> dict[str, Any]:
    content = theme_content(sources)
    category = parse_enum(Category, theme_category(sources), "category")
    tags = sorted({t for s in sources for t in s.tags} | {"theme"})
    starts = [s.valid_from for s in sources if s.valid_from is not None]
    return derived_memory_props(
        memory_id=str(uuid.uuid4()),
        content=content,
        content_hash=content_hash(content),
        category=category.value,
        memory_type=DEFAULT_MEMORY_TYPE[category].value,
        importance=THEME_IMPORTANCE,
        confidence=max(s.confidence for s in sources),
        source=THEME_SOURCE,
        source_trust=source_trust(THEME_SOURCE),
        tags=tags,
        embedding=mean_embedding(s.embedding for s in sources),
        now=ctx.now,
        valid_from=min(starts) if starts else None,
        utility=max(s.utility for s in sources),
        stability=max(s.stability for s in sources),
        access_count=sum(s.access_count for s in sources),
        repetition_count=sum(s.repetition_count for s in sources),
        theme_merge_id=merge_id,
        theme_of=sorted(s.id for s in sources),
    )


async def run_redundancy(ctx: StepContext) -> None:
    """Near-duplicates (vector index, cosine > 0.9) merge into the higher-utility
    memory; clusters of 5+ into a theme memory that keeps every specific. Reversible.
    Incremental: a run compares only a window of memories not compared since they were
    written or changed (``caps.redundancy_window``) with the whole namespace, and marks them
    checked in the same transaction once every pair they gave was decided."""
    window = ctx.caps.redundancy_window
    unchecked = await redundancy_repository.find_unchecked_memories(
        ctx.graph, namespace=ctx.namespace, limit=window + 1
    )
    checking = unchecked[:window]
    ctx.stat("window", len(checking))
    ctx.report.capped = len(unchecked) > window  # the next run compares the rest
    if not checking:
        return
    rows = await _similar_rows(ctx, checking)
    members = {str(r[k]["id"]): _member(r[k]) for r in rows for k in ("a", "b")}
    pairs = [
        SimilarPair(str(r["a"]["id"]), str(r["b"]["id"]), cosine_from_gds(float(r["similarity"])))
        for r in rows
    ]
    clusters, due = plan_clusters(
        pairs,
        members,
        threshold=ctx.policy.redundancy_similarity,
        cap=ctx.caps.redundancy,
        theme_min=ctx.policy.theme_min_cluster,
    )
    ctx.stat("similar_pairs", due)
    pairs_capped = due > ctx.caps.redundancy
    ctx.report.capped |= pairs_capped
    themes: list[dict[str, Any]] = []
    merges: list[dict[str, Any]] = []
    merge_ids: list[str] = []
    for cluster in clusters:
        merge_id = str(uuid.uuid4())
        survivor, losers = cluster.survivor, cluster.losers
        if cluster.theme:
            got = await redundancy_repository.find_merge_members(
                ctx.graph, namespace=ctx.namespace, ids=list(losers)
            )
            sources = [_source(r) for r in got]
            if len(sources) < 2:
                continue
            props = _theme_props(ctx, merge_id, sources)
            covering = covering_member(sources, props["content"])
            if covering is not None:  # one member already says it all: it survives
                survivor, losers = covering, tuple(s.id for s in sources if s.id != covering)
            else:
                themes.append(
                    {"props": props, "entity_ids": sorted({e for s in sources for e in s.entities})}
                )
                survivor, losers = props["id"], tuple(s.id for s in sources)
        assert survivor is not None
        merge_ids.append(merge_id)
        merges.extend(_merge_row(ctx, merge_id, survivor, loser, cluster) for loser in losers)
    steps = []
    if themes:
        steps.append(
            redundancy_repository.create_theme_memories(namespace=ctx.namespace, themes=themes)
        )
    if merges:
        steps.append(redundancy_repository.merge_memories(namespace=ctx.namespace, merges=merges))
    if not pairs_capped:  # every pair of the window was decided: it need not be compared again
        steps.append(
            redundancy_repository.set_dedup_checked(
                namespace=ctx.namespace, ids=checking, now=ctx.now
            )
        )
    out = await ctx.commit(steps)
    if themes:
        ctx.report.count("themes", len(out[0]) if not ctx.dry_run else len(themes))
    if merges:
        merged = out[1 if themes else 0]
        ctx.report.count("merged", first_count(merged, "merged", len(merges), ctx.dry_run))
        ctx.report.ids["merges"] = merge_ids


async def _similar_rows(ctx: StepContext, checking: list[str]) -> list[Row]:
    """The window's near-duplicate rows, read ``READ_CHUNK`` memories at a time until more
    qualifying pairs are found than one run may decide (max 50 comparisons per
    cycle): the rest of the window could only add pairs the cap leaves over, and no memory is
    marked checked in a capped run, so the next run reads them again."""
    threshold = ctx.policy.redundancy_similarity
    rows: list[Row] = []
    found: set[tuple[str, str]] = set()
    compared = 0
    for start in range(0, len(checking), READ_CHUNK):
        part = checking[start : start + READ_CHUNK]
        got = await redundancy_repository.find_similar_memories(
            ctx.graph,
            namespace=ctx.namespace,
            ids=part,
            top_k=ctx.policy.redundancy_top_k,
            cutoff=gds_cutoff(threshold),
            candidates=VECTOR_CANDIDATES,
            limit=ctx.caps.redundancy * 2 * ctx.policy.redundancy_top_k,
        )
        rows += got
        compared += len(part)
        for r in got:  # the pairs plan_clusters counts: distinct, strictly above the threshold
            a, b = str(r["a"]["id"]), str(r["b"]["id"])
            if a != b and cosine_from_gds(float(r["similarity"])) > threshold:
                found.add((min(a, b), max(a, b)))
        if len(found) > ctx.caps.redundancy:
            break
    ctx.stat("compared", compared)
    return rows


def _merge_row(
    ctx: StepContext, merge_id: str, survivor: str, loser: str, cluster: Cluster
) -> dict[str, Any]:
    kind = "theme" if cluster.theme else "near-duplicate"
    return {
        "merge_id": merge_id,
        "survivor": survivor,
        "loser": loser,
        "similarity": round(cluster.similarity, 6),
        "reason": f"{kind} of {survivor} (cosine {cluster.similarity:.3f})",
        "actor": ACTOR,
        "at": ctx.now,
        "change_id": str(uuid.uuid4()),
    }
