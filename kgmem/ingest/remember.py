"""The direct write path for an explicit fact: validate, embed, find entities, store, link.

``remember`` checks its input before any I/O (bad input raises ``InvalidInput`` and writes
nothing), runs the two models in worker threads, and stores the memory and its ``MENTIONS`` edges
in one transaction through the graph gateway. Storing the same text twice reinforces the first
memory instead of creating a second (exact content-hash match, tier 1 of the write gate).
"""

from __future__ import annotations

import asyncio
import uuid
from datetime import UTC, datetime

from kgmem.errors import InvalidInput
from kgmem.graph import repository
from kgmem.graph.client import GraphClient
from kgmem.ingest.memory_record import SOURCE_TRUST, memory_properties
from kgmem.ingest.normalize import normalize_name
from kgmem.ml.embedder import Embedder
from kgmem.ml.nlp import Nlp
from kgmem.records import WriteReceipt
from kgmem.validation import check_namespace, check_text


async def remember(
    graph: GraphClient,
    embedder: Embedder,
    nlp: Nlp,
    *,
    text: object,
    namespace: object,
    category: str = "fact",
    source: str = "human",
    now: datetime | None = None,
) -> WriteReceipt:
    clean = check_text(text, what="memory text")
    ns = check_namespace(namespace)
    if source not in SOURCE_TRUST:
        raise InvalidInput(f"source must be one of {sorted(SOURCE_TRUST)}, got {source!r}")
    when = now or datetime.now(UTC)
    embedding, mentions = await asyncio.gather(
        asyncio.to_thread(embedder.embed_one, clean), asyncio.to_thread(nlp.entities, clean)
    )
    memory = memory_properties(
        memory_id=str(uuid.uuid4()),
        text=clean,
        embedding=embedding,
        category=category,
        source=source,
        now=when,
    )
    entities = [
        {
            "id": str(uuid.uuid4()),
            "name": m.name,
            "normalized_name": normalize_name(m.name),
            "type": m.type,
            "confidence": 0.8,
            "created_at": when,
        }
        for m in mentions
        if normalize_name(m.name)
    ]
    row = await repository.create_memory(graph, namespace=ns, memory=memory, entities=entities)
    return WriteReceipt(
        action="created" if row["created"] else "reinforced",
        memory_id=row["id"],
        reason="new memory" if row["created"] else "exact duplicate (content hash)",
        entities=tuple(str(e["name"]) for e in entities),
    )
