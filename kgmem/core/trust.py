"""Source trust (docs/write-path.md): how much kgmem believes who wrote a memory.

Contract: :func:`source_trust` maps a source name (any seed's vocabulary, case and separators
folded) to human 1.0, agent 0.7 or ingest 0.5, an unknown source to ingest's 0.5;
:func:`human_sources` lists the spellings with full trust, for filters that run in Cypher. Pure.
The write path scores a new memory's trust with it, retention decays less-trusted memories
faster, and consolidation weighs merged sources by it.
"""

from __future__ import annotations

from kgmem.errors import InvalidInput

# The source trust. Other engines' source vocabularies (extraction | consolidation | replay |
# manual, writeSource and dataSource) are aliases onto these three.
SOURCE_TRUST: dict[str, float] = {"human": 1.0, "agent": 0.7, "ingest": 0.5}


_SOURCE_ALIASES: dict[str, str] = {
    "user": "human",
    "manual": "human",
    "user_message": "human",
    "ai": "agent",
    "assistant": "agent",
    "assistant_message": "agent",
    "llm": "agent",
    "consolidation": "agent",
    "dream": "agent",
    "formation": "agent",
    "extraction": "ingest",  # auto-extracted memories decay 3x faster than human ones
    "observer": "ingest",
    "replay": "ingest",
    "import": "ingest",
    "system": "ingest",
    "federation": "ingest",
    "unknown": "ingest",
}


# A source nobody named is trusted no more than bulk ingest.
UNKNOWN_SOURCE_TRUST = SOURCE_TRUST["ingest"]


def source_trust(source: str) -> float:
    """The trust in who wrote a memory: human 1.0, agent 0.7, ingest (or unknown) 0.5."""
    if not isinstance(source, str):
        raise InvalidInput(f"source must be a string, got {source!r}")
    key = source.strip().lower().replace("-", "_").replace(" ", "_")
    return SOURCE_TRUST.get(_SOURCE_ALIASES.get(key, key), UNKNOWN_SOURCE_TRUST)


def human_sources() -> frozenset[str]:
    """The stored ``source`` spellings with full (human) trust, for filters that run in Cypher:
    any other spelling is treated as less trusted there, which only widens such a filter."""
    return frozenset(
        k for k in SOURCE_TRUST.keys() | _SOURCE_ALIASES.keys() if source_trust(k) >= 1.0
    )
