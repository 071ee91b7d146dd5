"""Runner for the distillation step: the session distillation.

Contract: like every runner, it reads, decides with the pure rules
(:mod:`~kgmem.lifecycle.distillation.rules`) and writes all it decided in one transaction. It reads
at most ``caps.batch`` undistilled session notes, plans at most ``caps.distillations`` snapshots and
writes each as a new memory (``synthesis = 'session_snapshot'``) linked ``DERIVED_FROM`` to every
note it distils — the notes themselves are not changed, and that link is what marks them distilled,
so a second run finds nothing to do. Non-destructive: deleting a snapshot (or purging it) makes its
notes undistilled again. The snapshot is local (write-time synthesis of the notes) unless an LLM is
configured (``auto`` or ``always``): then the ≤ 250-character snapshot, kept only if it keeps every
specific of the notes; a failure keeps the rest of the run local, and a dry run never asks.
"""

from __future__ import annotations

import uuid
from typing import Any

from kgmem.core.text import content_hash
from kgmem.core.time import as_utc
from kgmem.core.trust import source_trust
from kgmem.errors import LLMError
from kgmem.graph import summary_repository
from kgmem.lifecycle.consolidation.context import StepContext, log
from kgmem.lifecycle.distillation.rules import (
    SNAPSHOT_CATEGORY,
    SNAPSHOT_SCHEMA,
    SNAPSHOT_SYSTEM,
    Distillation,
    Note,
    parse_llm_snapshot,
    plan_distillations,
    snapshot_content,
    snapshot_prompt,
    snapshot_props,
)
from kgmem.lifecycle.redundancy.rules import mean_embedding
from kgmem.taxonomy import Category
from kgmem.taxonomy.category_tables import DEFAULT_MEMORY_TYPE

LLM_SNAPSHOT_CALLS = 20


def _note(row: dict[str, Any]) -> Note:
    def num(key: str) -> float:
        value = row.get(key)
        return 0.5 if value is None else float(value)

    valid_from = row.get("valid_from")
    embedding = row.get("embedding")
    return Note(
        id=str(row["id"]),
        content=str(row.get("content") or ""),
        created_at=as_utc(row["created_at"]),
        session_id=str(row["session_id"]) if row.get("session_id") else None,
        importance=num("importance"),
        confidence=num("confidence"),
        embedding=embedding if isinstance(embedding, list) else None,
        entities=tuple(str(e) for e in row.get("entities") or ()),
        valid_from=as_utc(valid_from) if valid_from is not None else None,
    )


async def _content(ctx: StepContext, d: Distillation) -> tuple[str, str]:
    """(snapshot text, method): the LLM's when configured and faithful, else the local one."""
    local = snapshot_content(d)
    if ctx.llm is None or ctx.dry_run or ctx.report.stats.get("snapshot_llm_failed", 0):
        return local, "local"
    if ctx.report.stats.get("snapshot_llm_calls", 0) >= LLM_SNAPSHOT_CALLS:
        return local, "local"
    try:
        result = await ctx.llm.complete_json(
            SNAPSHOT_SYSTEM, snapshot_prompt(d), SNAPSHOT_SCHEMA, "session_snapshot"
        )
    except LLMError as exc:
        log.warning("snapshot LLM failed for session %s, distilling locally: %s", d.session_id, exc)
        ctx.stat("snapshot_llm_failed")
        return local, "local"
    ctx.stat("snapshot_llm_calls")
    text = parse_llm_snapshot(result.data, d)
    if text is None:
        ctx.stat("snapshot_llm_rejected")
        return local, "local"
    return text, "llm"


async def run_distillation(ctx: StepContext) -> None:
    """3+ undistilled session notes of a session → a status snapshot memory that keeps
    the specifics, linked to its notes."""
    rows = await summary_repository.find_session_notes(
        ctx.graph, namespace=ctx.namespace, limit=ctx.caps.batch
    )
    notes = [_note(r) for r in rows]
    if len(rows) >= ctx.caps.batch and notes:
        # the last session may continue past the page: leave it whole for the next run
        last = notes[-1].session_id
        if any(n.session_id != last for n in notes):
            notes = [n for n in notes if n.session_id != last]
        ctx.report.capped = True
    ctx.stat("session_notes", len(notes))
    plans, due = plan_distillations(notes, ctx.caps.distillations)
    ctx.report.capped |= due > len(plans)
    if not plans:
        return
    memory_type = DEFAULT_MEMORY_TYPE[Category(SNAPSHOT_CATEGORY)].value
    snapshots: list[dict[str, Any]] = []
    for d in plans:
        text, method = await _content(ctx, d)
        props = snapshot_props(
            d,
            memory_id=str(uuid.uuid4()),
            content=text,
            content_hash=content_hash(text),
            memory_type=memory_type,
            embedding=mean_embedding(n.embedding for n in d.notes),
            method=method,
            source_trust=source_trust("consolidation"),
            now=ctx.now,
        )
        snapshots.append(
            {
                "props": props,
                "sources": [n.id for n in d.notes],
                "entity_ids": sorted({e for n in d.notes for e in n.entities}),
            }
        )
    out = await ctx.commit(
        [
            summary_repository.create_session_snapshots(
                namespace=ctx.namespace, snapshots=snapshots, now=ctx.now
            )
        ]
    )
    ctx.report.count("snapshots", len(out[0]) if not ctx.dry_run else len(snapshots))
    ctx.report.count(
        "notes_distilled",
        sum(int(r["linked"]) for r in out[0])
        if not ctx.dry_run
        else sum(len(s["sources"]) for s in snapshots),
    )
    ctx.report.ids["snapshots"] = [s["props"]["id"] for s in snapshots]
