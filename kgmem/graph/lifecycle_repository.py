"""Gateway functions for the lifecycle: one per lifecycle catalog query, same name, plain dicts.

Reads (``get_``/``find_``) run on their own; writes that belong to one consolidation step are
returned as :class:`~kgmem.graph.client.Step` objects so the step runs them together in one
transaction (``GraphClient.write_batch``): a step either lands whole or not at all. Projections
(``project_*``) and undo operations run on their own. Callers validate input before I/O; every
data function takes the namespace it is scoped to.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any

from kgmem.graph.client import GraphClient, Row, Step

# --- namespace, lease ----------------------------------------------------------------------------


async def get_namespace_presence(graph: GraphClient, *, namespace: str) -> Row:
    return (await graph.run("get_namespace_presence", namespace=namespace))[0]


async def acquire_consolidation_lease(
    graph: GraphClient,
    *,
    namespace: str,
    holder: str,
    now: datetime,
    expires_at: datetime,
    new_run: bool,
) -> Row:
    rows = await graph.run(
        "acquire_consolidation_lease",
        namespace=namespace,
        holder=holder,
        now=now,
        expires_at=expires_at,
        new_run=new_run,
    )
    return rows[0]


async def release_consolidation_lease(
    graph: GraphClient, *, namespace: str, holder: str, now: datetime
) -> int:
    rows = await graph.run(
        "release_consolidation_lease", namespace=namespace, holder=holder, now=now
    )
    return int(rows[0]["released"]) if rows else 0


async def get_consolidation_lease(graph: GraphClient, *, namespace: str) -> Row:
    return (await graph.run("get_consolidation_lease", namespace=namespace))[0]


# --- memories ------------------------------------------------------------------------------------


async def find_lifecycle_memories(
    graph: GraphClient, *, namespace: str, statuses: list[str], after: str, limit: int
) -> list[dict[str, Any]]:
    rows = await graph.run(
        "find_lifecycle_memories", namespace=namespace, statuses=statuses, after=after, limit=limit
    )
    return [r["memory"] for r in rows]


async def find_shared_entities(
    graph: GraphClient,
    *,
    namespace: str,
    statuses: list[str],
    working_before: datetime,
    working_accesses: int,
    min_memories: int,
) -> list[str]:
    rows = await graph.run(
        "find_shared_entities",
        namespace=namespace,
        statuses=statuses,
        working_before=working_before,
        working_accesses=working_accesses,
        min_memories=min_memories,
    )
    return [str(r["id"]) for r in rows]


async def find_tier_candidates(
    graph: GraphClient,
    *,
    namespace: str,
    statuses: list[str],
    after: str,
    limit: int,
    shared: list[str],
    promote_accesses: int,
    promote_utility: float,
    dormant_utility: float,
    gate_importance: float,
) -> list[dict[str, Any]]:
    rows = await graph.run(
        "find_tier_candidates",
        namespace=namespace,
        statuses=statuses,
        after=after,
        limit=limit,
        shared=shared,
        promote_accesses=promote_accesses,
        promote_utility=promote_utility,
        dormant_utility=dormant_utility,
        gate_importance=gate_importance,
    )
    return [r["memory"] for r in rows]


async def find_rehearsal_candidates(
    graph: GraphClient,
    *,
    namespace: str,
    statuses: list[str],
    after: str,
    limit: int,
    utility_prior: float,
    drift_before: datetime,
    now_ms: int,
    min_ratio: float,
    base_stability: dict[str, float],
    tier_decay: dict[str, float],
    pinned_decay: float,
    human_sources: list[str],
    auto_decay: float,
    access_weight: float,
) -> list[dict[str, Any]]:
    rows = await graph.run(
        "find_rehearsal_candidates",
        namespace=namespace,
        statuses=statuses,
        after=after,
        limit=limit,
        utility_prior=utility_prior,
        drift_before=drift_before,
        now_ms=now_ms,
        min_ratio=min_ratio,
        base_stability=base_stability,
        tier_decay=tier_decay,
        pinned_decay=pinned_decay,
        human_sources=human_sources,
        auto_decay=auto_decay,
        access_weight=access_weight,
    )
    return [r["memory"] for r in rows]


async def find_transition_candidates(
    graph: GraphClient,
    *,
    namespace: str,
    statuses: list[str],
    after: str,
    limit: int,
    speculative_below: float,
    archival_before: datetime,
    archival_max_importance: float,
    archival_max_access: int,
    now_ms: int,
    min_ratio: float,
    base_stability: dict[str, float],
    tier_decay: dict[str, float],
    pinned_decay: float,
    human_sources: list[str],
    auto_decay: float,
    access_weight: float,
) -> list[dict[str, Any]]:
    rows = await graph.run(
        "find_transition_candidates",
        namespace=namespace,
        statuses=statuses,
        after=after,
        limit=limit,
        speculative_below=speculative_below,
        archival_before=archival_before,
        archival_max_importance=archival_max_importance,
        archival_max_access=archival_max_access,
        now_ms=now_ms,
        min_ratio=min_ratio,
        base_stability=base_stability,
        tier_decay=tier_decay,
        pinned_decay=pinned_decay,
        human_sources=human_sources,
        auto_decay=auto_decay,
        access_weight=access_weight,
    )
    return [r["memory"] for r in rows]


async def find_hot_candidates(
    graph: GraphClient,
    *,
    namespace: str,
    statuses: list[str],
    min_utility: float,
    min_access: int,
    created_after: datetime,
) -> list[dict[str, Any]]:
    rows = await graph.run(
        "find_hot_candidates",
        namespace=namespace,
        statuses=statuses,
        min_utility=min_utility,
        min_access=min_access,
        created_after=created_after,
    )
    return [r["memory"] for r in rows]


def set_memory_statuses(*, namespace: str, changes: list[dict[str, Any]]) -> Step:
    return Step("set_memory_statuses", {"namespace": namespace, "changes": changes})


def purge_memories(*, namespace: str, changes: list[dict[str, Any]]) -> Step:
    return Step("purge_memories", {"namespace": namespace, "changes": changes})


def set_memory_tiers(*, namespace: str, changes: list[dict[str, Any]]) -> Step:
    return Step("set_memory_tiers", {"namespace": namespace, "changes": changes})


def set_gate_rejections(
    *, namespace: str, rejections: list[dict[str, Any]], epoch: int, now: datetime
) -> Step:
    return Step(
        "set_gate_rejections",
        {"namespace": namespace, "rejections": rejections, "epoch": epoch, "now": now},
    )


def set_memory_hot(*, namespace: str, hot: list[str], cold: list[str]) -> Step:
    return Step("set_memory_hot", {"namespace": namespace, "hot": hot, "cold": cold})


def rehearse_memories(
    *, namespace: str, updates: list[dict[str, Any]], pairs: list[dict[str, Any]], now: datetime
) -> Step:
    return Step(
        "rehearse_memories",
        {"namespace": namespace, "updates": updates, "pairs": pairs, "now": now},
    )


def drift_memory_utilities(*, namespace: str, drifts: list[dict[str, Any]]) -> Step:
    return Step("drift_memory_utilities", {"namespace": namespace, "drifts": drifts})


async def find_co_activations(
    graph: GraphClient, *, namespace: str, min_count: int, limit: int
) -> list[Row]:
    return await graph.run(
        "find_co_activations", namespace=namespace, min_count=min_count, limit=limit
    )


# --- contradictions and dependencies -------------------------------------------------------------


async def find_contradictions(graph: GraphClient, *, namespace: str, limit: int) -> list[Row]:
    return await graph.run("find_contradictions", namespace=namespace, limit=limit)


def resolve_contradictions(
    *, namespace: str, resolutions: list[dict[str, Any]], now: datetime
) -> Step:
    return Step(
        "resolve_contradictions",
        {"namespace": namespace, "resolutions": resolutions, "now": now},
    )


async def find_invalidated_dependents(
    graph: GraphClient, *, namespace: str, statuses: list[str], depth: int, limit: int
) -> list[Row]:
    return await graph.run(
        "find_invalidated_dependents",
        namespace=namespace,
        statuses=statuses,
        depth=depth,
        limit=limit,
    )


# --- redundancy ----------------------------------------------------------------------------------


async def find_unchecked_memories(graph: GraphClient, *, namespace: str, limit: int) -> list[str]:
    rows = await graph.run("find_unchecked_memories", namespace=namespace, limit=limit)
    return [str(r["id"]) for r in rows]


def set_dedup_checked(*, namespace: str, ids: list[str], now: datetime) -> Step:
    return Step("set_dedup_checked", {"namespace": namespace, "ids": ids, "now": now})


async def find_similar_memories(
    graph: GraphClient,
    *,
    namespace: str,
    ids: list[str],
    top_k: int,
    cutoff: float,
    candidates: int,
    limit: int,
) -> list[Row]:
    return await graph.run(
        "find_similar_memories",
        namespace=namespace,
        ids=ids,
        top_k=top_k,
        cutoff=cutoff,
        candidates=candidates,
        limit=limit,
    )


async def find_merge_members(
    graph: GraphClient, *, namespace: str, ids: list[str]
) -> list[dict[str, Any]]:
    rows = await graph.run("find_merge_members", namespace=namespace, ids=ids)
    return [r["memory"] for r in rows]


def create_theme_memories(*, namespace: str, themes: list[dict[str, Any]]) -> Step:
    return Step("create_theme_memories", {"namespace": namespace, "themes": themes})


def merge_memories(*, namespace: str, merges: list[dict[str, Any]]) -> Step:
    return Step("merge_memories", {"namespace": namespace, "merges": merges})


async def find_merge_records(graph: GraphClient, *, namespace: str, key: str) -> list[Row]:
    return await graph.run("find_merge_records", namespace=namespace, key=key)


def undo_memory_merge(*, namespace: str, merge_id: str, now: datetime, actor: str) -> Step:
    return Step(
        "undo_memory_merge",
        {"namespace": namespace, "merge_id": merge_id, "now": now, "actor": actor},
    )


# --- entities and edges --------------------------------------------------------------------------


async def find_entity_duplicates(graph: GraphClient, *, namespace: str, limit: int) -> list[Row]:
    return await graph.run("find_entity_duplicates", namespace=namespace, limit=limit)


async def project_entity_graph(graph: GraphClient, *, name: str, namespace: str) -> Row:
    return (await graph.run("project_entity_graph", graph=name, namespace=namespace))[0]


async def find_similar_entities(
    graph: GraphClient, *, name: str, namespace: str, top_k: int, cutoff: float, limit: int
) -> list[Row]:
    return await graph.run(
        "find_similar_entities",
        graph=name,
        namespace=namespace,
        top_k=top_k,
        cutoff=cutoff,
        limit=limit,
    )


def merge_entity_duplicates(*, namespace: str, merges: list[dict[str, Any]], now: datetime) -> Step:
    return Step("merge_entity_duplicates", {"namespace": namespace, "merges": merges, "now": now})


def undo_entity_merge(*, namespace: str, merge_id: str, now: datetime) -> Step:
    return Step("undo_entity_merge", {"namespace": namespace, "merge_id": merge_id, "now": now})


async def find_decaying_edges(
    graph: GraphClient, *, namespace: str, before: datetime, floor: float, limit: int
) -> list[Row]:
    return await graph.run(
        "find_decaying_edges", namespace=namespace, before=before, floor=floor, limit=limit
    )


def decay_edge_confidences(*, namespace: str, decays: list[dict[str, Any]], now: datetime) -> Step:
    return Step("decay_edge_confidences", {"namespace": namespace, "decays": decays, "now": now})


async def get_memory_link_count(graph: GraphClient, *, namespace: str) -> int:
    rows = await graph.run("get_memory_link_count", namespace=namespace)
    return int(rows[0]["links"])


async def find_prunable_links(
    graph: GraphClient, *, namespace: str, priorities: dict[str, int], limit: int
) -> list[Row]:
    return await graph.run(
        "find_prunable_links", namespace=namespace, priorities=priorities, limit=limit
    )


def delete_memory_links(*, namespace: str, edges: list[str]) -> Step:
    return Step("delete_memory_links", {"namespace": namespace, "edges": edges})


# --- topics and centrality -----------------------------------------------------------------------


async def project_topic_graph(graph: GraphClient, *, name: str, namespace: str) -> Row:
    return (await graph.run("project_topic_graph", graph=name, namespace=namespace))[0]


async def find_topic_communities(
    graph: GraphClient, *, name: str, namespace: str, min_members: int
) -> list[Row]:
    return await graph.run(
        "find_topic_communities", graph=name, namespace=namespace, min_members=min_members
    )


async def find_memory_contents(
    graph: GraphClient, *, namespace: str, ids: list[str]
) -> dict[str, str]:
    rows = await graph.run("find_memory_contents", namespace=namespace, ids=ids)
    return {str(r["id"]): str(r["content"]) for r in rows}


async def find_topic_groups(
    graph: GraphClient, *, name: str, namespace: str, resolution: float
) -> dict[str, int]:
    """Memory id → coarse (Leiden) community."""
    rows = await graph.run(
        "find_topic_groups", graph=name, namespace=namespace, resolution=resolution
    )
    if not rows:
        return {}
    return {str(m): int(c) for m, c in zip(rows[0]["ids"], rows[0]["communities"], strict=True)}


async def find_topics(graph: GraphClient, *, namespaces: list[str], limit: int) -> list[Row]:
    return await graph.run("find_topics", namespaces=namespaces, limit=limit)


async def find_topic_members(
    graph: GraphClient, *, namespace: str, topic_id: str, limit: int
) -> list[dict[str, Any]]:
    rows = await graph.run("find_topic_members", namespace=namespace, id=topic_id, limit=limit)
    return [r["memory"] for r in rows]


def write_topics(
    *,
    namespace: str,
    remove: list[str],
    create: list[dict[str, Any]],
    rename: list[dict[str, Any]],
    now: datetime,
) -> Step:
    return Step(
        "write_topics",
        {"namespace": namespace, "remove": remove, "create": create, "rename": rename, "now": now},
    )


async def get_centrality_changes(
    graph: GraphClient, *, name: str, namespace: str, digits: int, tolerance: float
) -> int:
    rows = await graph.run(
        "get_centrality_changes",
        graph=name,
        namespace=namespace,
        digits=digits,
        tolerance=tolerance,
    )
    return int(rows[0]["updated"]) if rows else 0


def set_memory_centrality(*, name: str, namespace: str, digits: int, tolerance: float) -> Step:
    return Step(
        "set_memory_centrality",
        {"graph": name, "namespace": namespace, "digits": digits, "tolerance": tolerance},
    )


# --- entity profiles and category summaries ------------------------------------------------------


async def find_profile_sources(
    graph: GraphClient, *, namespace: str, after: str, limit: int
) -> list[Row]:
    return await graph.run("find_profile_sources", namespace=namespace, after=after, limit=limit)


async def find_profile_memories(
    graph: GraphClient, *, namespace: str, ids: list[str], per_entity: int
) -> list[Row]:
    return await graph.run(
        "find_profile_memories", namespace=namespace, ids=ids, per_entity=per_entity
    )


async def find_category_sources(graph: GraphClient, *, namespace: str) -> list[Row]:
    return await graph.run("find_category_sources", namespace=namespace)


async def find_category_memories(
    graph: GraphClient, *, namespace: str, categories: list[str], per_category: int
) -> list[Row]:
    return await graph.run(
        "find_category_memories",
        namespace=namespace,
        categories=categories,
        per_category=per_category,
    )


def set_entity_profiles(*, namespace: str, profiles: list[dict[str, Any]], now: datetime) -> Step:
    return Step("set_entity_profiles", {"namespace": namespace, "profiles": profiles, "now": now})


def write_category_summaries(
    *, namespace: str, create: list[dict[str, Any]], update: list[dict[str, Any]], now: datetime
) -> Step:
    return Step(
        "write_category_summaries",
        {"namespace": namespace, "create": create, "update": update, "now": now},
    )


# --- session distillation -----------------------------------------------------------------------


async def find_session_notes(
    graph: GraphClient, *, namespace: str, limit: int
) -> list[dict[str, Any]]:
    rows = await graph.run("find_session_notes", namespace=namespace, limit=limit)
    return [r["memory"] for r in rows]


def create_session_snapshots(
    *, namespace: str, snapshots: list[dict[str, Any]], now: datetime
) -> Step:
    return Step(
        "create_session_snapshots", {"namespace": namespace, "snapshots": snapshots, "now": now}
    )


# --- housekeeping and resume ---------------------------------------------------------------------


async def get_capacity_count(graph: GraphClient, *, namespace: str) -> int:
    rows = await graph.run("get_capacity_count", namespace=namespace)
    return int(rows[0]["live"])


async def find_trim_candidates(graph: GraphClient, *, namespace: str, limit: int) -> list[Row]:
    return await graph.run("find_trim_candidates", namespace=namespace, limit=limit)


async def get_resume_context(
    graph: GraphClient, *, namespaces: list[str], since: datetime, limit: int
) -> Row:
    rows = await graph.run("get_resume_context", namespaces=namespaces, since=since, limit=limit)
    return rows[0]
