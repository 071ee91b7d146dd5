"""The recall orchestrator: embed the query, ask the vector and fulltext channels, fuse with RRF.

I/O happens here and in the gateway; ranking is the pure ``fusion.rrf``. Every channel query is
scoped to the caller's namespace, so nothing from another namespace can reach the candidates.
Input is validated before any I/O.
"""

from __future__ import annotations

import asyncio

from kgmem.graph import repository
from kgmem.graph.client import GraphClient
from kgmem.ml.embedder import Embedder
from kgmem.recall.fusion import rrf
from kgmem.recall.lucene import to_lucene
from kgmem.records import ChannelHit, Hit
from kgmem.validation import check_limit, check_namespace, check_text

MAX_QUERY_CHARS = 2048
OVERFETCH = 4  # vector index returns global neighbours; namespace filtering happens after


async def recall(
    graph: GraphClient,
    embedder: Embedder,
    *,
    query: object,
    namespace: object,
    limit: object = 10,
) -> list[Hit]:
    text = check_text(query, what="query", limit=MAX_QUERY_CHARS)
    ns = check_namespace(namespace)
    n = check_limit(limit, low=1, high=100)
    k = max(50, n * OVERFETCH)
    embedding = await asyncio.to_thread(embedder.embed_one, text)
    vector_rows = await repository.search_memory_vector(
        graph, namespace=ns, embedding=embedding, k=k, limit=k
    )
    lucene = to_lucene(text)
    fulltext_rows = (
        await repository.search_memory_fulltext(graph, namespace=ns, query=lucene, k=k, limit=k)
        if lucene
        else []
    )
    channels = {"vector": vector_rows, "fulltext": fulltext_rows}
    contents: dict[str, tuple[str, str | None]] = {}
    seen: dict[str, list[ChannelHit]] = {}
    for channel, rows in channels.items():
        for rank, row in enumerate(rows, start=1):
            contents[row["id"]] = (row["content"], row.get("category"))
            seen.setdefault(row["id"], []).append(ChannelHit(channel, rank, float(row["score"])))
    fused = rrf([[r["id"] for r in rows] for rows in channels.values()])
    return [
        Hit(
            memory_id=mid,
            content=contents[mid][0],
            category=contents[mid][1],
            score=score,
            channels=tuple(seen[mid]),
        )
        for mid, score in fused[:n]
    ]
