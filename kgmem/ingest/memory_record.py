"""Build the property map of a new ``:Memory`` node from a validated text and its signals.

Pure: the caller supplies the embedding, the clock and the id, so the same input always gives
the same record. Defaults follow the seeds: a memory starts active, in the working tier, with
full confidence for what a human stated and the per-category base stability.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any

from kgmem.ingest.normalize import content_hash

SOURCE_TRUST = {"human": 1.0, "agent": 0.7, "ingest": 0.5}  # seed 004 source trust


def memory_properties(
    *,
    memory_id: str,
    text: str,
    embedding: list[float],
    category: str,
    source: str,
    now: datetime,
    session_id: str | None = None,
) -> dict[str, Any]:
    return {
        "id": memory_id,
        "content": text,
        "content_hash": content_hash(text),
        "category": category,
        "kind": "note",
        "type": "fact",
        "tier": "working",
        "status": "active",
        "source": source,
        "source_trust": SOURCE_TRUST.get(source, 0.5),
        "confidence": 1.0 if source == "human" else 0.7,
        "importance": 0.5,
        "utility": 0.5,
        "access_count": 0,
        "repetition_count": 1,
        "pinned": False,
        "created_at": now,
        "modified_at": now,
        "recorded_at": now,
        "valid_from": now,
        "last_accessed": now,
        "session_id": session_id,
        "embedding": embedding,
    }
