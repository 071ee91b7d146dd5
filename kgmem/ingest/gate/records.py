"""The write gate's records: the ``Neighbour`` memories the orchestrator reads for a candidate, the
``GateAction`` the gate picks and the ``GateDecision`` that says what to write and why (the edge,
the validity to set, the merged text). Frozen dataclasses and one closed enum; no behaviour.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from enum import StrEnum

from kgmem.ingest.gate.contradiction import ContradictionCheck
from kgmem.records import Claim
from kgmem.taxonomy import Category, ConflictStrategy, MemoryRelation, Status


class GateAction(StrEnum):
    CREATE = "create"  # store the candidate as a new memory
    REINFORCE = "reinforce"  # bump the target's access/stability; store nothing new
    UPDATE = "update"  # rewrite the target's content to merged_content
    SUPERSEDE = "supersede"  # store the candidate; one side gets valid_until + SUPERSEDES
    FLAG = "flag"  # store the candidate beside the target, CONTRADICTS edge, supersede nothing
    SKIP = "skip"  # store no memory (the episode still holds the statement)


@dataclass(frozen=True)
class Neighbour:
    """An existing memory near a candidate, as the orchestrator read it from the graph."""

    memory_id: str
    content: str
    content_hash: str
    similarity: float  # cosine to the candidate, 0..1
    category: str = Category.FACT
    status: str = Status.ACTIVE
    valid_from: datetime | None = None
    valid_until: datetime | None = None
    entities: tuple[str, ...] = ()  # normalised entity names
    importance: float = 0.5
    utility: float = 0.5
    confidence: float = 0.5
    pinned: bool = False
    immutable: bool = False
    created_at: datetime | None = None
    claim: Claim | None = None  # what it asserts, if the write path read a claim from it
    # its cosine to the candidate's subject name (None: no subject to take out)
    subject_similarity: float | None = None


@dataclass(frozen=True)
class GateDecision:
    """What the orchestrator must write for one candidate, and why.

    ``relation`` is the edge between the new memory and ``target_id``: new ``SUPERSEDES`` target,
    or — when ``candidate_is_history`` (the candidate is older than the stored fact) — target
    ``SUPERSEDES`` new, and the new memory is stored already superseded with ``valid_until =
    new_valid_until``. ``CONTRADICTS`` for a flag, ``ELABORATES`` for a detail stored beside an
    immutable memory. ``old_valid_until`` is set on the target when it is superseded.
    """

    action: GateAction
    target_id: str | None
    reason: str
    similarity: float = 0.0
    merged_content: str | None = None
    contradiction: bool = False
    conflict: ContradictionCheck | None = None
    strategy: ConflictStrategy | None = None
    old_valid_until: datetime | None = None
    candidate_is_history: bool = False
    new_valid_until: datetime | None = None
    relation: MemoryRelation | None = None
