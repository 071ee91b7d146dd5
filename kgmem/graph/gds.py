"""Graph Data Science for recall: one maintained projection per namespace, personalised PageRank.

A recall must not rebuild the whole graph, so each namespace keeps one in-memory GDS projection
named ``kgmem-recall-<namespace>-v<version>``; every extraction commit bumps the namespace's
write version, and the next PageRank recall re-projects once (dropping the stale versions) and
reuses the projection until the next write. Personalised PageRank then runs on it with the
query's seed memories and entities as ``sourceNodes`` and edge weight = confidence × recency.
"""

from __future__ import annotations

import contextlib

from kgmem.errors import KgmemError
from kgmem.graph import repository
from kgmem.graph.client import GraphClient, Row
from kgmem.graph.rows import ScoredId, scored

PREFIX = "kgmem-recall-"
EDGE_HALF_LIFE_DAYS = 180.0  # recency half-life of an edge's weight in the projection


async def project_recall_graph(
    graph: GraphClient, *, name: str, namespace: str, half_life_days: float
) -> Row:
    rows = await graph.run(
        "project_recall_graph", graph=name, namespace=namespace, half_life_days=half_life_days
    )
    return rows[0]


async def find_pagerank_memories(
    graph: GraphClient, *, name: str, namespace: str, seeds: list[str], limit: int
) -> list[ScoredId]:
    rows = await graph.run(
        "find_pagerank_memories", graph=name, namespace=namespace, seeds=seeds, limit=limit
    )
    return scored(rows)


def projection_name(namespace: str, version: int) -> str:
    return f"{PREFIX}{namespace}-v{version}"


async def ensure_projection(graph: GraphClient, namespace: str) -> str:
    """The current projection of a namespace, projecting it when the namespace changed."""
    state = await repository.get_namespace_version(
        graph, namespace=namespace, graph_prefix=f"{PREFIX}{namespace}-v"
    )
    name = projection_name(namespace, int(state["version"]))
    if name in state["graphs"]:
        return name
    for stale in state["graphs"]:
        with contextlib.suppress(KgmemError):
            await repository.drop_graph(graph, name=stale)
    try:
        await project_recall_graph(
            graph, name=name, namespace=namespace, half_life_days=EDGE_HALF_LIFE_DAYS
        )
    except KgmemError:
        # Another request projected the same version first; use theirs.
        state = await repository.get_namespace_version(
            graph, namespace=namespace, graph_prefix=f"{PREFIX}{namespace}-v"
        )
        if name not in state["graphs"]:
            raise
    return name


async def pagerank_memories(
    graph: GraphClient, namespace: str, seeds: list[str], limit: int
) -> list[ScoredId]:
    if not seeds:
        return []
    name = await ensure_projection(graph, namespace)
    return await find_pagerank_memories(
        graph, name=name, namespace=namespace, seeds=seeds, limit=limit
    )
