"""What a recall returns: a ``RecallResult`` (the hits, the X-ray, and why the recall was skipped
when the pre-retrieval gate skipped it) of ``RecallHit`` records.

Contract: plain frozen records, no I/O and no imports beyond the X-ray's records, so the SDK
decodes an API answer into them on the thin client install (no numpy, no Neo4j driver).
``recall.engine`` builds them; the API, the MCP server and the SDK read them.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from kgmem.recall.xray import ChannelEvidence, Xray


@dataclass(frozen=True)
class RecallHit:
    memory_id: str
    content: str
    score: float
    category: str
    status: str
    injection: str  # full | abbreviated | skipped (the confidence gate)
    turn_ids: tuple[str, ...]
    valid_from: datetime | None
    valid_until: datetime | None
    channels: tuple[ChannelEvidence, ...] = ()
    # "memory", or "episode": an observed turn no memory stands for, returned as itself
    # (memory_id is then the episode's id, turn_ids its own turn, category "episode")
    kind: str = "memory"


@dataclass(frozen=True)
class RecallResult:
    hits: tuple[RecallHit, ...]
    xray: Xray
    skipped: str | None = None
