"""Explicit memories: ``remember`` stores one fact as said (no rewriting, no extraction) through
the same gate, scoring, entity resolution and linking as extracted facts, in one transaction.

The text is first stored as an ``:Episode``, so an explicit memory has provenance like any other;
remembering the same text at the same instant twice reinforces the first memory.
"""

from __future__ import annotations

import asyncio
import time
from datetime import UTC, datetime

from kgmem.errors import ConcurrentWrite, InvalidInput, KgmemError
from kgmem.graph import repository
from kgmem.ingest.commit import write_steps
from kgmem.ingest.episodes import check_turn, episode_properties
from kgmem.ingest.ingestor import ExtractionReport, Ingestor
from kgmem.ingest.normalize import content_hash
from kgmem.ingest.planning import gate_and_plan
from kgmem.ingest.preparation import embed_inputs
from kgmem.records import ExtractedFact, Turn, WriteReceipt
from kgmem.taxonomy import ConflictStrategy
from kgmem.validation import check_namespace


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
) -> WriteReceipt:
    """Store one explicit fact as said (no rewriting), through the same gate and linking.

    The text is first stored as an Episode, so an explicit memory has provenance like any other.
    """
    from kgmem.ingest.emotion import detect_emotion
    from kgmem.ingest.scoring import SOURCE_TRUST
    from kgmem.taxonomy import Category
    from kgmem.taxonomy.parsing import parse_enum

    ns = check_namespace(namespace)
    when = now or datetime.now(UTC)
    cat = parse_enum(Category, category, "category")
    if source not in SOURCE_TRUST:
        raise InvalidInput(f"source must be one of {sorted(SOURCE_TRUST)}, got {source!r}")
    strategy = parse_enum(ConflictStrategy, strategy, "conflict strategy")
    turn = check_turn(
        Turn(text=text, role="user", session_id=session_id, at=when),  # type: ignore[arg-type]
        limit=ing.settings.max_content_chars,
    )
    episode = episode_properties(ns, turn, time.time_ns(), now=when)
    await repository.create_episodes(ing.graph, namespace=ns, episodes=[episode], now=when)
    turn = Turn(text=turn.text, role="user", session_id=session_id, at=when, turn_id=episode["id"])
    mentions = await asyncio.to_thread(ing.nlp.entities, turn.text)
    emo = detect_emotion(turn.text)
    fact = ExtractedFact(
        content=turn.text,
        category=str(cat),
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
    _, plan = await gate_and_plan(
        ing, ns, [fact], vectors, [turn], strategy, when, rep, actor="remember", source=source
    )
    steps = write_steps(ns, plan, [episode["id"]], [], when, "explicit")
    if not plan.receipts:
        raise KgmemError("remember produced no receipt (a bug)")
    try:
        await ing.graph.write_batch(steps)
    except ConcurrentWrite:
        # Already extracted: the same text at the same instant was remembered before.
        summary = await repository.find_memory_by_hash(
            ing.graph, namespace=ns, hash=content_hash(turn.text)
        )
        if summary is None:
            raise
        return WriteReceipt("reinforced", summary["id"], "already remembered")
    return plan.receipts[0]
