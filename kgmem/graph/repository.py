"""Repository functions: one per catalog query, with the query's name, typed parameters in and
plain dicts out.

This is the only way the rest of kgmem reaches the graph. Each function validates nothing itself
(callers validate user input before I/O); it names its query, passes every parameter the query
declares, and shapes the rows. Namespace is a required argument of every data function.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from datetime import datetime
from typing import Any

from kgmem.core.browse_records import RelationRecord
from kgmem.core.strength import MAX_STABILITY_MULTIPLIER, NEIGHBOUR_BOOST
from kgmem.core.tunables import REINFORCE_DELTA
from kgmem.graph.client import GraphClient, Row, Step
from kgmem.graph.rows import (
    EntityHit,
    PathHit,
    RecallCandidate,
    ScoredId,
    entity_hits,
    path_hits,
    recall_candidate,
    scored,
)


async def get_memory(graph: GraphClient, *, namespace: str, memory_id: str) -> Row | None:
    rows = await graph.run("get_memory", namespace=namespace, id=memory_id)
    return rows[0] if rows else None


async def get_server_info(graph: GraphClient) -> Row:
    rows = await graph.run("get_server_info")
    return rows[0]


async def delete_namespace(graph: GraphClient, *, namespace: str) -> int:
    rows = await graph.run("delete_namespace", namespace=namespace)
    return int(rows[0]["deleted"]) if rows else 0


async def drop_graph(graph: GraphClient, *, name: str) -> None:
    await graph.run("drop_graph", graph=name)


async def get_schema_state(graph: GraphClient) -> list[Row]:
    return await graph.run("get_schema_state")


async def create_episodes(
    graph: GraphClient,
    *,
    namespace: str,
    episodes: list[dict[str, Any]],
    now: datetime,
    due: bool = False,
) -> list[Row]:
    return await graph.run(
        "create_episodes", namespace=namespace, episodes=episodes, now=now, due=due
    )


async def find_pending_episodes(graph: GraphClient, *, namespace: str, limit: int) -> list[Row]:
    return await graph.run("find_pending_episodes", namespace=namespace, limit=limit)


async def get_pending_summary(graph: GraphClient, *, namespace: str) -> Row:
    rows = await graph.run("get_pending_summary", namespace=namespace)
    return rows[0]


async def find_entity_candidates(
    graph: GraphClient, *, namespace: str, names: list[str], tokens: list[str], fuzzy: list[str]
) -> list[Row]:
    return await graph.run(
        "find_entity_candidates", namespace=namespace, names=names, tokens=tokens, fuzzy=fuzzy
    )


async def search_entity_vector(
    graph: GraphClient, *, namespace: str, items: list[dict[str, Any]], k: int
) -> list[Row]:
    if not items:
        return []
    return await graph.run("search_entity_vector", namespace=namespace, items=items, k=k)


async def find_open_boxes(
    graph: GraphClient, *, namespace: str, sessions: list[str], trace_limit: int
) -> Row:
    rows = await graph.run(
        "find_open_boxes", namespace=namespace, sessions=sessions, trace_limit=trace_limit
    )
    return rows[0]


async def set_memory_status(
    graph: GraphClient,
    *,
    namespace: str,
    memory_id: str,
    status: str,
    reason: str,
    actor: str,
    now: datetime,
    change_id: str,
) -> Row | None:
    rows = await graph.run(
        "set_memory_status",
        namespace=namespace,
        id=memory_id,
        status=status,
        reason=reason,
        actor=actor,
        now=now,
        change_id=change_id,
    )
    return rows[0] if rows else None


async def find_memory_by_hash(graph: GraphClient, *, namespace: str, hash: str) -> Row | None:
    rows = await graph.run("find_memory_by_hash", namespace=namespace, hash=hash)
    return rows[0] if rows else None


async def get_namespace_stats(graph: GraphClient, *, namespace: str) -> dict[str, Any]:
    row = (await graph.run("get_namespace_stats", namespace=namespace))[0]
    return {
        "nodes": row["nodes"],
        "labels": {k: v for k, v in row["by_label"]},
        "statuses": {k: v for k, v in row["by_status"]},
        "relationships": {k: v for k, v in row["by_rel"]},
    }


async def find_memories(
    graph: GraphClient, *, namespace: str, statuses: list[str] | None, limit: int
) -> list[dict[str, Any]]:
    rows = await graph.run("find_memories", namespace=namespace, statuses=statuses, limit=limit)
    return [r["memory"] for r in rows]


async def find_entities(graph: GraphClient, *, namespace: str, limit: int) -> list[dict[str, Any]]:
    rows = await graph.run("find_entities", namespace=namespace, limit=limit)
    return [r["entity"] for r in rows]


async def find_hub_names(
    graph: GraphClient, *, namespace: str, share: float, limit: int
) -> list[str]:
    rows = await graph.run("find_hub_names", namespace=namespace, share=share, limit=limit)
    return [name for names in rows[0]["names"] for name in names] if rows else []


async def find_entity_relations(
    graph: GraphClient, *, namespace: str, limit: int
) -> list[RelationRecord]:
    rows = await graph.run("find_entity_relations", namespace=namespace, limit=limit)
    return [RelationRecord.of(r) for r in rows]


async def find_memory_turns(graph: GraphClient, *, namespace: str, ids: list[str]) -> list[Row]:
    return await graph.run("find_memory_turns", namespace=namespace, ids=ids)


# --- steps of the extraction commit: built here, run together by GraphClient.write_batch ------


def acquire_write_lock(
    *,
    namespace: str,
    hashes: list[str],
    names: list[str],
    live: list[str],
    now: datetime,
    retiring: list[str],
    check: Callable[[list[Row]], None],
) -> Step:
    return Step(
        "acquire_write_lock",
        {
            "namespace": namespace,
            "hashes": hashes,
            "names": names,
            "live": live,
            "now": now,
            "retiring": retiring,
        },
        check,
    )


def claim_episodes(
    *,
    namespace: str,
    ids: list[str],
    now: datetime,
    engine: str,
    check: Callable[[list[Row]], None],
) -> Step:
    return Step(
        "claim_episodes", {"namespace": namespace, "ids": ids, "now": now, "engine": engine}, check
    )


def skip_episodes(*, namespace: str, skips: list[dict[str, Any]]) -> Step:
    return Step("skip_episodes", {"namespace": namespace, "skips": skips})


# The statuses of a memory that is still true (``ingest.gate.LIVE_STATUSES``).
_LIVE = ("active", "stale", "challenged")


def create_memories(
    *,
    namespace: str,
    memories: list[dict[str, Any]],
    live: Sequence[str] = _LIVE,
    retiring: Sequence[str] = (),
) -> Step:
    return Step(
        "create_memories",
        {
            "namespace": namespace,
            "memories": memories,
            "live": list(live),
            "retiring": list(retiring),
        },
    )


def update_memories(*, namespace: str, updates: list[dict[str, Any]]) -> Step:
    return Step("update_memories", {"namespace": namespace, "updates": updates})


def supersede_memories(*, namespace: str, changes: list[dict[str, Any]]) -> Step:
    return Step("supersede_memories", {"namespace": namespace, "changes": changes})


def link_memories(*, namespace: str, links: list[dict[str, Any]]) -> Step:
    return Step("link_memories", {"namespace": namespace, "links": links})


def merge_entities(
    *, namespace: str, entities: list[dict[str, Any]], mentions: list[dict[str, Any]]
) -> Step:
    return Step(
        "merge_entities", {"namespace": namespace, "entities": entities, "mentions": mentions}
    )


def relate_entities(*, namespace: str, relations: list[dict[str, Any]]) -> Step:
    return Step("relate_entities", {"namespace": namespace, "relations": relations})


def write_boxes(
    *,
    namespace: str,
    boxes: list[dict[str, Any]],
    members: list[dict[str, Any]],
    traces: list[dict[str, Any]],
) -> Step:
    return Step(
        "write_boxes",
        {"namespace": namespace, "boxes": boxes, "members": members, "traces": traces},
    )


async def search_claim_holders(
    graph: GraphClient,
    *,
    namespace: str,
    subjects: list[str],
    families: list[str],
    min_confidence: float,
    limit: int,
) -> list[ScoredId]:
    rows = await graph.run(
        "search_claim_holders",
        namespace=namespace,
        subjects=subjects,
        families=families,
        min_confidence=min_confidence,
        limit=limit,
    )
    return scored(rows)


async def search_period_memories(
    graph: GraphClient,
    *,
    namespace: str,
    start: datetime,
    end: datetime,
    embedding: list[float],
    scan: int,
    limit: int,
) -> list[ScoredId]:
    rows = await graph.run(
        "search_period_memories",
        namespace=namespace,
        start=start,
        end=end,
        embedding=embedding,
        scan=scan,
        limit=limit,
    )
    return scored(rows)


async def search_entity_memories(
    graph: GraphClient, *, namespace: str, names: list[str], query: str, hops: int, limit: int
) -> list[EntityHit]:
    rows = await graph.run(
        "search_entity_memories",
        namespace=namespace,
        names=names,
        query=query,
        hops=hops,
        limit=limit,
    )
    return entity_hits(rows[0]["rows"])  # one row holds the ranked list (see the query's header)


async def search_memory_activation(
    graph: GraphClient,
    *,
    namespace: str,
    seeds: list[dict[str, Any]],
    decay: float,
    fanout: int,
    limit: int,
) -> list[PathHit]:
    rows = await graph.run(
        "search_memory_activation",
        namespace=namespace,
        seeds=seeds,
        decay=decay,
        fanout=fanout,
        limit=limit,
    )
    return path_hits(rows[0]["rows"])  # one row holds the ranked list (see the query's header)


async def get_recall_candidates(
    graph: GraphClient, *, namespace: str, ids: list[str]
) -> list[RecallCandidate]:
    if not ids:
        return []
    result = await graph.run("get_recall_candidates", namespace=namespace, ids=ids)
    # one row holds the list (see the query's header)
    return [recall_candidate(row) for row in result[0]["rows"]]


async def touch_memories(
    graph: GraphClient,
    *,
    namespace: str,
    touches: list[dict[str, Any]],
    pairs: list[list[str]],
    now: datetime,
    neighbour_boost: float = NEIGHBOUR_BOOST,
    pair_delta: float = REINFORCE_DELTA,
    max_stability: float = MAX_STABILITY_MULTIPLIER,
) -> None:
    await graph.run(
        "touch_memories",
        max_stability=max_stability,
        namespace=namespace,
        touches=touches,
        pairs=pairs,
        now=now,
        neighbour_boost=neighbour_boost,
        pair_delta=pair_delta,
    )


async def get_namespace_version(graph: GraphClient, *, namespace: str, graph_prefix: str) -> Row:
    rows = await graph.run("get_namespace_version", namespace=namespace, graph_prefix=graph_prefix)
    return rows[0]


def bump_namespace(*, namespace: str, now: datetime) -> Step:
    return Step("bump_namespace", {"namespace": namespace, "now": now})
