"""From a batch's facts to its ``WritePlan``: the batch dedup, the gate against each candidate's
nearest stored memories (one vector/hash neighbour search for the batch), re-embedding of merged
texts, scoring and tag capture, entity resolution, linking, and the session boxes and traces.

``gate_and_plan`` reads the graph (neighbours, entity candidates, open boxes) but never writes:
what it returns is the plan that ``commit.write_steps`` turns into one transaction. The decisions
themselves are the pure stages (``write_gate``, ``scoring``, ``rows``, ``boxes``); this module
gathers their inputs and maps graph rows onto their records.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Sequence
from dataclasses import replace
from datetime import datetime
from typing import Any

from kgmem.core.text import content_hash, normalize_name
from kgmem.core.time import as_utc
from kgmem.core.tunables import READ_CONFIDENCE
from kgmem.graph import index_search, repository
from kgmem.ingest.claims.reading import ClaimInput, ClaimReader
from kgmem.ingest.extractors.emotion import Category as EmotionCategory
from kgmem.ingest.extractors.emotion import Emotion
from kgmem.ingest.extractors.preparation import Vectors
from kgmem.ingest.extractors.rewrite import speaker_label
from kgmem.ingest.gate.batch_dedup import group_batch
from kgmem.ingest.gate.records import Neighbour
from kgmem.ingest.ingestor import Ingestor
from kgmem.ingest.link.boxes import BoxState
from kgmem.ingest.link.tagging import TagCandidate, tag_and_capture
from kgmem.ingest.link.traces import Trace
from kgmem.ingest.plan.box_rows import plan_boxes
from kgmem.ingest.plan.reconcile import reconcile
from kgmem.ingest.plan.records import Candidate, WritePlan
from kgmem.ingest.plan.resolution import resolve_entities
from kgmem.ingest.plan.rows import plan_writes
from kgmem.ingest.plan.scoring import peer_similarities, score_candidate
from kgmem.ingest.plan.subjects import with_subjects
from kgmem.ingest.reports import ExtractionReport
from kgmem.records import Claim, ExtractedFact, Turn
from kgmem.taxonomy import ConflictStrategy
from kgmem.taxonomy.slots import holder_families

NEIGHBOURS_K = 10
CLAIM_HOLDERS_K = 10  # live memories read per candidate claim (a slot's current values)


async def gate_and_plan(
    ing: Ingestor,
    ns: str,
    facts: list[ExtractedFact],
    vectors: Vectors,
    turns: list[Turn],
    strategy: ConflictStrategy,
    now: datetime,
    rep: ExtractionReport,
    actor: str = "observe",
    source: str | None = None,
) -> tuple[list[Candidate], WritePlan]:
    t0 = time.perf_counter()
    if not facts:
        return [], WritePlan()
    embeddings, name_vecs = vectors.facts, vectors.names
    groups = group_batch(facts, embeddings=embeddings)
    by_id = {t.turn_id: t for t in turns}
    claims = await asyncio.to_thread(_read_claims, ing, groups, embeddings, by_id)
    candidates: list[Candidate] = []
    speakers: list[str | None] = []
    for key, g in enumerate(groups):
        f = _state_outlives_plan(g.fact, claims[key])
        src = [by_id[s] for s in f.source_turn_ids if s in by_id]
        first = src[0] if src else turns[0]
        entities = frozenset(n for n in (normalize_name(e.name) for e in f.entities) if n)
        speakers.append(speaker_label(first.speaker, first.role) if src else None)
        candidates.append(
            Candidate(
                key=key,
                fact=f,
                hash=content_hash(f.content),
                embedding=embeddings[g.representative],
                entities=entities,
                episode_ids=tuple(s.turn_id for s in src if s.turn_id),
                session_id=first.session_id,
                at=first.at or now,
                source=source or ("human" if first.role == "user" else "agent"),
                claim=claims[key],
            )
        )
    candidates = await asyncio.to_thread(
        with_subjects, candidates, speakers, name_vecs, ing.embedder.embed_query
    )
    rows = await index_search.search_memory_neighbours(
        ing.graph,
        namespace=ns,
        k=NEIGHBOURS_K,
        items=[
            {"key": c.key, "hash": c.hash, "embedding": c.embedding, "subject_vector": c.subject}
            for c in candidates
        ],
    )
    neighbours = {int(r["key"]): [_neighbour(n) for n in r["neighbours"]] for r in rows}
    holder_rows = await index_search.find_claim_holders(
        ing.graph,
        namespace=ns,
        limit=CLAIM_HOLDERS_K,
        items=[
            {
                "key": c.key,
                "subject": c.claim.subject,
                "families": holder_families(c.claim.slot),
                "embedding": c.embedding,
                "subject_vector": c.subject,
            }
            for c in candidates
            if c.claim is not None
        ],
    )
    holders = {k: [_neighbour(n) for n in hs] for k, hs in holder_rows.items()}
    decisions = reconcile(
        candidates,
        neighbours,
        holders,
        strategy,
        now,
        min_claim_confidence=ing.settings.claim_min_confidence,
        neighbours_k=NEIGHBOURS_K,
    )
    t0 = rep.tick("gate", t0)
    merged = [
        (c.key, d.merged_content)
        for c, d in zip(candidates, decisions, strict=True)
        if d.merged_content
    ]
    merged_vecs = await asyncio.to_thread(ing.embedder.embed, [m for _, m in merged])
    t0 = rep.tick("embed", t0)
    scores, captured = _score(candidates, neighbours)
    resolutions = await resolve_entities(ing, ns, candidates, name_vecs)
    plan = plan_writes(
        candidates,
        decisions,
        scores,
        captured,
        resolutions,
        neighbours,
        {k: v for (k, _), v in zip(merged, merged_vecs, strict=True)},
        now=now,
        actor=actor,
    )
    for row in plan.entities:  # new entities carry their name embedding for later resolution
        row["embedding"] = name_vecs.get(row["normalized_name"])
    boxes_row = await repository.find_open_boxes(
        ing.graph,
        namespace=ns,
        sessions=sorted({c.session_id or "-" for c in candidates}),
        trace_limit=200,
    )
    open_boxes = {
        b["session_id"]: BoxState(
            b["id"],
            frozenset(b["topics"] or []),
            tuple(b["memory_ids"]),
            as_utc(b["opened_at"]),
            as_utc(b["last_at"]),
        )
        for b in boxes_row["boxes"]
    }
    traces = [
        Trace(t["id"], frozenset(t["topics"] or []), tuple(t["box_ids"]), as_utc(t["last_at"]))
        for t in boxes_row["traces"]
    ]
    plan_boxes(plan, candidates, open_boxes, traces)
    rep.tick("link", t0)
    return candidates, plan


# Slots a plan's date bounds: a deadline or goal passes with its date; a home or a job does not.
_DATED_FAMILIES = frozenset({"goal", "deadline", "budget", "quantity"})


def _state_outlives_plan(fact: ExtractedFact, claim: Claim | None) -> ExtractedFact:
    """The fact without the plan's expiry when it states where one lives, works, what one has or
    no longer has: "closed on a house in Denver, moving next week" is still where Maya lives
    after that week, "recovered from the flu, back at work tomorrow" still says she is well (the
    plan's date expires plans, not the state they bring about)."""
    if (
        fact.valid_until is None
        or claim is None
        or claim.confidence < READ_CONFIDENCE
        or claim.slot.partition(":")[0] in _DATED_FAMILIES
    ):
        return fact
    return replace(fact, valid_until=None)


def _read_claims(
    ing: Ingestor,
    groups: Sequence[Any],
    embeddings: list[list[float]],
    by_id: dict[str | None, Turn],
) -> list[Claim | None]:
    """Each group's claim: the engine's own (the LLM's), else the local reader's (lexicon, then
    the slot prototypes over the fact's embedding). Models run here: call it in a thread."""
    local: dict[int, ClaimInput] = {}
    for i, g in enumerate(groups):
        f = g.fact
        if f.claim is None:
            src = [by_id[s] for s in f.source_turn_ids if s in by_id]
            speaker = speaker_label(src[0].speaker, src[0].role) if src else None
            entities = frozenset(n for n in (normalize_name(e.name) for e in f.entities) if n)
            local[i] = ClaimInput(f.content, embeddings[g.representative], speaker, entities)
    read = ClaimReader(ing.embedder, ing.nlp).read_many(list(local.values()))
    by_group = dict(zip(local, read, strict=True))
    return [by_group.get(i, g.fact.claim) for i, g in enumerate(groups)]


def _neighbour(n: dict[str, Any]) -> Neighbour:
    claim = None
    if n.get("claim_slot") and n.get("claim_subject"):
        claim = Claim(
            subject=n["claim_subject"],
            slot=n["claim_slot"],
            value=n.get("claim_value") or "",
            polarity=n.get("claim_polarity") or "holds",
            confidence=float(n.get("claim_confidence") or 0.0),
        )
    return Neighbour(
        claim=claim,
        memory_id=n["id"],
        content=n["content"],
        content_hash=n["content_hash"],
        similarity=float(n["similarity"]),
        subject_similarity=_opt_float(n.get("subject_similarity")),
        category=n.get("category") or "fact",
        status=n.get("status") or "active",
        valid_from=_opt_utc(n.get("valid_from")),
        valid_until=_opt_utc(n.get("valid_until")),
        entities=tuple(n.get("entities") or ()),
        importance=float(n.get("importance") or 0.5),
        utility=float(n.get("utility") or 0.5),
        confidence=float(n.get("confidence") or 0.5),
        pinned=bool(n.get("pinned")),
        immutable=bool(n.get("immutable")),
        created_at=_opt_utc(n.get("created_at")),
    )


def _opt_float(value: object) -> float | None:
    return float(value) if isinstance(value, int | float) else None


def _opt_utc(value: object) -> datetime | None:
    return as_utc(value) if value is not None else None


def _score(
    candidates: Sequence[Candidate], neighbours: dict[int, list[Neighbour]]
) -> tuple[list[Any], frozenset[int]]:
    scores = []
    tags: tuple[Any, ...] = ()
    captured: set[str] = set()
    for c in candidates:
        emotion = Emotion(
            valence=c.fact.valence,
            arousal=c.fact.arousal,
            category=_EKMAN.get(c.fact.emotion, "neutral"),
        )
        s = score_candidate(
            confidence=c.fact.confidence,
            emotion=emotion,
            source=c.source,
            neighbour_similarities=peer_similarities(
                neighbours.get(c.key, []), c.claim, c.entities
            ),
        )
        scores.append(s)
        tags, got = tag_and_capture(
            TagCandidate(str(c.key), s.importance, c.session_id, c.at), tags
        )
        captured.update(got)
    return scores, frozenset(int(k) for k in captured)


_EKMAN: dict[str, EmotionCategory] = {
    e: e for e in ("joy", "sadness", "anger", "fear", "surprise", "disgust", "neutral")
}
