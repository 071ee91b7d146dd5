"""The distillation step's rules: the session distillation, 3+ session notes → a snapshot.

Contract, pure over plain records. A *session note* is a memory tagged ``session`` or
with source ``session`` (the same test the core gate uses to keep them out of core). Notes not yet
distilled are grouped by session (notes without a session form one namespace-wide group, as kgmem
groups by namespace); a group of at least ``MIN_NOTES`` (3) becomes status snapshots of at
most ``TAKE_LATEST`` (10) notes each — the newest ten first, and an oldest remainder of fewer
than three joins its neighbour — so every undistilled note is covered in one run and a second
run finds nothing to do. ``snapshot_content`` is the local snapshot: the notes folded oldest
first through write-time synthesis, which never drops a name, number or date ("keep the
specifics"). ``SNAPSHOT_SYSTEM``/``SNAPSHOT_SCHEMA``/``parse_llm_snapshot`` are the LLM
snapshot (≤ 250 characters asked for), accepted only if it keeps every specific of the notes.
``snapshot_props`` is the memory the runner writes: semantic tier (kgmem inserts it as a
Working memory), tagged ``project-status`` and ``auto-distilled`` (never promoted to core).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from kgmem.core.synthesis import synthesize
from kgmem.lifecycle.records import derived_memory_props
from kgmem.lifecycle.summaries.rules import keeps_specifics

MIN_NOTES = 3  # "when 3+ notes accumulate"
TAKE_LATEST = 10  # "take latest 10 notes"
SNAPSHOT_CHARS = 250  # "a project status snapshot (≤250 chars)"
SNAPSHOT_IMPORTANCE = 0.7  # kgmem writes distilled memories at importance 0.7
SNAPSHOT_TAGS = ("project-status", "auto-distilled")  # the tags
SESSION_SNAPSHOT = "session_snapshot"  # Memory.synthesis of a snapshot
SNAPSHOT_CATEGORY = "context"  # "conversation context, session data, working state"


@dataclass(frozen=True)
class Note:
    id: str
    content: str
    created_at: datetime
    session_id: str | None = None
    importance: float = 0.5
    confidence: float = 0.5
    embedding: Sequence[float] | None = None
    entities: tuple[str, ...] = ()
    valid_from: datetime | None = None


@dataclass(frozen=True)
class Distillation:
    session_id: str | None
    notes: tuple[Note, ...]  # chronological


def is_session_note(tags: Iterable[str], source: str | None) -> bool:
    return "session" in {t.strip().lower() for t in tags} or (source or "").lower() == "session"


def _chunks(notes: list[Note]) -> list[list[Note]]:
    """Chronological notes → chunks of ``TAKE_LATEST`` counted from the newest; an oldest
    remainder shorter than ``MIN_NOTES`` joins the chunk after it."""
    chunks: list[list[Note]] = []
    end = len(notes)
    while end > 0:
        start = max(0, end - TAKE_LATEST)
        if 0 < start < MIN_NOTES:
            start = 0
        chunks.append(notes[start:end])
        end = start
    return chunks[::-1]


def plan_distillations(notes: Iterable[Note], cap: int) -> tuple[list[Distillation], int]:
    """(the snapshots to write this run, how many are due in all)."""
    groups: dict[str, list[Note]] = {}
    for n in notes:
        groups.setdefault(n.session_id or "", []).append(n)
    plans: list[Distillation] = []
    for key in sorted(groups):
        group = sorted(groups[key], key=lambda n: (n.created_at, n.id))
        if len(group) < MIN_NOTES:
            continue
        plans.extend(Distillation(key or None, tuple(chunk)) for chunk in _chunks(group))
    return plans[:cap], len(plans)


def snapshot_content(d: Distillation) -> str:
    text = d.notes[0].content.strip()
    for n in d.notes[1:]:
        text = synthesize(text, n.content.strip())
    where = f"session {d.session_id}" if d.session_id else "recent sessions"
    return f"Status snapshot of {where}: {text}"


SNAPSHOT_SYSTEM = """You distil an agent's session notes into one project status snapshot of at
most 250 characters. Keep every specific detail exactly: names, numbers, dates, versions, ids,
commands. Do not invent anything and do not generalise. Answer with the snapshot only."""

SNAPSHOT_SCHEMA: dict[str, Any] = {
    "type": "object",
    "properties": {"snapshot": {"type": "string"}},
    "required": ["snapshot"],
    "additionalProperties": False,
}


def snapshot_prompt(d: Distillation) -> str:
    lines = [f"Session: {d.session_id or '-'}", "Notes, oldest first:"]
    return "\n".join([*lines, *(f"- {n.content}" for n in d.notes)])


def parse_llm_snapshot(data: dict[str, Any], d: Distillation) -> str | None:
    """The LLM's snapshot if it keeps every specific of the notes, else None (local instead)."""
    text = data.get("snapshot")
    if not isinstance(text, str) or not text.strip():
        return None
    text = " ".join(text.split())
    if not keeps_specifics((n.content for n in d.notes), text):
        return None
    where = f"session {d.session_id}" if d.session_id else "recent sessions"
    return f"Status snapshot of {where}: {text}"


def snapshot_props(
    d: Distillation,
    *,
    memory_id: str,
    content: str,
    content_hash: str,
    memory_type: str,
    embedding: list[float] | None,
    method: str,
    source_trust: float,
    now: datetime,
) -> dict[str, Any]:
    starts = [n.valid_from for n in d.notes if n.valid_from is not None]
    return derived_memory_props(
        memory_id=memory_id,
        content=content,
        content_hash=content_hash,
        category=SNAPSHOT_CATEGORY,
        memory_type=memory_type,
        importance=SNAPSHOT_IMPORTANCE,
        confidence=max(n.confidence for n in d.notes),
        source="consolidation",
        source_trust=source_trust,
        tags=list(SNAPSHOT_TAGS),
        embedding=embedding,
        now=now,
        valid_from=min(starts) if starts else None,
        session_id=d.session_id,
        synthesis=SESSION_SNAPSHOT,
        distilled_from=[n.id for n in d.notes],
        distill_method=method,
    )
