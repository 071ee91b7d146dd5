"""Explicit memories: ``remember`` stores one fact as said (no rewriting, no extraction) through
the same gate, scoring, entity resolution and linking as extracted facts, in one transaction.

The text is first stored as an ``:Episode``, so an explicit memory has provenance like any other;
remembering the same text at the same instant twice reinforces the first memory. Concurrent
remembers of one text (or of texts naming one new entity) converge: the write that loses the
namespace's write lock to another that stored the same memory or entity first is planned again
(``commit.write_steps``), so it reinforces that memory instead of storing a copy.
``check_explicit`` is the write path's whole check of one explicit memory, pure and before any
I/O; ``kgmem remember --file`` runs it over every line before it writes the first.
"""

from __future__ import annotations

import asyncio
import time
from dataclasses import dataclass
from datetime import UTC, datetime

from kgmem import tracing
from kgmem.core.text import content_hash
from kgmem.core.trust import SOURCE_TRUST
from kgmem.core.validation import check_namespace, check_text
from kgmem.errors import ConcurrentWrite, InvalidInput, KgmemError, WriteRace
from kgmem.graph import repository
from kgmem.ingest.extraction.commit import write_steps
from kgmem.ingest.extractors.emotion import detect_emotion
from kgmem.ingest.extractors.preparation import embed_inputs
from kgmem.ingest.ingestor import Ingestor
from kgmem.ingest.plan.planner import gate_and_plan
from kgmem.ingest.reports import ExtractionReport
from kgmem.ingest.turns.episodes import check_turn, episode_properties
from kgmem.records import ExtractedFact, ItemInput, Turn, WriteReceipt
from kgmem.taxonomy import Category, ConflictStrategy
from kgmem.taxonomy.parsing import parse_enum


@dataclass(frozen=True)
class ExplicitInput:
    """One explicit memory as the write path accepts it: clean text and a known category."""

    text: str
    category: Category
    source: str


def check_explicit(text: object, *, category: str, source: str, limit: int) -> ExplicitInput:
    """The checks ``remember`` makes before any I/O, as a record, or ``InvalidInput``."""
    cat = parse_enum(Category, category, "category")
    if source not in SOURCE_TRUST:
        raise InvalidInput(f"source must be one of {sorted(SOURCE_TRUST)}, got {source!r}")
    return ExplicitInput(check_text(text, what="text", limit=limit), cat, source)


# Plans of one remember: a plan goes stale only when a concurrent writer stores one of its
# memories or entities first, and the next plan reinforces what that writer stored, so a second
# plan almost always lands; the rest bound a pathological stream of new same-named entities.
WRITE_ATTEMPTS = 5


@tracing.traced("kgmem.remember")
async def remember(
    ing: Ingestor,
    text: object,
    *,
    namespace: object,
    category: str = "fact",
    source: str = "human",
    strategy: ConflictStrategy = ConflictStrategy.TEMPORAL,
    session_id: str | None = None,
    now: datetime | None = None,
    item: ItemInput | None = None,
) -> WriteReceipt:
    """Store one explicit fact as said (no rewriting), through the same gate and linking.

    The text is first stored as an Episode, so an explicit memory has provenance like any other.
    With ``item`` the episode also carries a framework store entry (its key, as the turn id too,
    and its JSON value), which ``kgmem.service.items`` reads back by key.
    """
    ns = check_namespace(namespace)
    tracing.annotate(namespace=ns)
    when = now or datetime.now(UTC)
    checked = check_explicit(
        text, category=category, source=source, limit=ing.settings.max_content_chars
    )
    strategy = parse_enum(ConflictStrategy, strategy, "conflict strategy")
    turn = check_turn(
        Turn(
            text=checked.text,
            role="user",
            session_id=session_id,
            at=when,
            turn_id=item.key if item else None,
        ),
        limit=ing.settings.max_content_chars,
    )
    episode = episode_properties(ns, turn, time.time_ns(), now=when)
    if item is not None:
        episode |= {
            "item_key": item.key,
            "item_value": item.value_json,
            "item_created_at": item.created_at,
        }
    await repository.create_episodes(ing.graph, namespace=ns, episodes=[episode], now=when)
    turn = Turn(text=turn.text, role="user", session_id=session_id, at=when, turn_id=episode["id"])
    mentions = await asyncio.to_thread(ing.nlp.entities, turn.text)
    emo = detect_emotion(turn.text)
    fact = ExtractedFact(
        content=turn.text,
        category=str(checked.category),
        confidence=SOURCE_TRUST[source],
        entities=tuple(mentions),
        valid_from=when,
        valence=emo.valence,
        arousal=emo.arousal,
        emotion=emo.category,
        source_turn_ids=(episode["id"],),
    )
    rep = ExtractionReport(episodes=1, engine="explicit")
    vectors = await embed_inputs(ing, [fact], rep)
    for _ in range(WRITE_ATTEMPTS):
        _, plan = await gate_and_plan(
            ing, ns, [fact], vectors, [turn], strategy, when, rep, actor="remember", source=source
        )
        steps = write_steps(ns, plan, [episode["id"]], [], when, "explicit")
        if not plan.receipts:
            raise KgmemError("remember produced no receipt (a bug)")
        try:
            await ing.graph.write_batch(steps)
        except WriteRace:
            # A concurrent writer stored this memory or one of its entities after the plan was
            # read: plan again against it, so this write reinforces it instead of copying it.
            continue
        except ConcurrentWrite:
            # Already extracted: the same text at the same instant was remembered before.
            summary = await repository.find_memory_by_hash(
                ing.graph, namespace=ns, hash=content_hash(turn.text)
            )
            if summary is None:
                raise
            return WriteReceipt("reinforced", summary["id"], "already remembered")
        return plan.receipts[0]
    raise WriteRace(f"the memory kept being written concurrently ({WRITE_ATTEMPTS} plans); retry")
