"""The write plan's records: a gated candidate, the plan of rows, and a new memory's row.

``Candidate`` is one extracted fact ready for the gate (embedding, normalised entities,
provenance). ``WritePlan`` holds every row one write transaction will write — memories to
create, memories to reinforce or update, supersessions, memory links, entities, mentions, entity
relations, boxes, box members, traces — plus the receipts and the candidate → memory id map.
``memory_row`` is the full property row of a new memory, with the write path's defaults for
every lifecycle field (``lifecycle.records`` reads the same defaults back). Pure data; no I/O.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from kgmem.core.memory_kind import classify_kind
from kgmem.ingest.link.tagging import CAPTURE_STABILITY_BOOST
from kgmem.ingest.plan.scoring import WriteScores
from kgmem.records import Claim, ExtractedFact, WriteReceipt
from kgmem.taxonomy import Category
from kgmem.taxonomy.category_tables import DEFAULT_MEMORY_TYPE
from kgmem.taxonomy.parsing import parse_enum


@dataclass(frozen=True)
class Candidate:
    """One extracted fact ready for the gate, with its embedding and provenance."""

    key: int
    fact: ExtractedFact
    hash: str
    embedding: list[float]
    entities: frozenset[str]  # normalised entity names
    episode_ids: tuple[str, ...]
    session_id: str | None
    at: datetime  # when it was said (the turn's own time)
    source: str
    claim: Claim | None = None  # what it asserts (the engine's, else the local claim reader's)
    # the unit vector of the name it is about (``subject_match.subject_text``), and the fact's
    # cosine to it: the gate compares facts with that name taken out (``core.said_similarity``)
    subject: list[float] | None = None
    subject_similarity: float | None = None


@dataclass
class WritePlan:
    memories: list[dict[str, Any]] = field(default_factory=list)
    updates: list[dict[str, Any]] = field(default_factory=list)
    changes: list[dict[str, Any]] = field(default_factory=list)
    links: list[dict[str, Any]] = field(default_factory=list)
    entities: list[dict[str, Any]] = field(default_factory=list)
    mentions: list[dict[str, Any]] = field(default_factory=list)
    relations: list[dict[str, Any]] = field(default_factory=list)
    boxes: list[dict[str, Any]] = field(default_factory=list)
    members: list[dict[str, Any]] = field(default_factory=list)
    traces: list[dict[str, Any]] = field(default_factory=list)
    receipts: list[WriteReceipt] = field(default_factory=list)
    memory_ids: dict[int, str] = field(default_factory=dict)  # candidate key → memory id


def memory_row(
    c: Candidate, memory_id: str, scores: WriteScores, now: datetime, captured: bool
) -> dict[str, Any]:
    f = c.fact
    stability = scores.stability_multiplier * (CAPTURE_STABILITY_BOOST if captured else 1.0)
    return {
        "id": memory_id,
        "content": f.content,
        "content_hash": c.hash,
        "category": f.category,
        "kind": classify_kind(parse_enum_category(f.category), f.content, f.tags),
        "type": str(DEFAULT_MEMORY_TYPE[parse_enum_category(f.category)]),
        "tier": "working",
        "status": "active",
        "lifecycle_state": "active",
        "verification_state": "user_confirmed" if c.source == "human" else "unverified",
        "policy_class": "durable",
        "importance": scores.importance,
        "priority": scores.priority,
        "confidence": scores.confidence,
        "confidence_tier": scores.confidence_tier,
        "source": c.source,
        "source_trust": scores.source_trust,
        "utility": scores.utility,
        "surprise": scores.surprise,
        "novelty": scores.novelty,
        "stability": stability,  # multiplier on the category's base stability (lifecycle)
        "difficulty": 5.0,
        "storage_strength": 1.0,
        "access_count": 0,
        "repetition_count": 1,
        "created_at": c.at,
        "last_accessed": c.at,
        "modified_at": now,
        "recorded_at": now,
        "valid_from": f.valid_from or c.at,
        "valid_until": f.valid_until,
        "pinned": scores.pinned,
        "immutable": False,
        "flashbulb": scores.flashbulb,
        "valence": f.valence,
        "arousal": f.arousal,
        "emotion": f.emotion,
        "tags": list(f.tags),
        "session_id": c.session_id,
        "embedding": c.embedding,
        **claim_props(c.claim),
    }


def claim_props(claim: Claim | None) -> dict[str, Any]:
    """A memory's claim as properties; ``claim_family`` (the slot without its qualifier) keys
    the lookup index that finds the holders of a subject's slot."""
    if claim is None:
        return {}
    return {
        "claim_subject": claim.subject,
        "claim_slot": claim.slot,
        "claim_family": claim.slot.partition(":")[0],
        "claim_value": claim.value,
        "claim_polarity": claim.polarity,
        "claim_confidence": claim.confidence,
    }


def parse_enum_category(value: str) -> Any:
    return parse_enum(Category, value, "category")
