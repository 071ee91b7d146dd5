"""The write-path orchestrator: durable intake, extraction, the gate, scoring, linking, one commit.

``observe`` validates every turn before any I/O, stores the turns as ``:Episode`` nodes (the
durable smart buffer), and extracts when a trigger fires: a HIGH signal, N pending turns, the
oldest pending turn older than T, or ``flush``. ``extract_pending`` reads pending episodes, runs
the pure stages (signal scan and observer filters, local or LLM extraction, batch dedup, the
gate, scoring, entity resolution, linking, boxes) with I/O only at the edges (models in worker
threads, graph reads before, one write transaction after). The commit claims its episodes inside
the transaction, so a crash before it leaves them pending (nothing lost) and a concurrent or
repeated run cannot extract them twice (nothing duplicated).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
import uuid
from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any

from kgmem.errors import ConcurrentWrite, InvalidInput, KgmemError, LLMError
from kgmem.graph import index_search, repository
from kgmem.graph.client import GraphClient, Row, Step
from kgmem.ingest.boxes import BoxState, Trace
from kgmem.ingest.buffer import DEFAULT_MAX_AGE, DEFAULT_MAX_TURNS
from kgmem.ingest.emotion import Category as EmotionCategory
from kgmem.ingest.emotion import Emotion
from kgmem.ingest.entities import KnownEntity, resolve_mentions
from kgmem.ingest.episodes import as_utc, check_turn, episode_properties, turn_of
from kgmem.ingest.gate import Neighbour, decide, group_batch
from kgmem.ingest.llm_extractor import extract_with_llm
from kgmem.ingest.local_extractor import extract_local
from kgmem.ingest.normalize import content_hash, normalize_name
from kgmem.ingest.plan import Candidate, WritePlan, plan_boxes, plan_writes
from kgmem.ingest.scoring import TagCandidate, score_candidate, tag_and_capture
from kgmem.ingest.signals import SignalLevel, scan
from kgmem.ml.embedder import Embedder
from kgmem.ml.llm import LLMClient
from kgmem.ml.nlp import Nlp
from kgmem.records import ExtractedFact, Turn, WriteReceipt
from kgmem.settings import Settings
from kgmem.taxonomy import ConflictStrategy
from kgmem.validation import check_namespace

log = logging.getLogger("kgmem.ingest")
NEIGHBOURS_K = 10
BATCH_EPISODES = 64  # episodes per extraction transaction
# Concurrent extractors of one namespace read the same pending batch; the first commit wins and
# the others roll back (the claim check). A loser re-reads what is still pending, so each retry
# follows someone's progress; past this many it leaves the rest to the writer that is winning.
MAX_CONFLICTS = 8
SOFT_FILTERS = frozenset({"low_density"})
AUTO_LLM_BELOW = 0.40  # llm_level=auto: ask the LLM when local facts are speculative (seed 000)


@dataclass
class Ingestor:
    """What the write path needs: settings, the graph gateway and the models."""

    settings: Settings
    graph: GraphClient
    embedder: Embedder
    nlp: Nlp
    llm: LLMClient | None = None
    # One extractor per namespace in this process: concurrent observes would otherwise all read
    # the same pending batch, extract it, and all but one roll back (measured: 1,828 wasted
    # batches in 600 observes from 16 clients). Other processes still race; the claim check in
    # the commit transaction settles that.
    _extracting: dict[str, asyncio.Lock] = field(default_factory=dict, repr=False)

    def extraction_lock(self, namespace: str) -> asyncio.Lock:
        return self._extracting.setdefault(namespace, asyncio.Lock())


@dataclass
class ExtractionReport:
    receipts: list[WriteReceipt] = field(default_factory=list)
    episodes: int = 0
    skipped_turns: int = 0
    engine: str = "local"
    timings: dict[str, float] = field(default_factory=dict)
    # batches another writer extracted first (its result stands, ours was rolled back)
    conflicts: int = 0
    deferred: bool = False  # gave up after MAX_CONFLICTS: what is still pending waits its turn

    def tick(self, stage: str, t0: float) -> float:
        now = time.perf_counter()
        self.timings[stage] = self.timings.get(stage, 0.0) + (now - t0)
        return now


@dataclass(frozen=True)
class ObserveReport:
    episode_ids: tuple[str, ...]
    new_episodes: int
    trigger: str  # high_signal | max_turns | max_age | flush | buffered
    extraction: ExtractionReport | None


async def observe(
    ing: Ingestor,
    turns: Sequence[object],
    *,
    namespace: object,
    strategy: ConflictStrategy = ConflictStrategy.TEMPORAL,
    flush: bool = False,
    now: datetime | None = None,
) -> ObserveReport:
    ns = check_namespace(namespace)
    when = now or datetime.now(UTC)
    if isinstance(turns, str | bytes) or not isinstance(turns, Sequence) or not turns:
        raise KgmemError("observe needs a non-empty list of turns")
    clean = [check_turn(t, limit=ing.settings.max_content_chars) for t in turns]
    base = time.time_ns()
    episodes = [episode_properties(ns, t, base + i, now=when) for i, t in enumerate(clean)]
    rows = await repository.create_episodes(ing.graph, namespace=ns, episodes=episodes, now=when)
    new = sum(1 for r in rows if r["created"])
    trigger = "flush" if flush else _trigger(clean)
    if trigger == "buffered":
        summary = await repository.get_pending_summary(ing.graph, namespace=ns)
        oldest = summary.get("oldest")
        if summary["pending"] >= DEFAULT_MAX_TURNS:
            trigger = "max_turns"
        elif oldest is not None and when - as_utc(oldest) > DEFAULT_MAX_AGE:
            trigger = "max_age"
    report = None
    if trigger != "buffered":
        report = await extract_pending(ing, namespace=ns, strategy=strategy, now=when)
    return ObserveReport(tuple(e["id"] for e in episodes), new, trigger, report)


def _trigger(turns: Sequence[Turn]) -> str:
    for t in turns:  # seed 000: a HIGH signal extracts now
        if scan(t.text, t.role).level >= SignalLevel.HIGH:
            return "high_signal"
    return "buffered"


async def extract_pending(
    ing: Ingestor,
    *,
    namespace: str,
    strategy: ConflictStrategy = ConflictStrategy.TEMPORAL,
    now: datetime | None = None,
    max_batches: int | None = None,
) -> ExtractionReport:
    """Extract every pending episode of a namespace, one transaction per batch."""
    async with ing.extraction_lock(namespace):
        return await _extract_all(ing, namespace, strategy, now, max_batches)


async def _extract_all(
    ing: Ingestor,
    namespace: str,
    strategy: ConflictStrategy,
    now: datetime | None,
    max_batches: int | None,
) -> ExtractionReport:
    total = ExtractionReport()
    batches = 0
    # Models and graph overlap: while batch N is gated and committed (graph round trips, server
    # CPU), batch N+1 is parsed, extracted and embedded (client CPU). Only the gate needs N's
    # writes, so the models' half of N+1 can start early. The prefetch is used only if the next
    # read of the pending queue starts with exactly its episodes, so batch boundaries (and so
    # what is extracted) are the ones a sequential loop would have used.
    ahead: asyncio.Task[_Prepared] | None = None
    try:
        while max_batches is None or batches < max_batches:
            rows = await repository.find_pending_episodes(
                ing.graph, namespace=namespace, limit=2 * BATCH_EPISODES
            )
            if not rows:
                break
            batch = [r["episode"] for r in rows[:BATCH_EPISODES]]
            following = [r["episode"] for r in rows[BATCH_EPISODES:]]
            prepared = await _claim_prefetch(ahead, batch)
            ahead = None
            if prepared is None:
                prepared = await _prepare(ing, batch)
            if following and (max_batches is None or batches + 1 < max_batches):
                ahead = asyncio.create_task(_prepare(ing, following))
            try:
                report = await _commit(ing, namespace, prepared, strategy, now or datetime.now(UTC))
            except ConcurrentWrite:
                total.conflicts += 1
                if total.conflicts >= MAX_CONFLICTS:
                    total.deferred = True
                    break
                continue
            total.receipts += report.receipts
            total.episodes += report.episodes
            total.skipped_turns += report.skipped_turns
            total.engine = report.engine
            for k, v in report.timings.items():
                total.timings[k] = total.timings.get(k, 0.0) + v
            batches += 1
    finally:
        if ahead is not None:
            ahead.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await ahead
    return total


@dataclass
class _Prepared:
    """A batch's model work, done before the graph is asked anything about it."""

    episodes: list[dict[str, Any]]
    turns: list[Turn]
    skips: list[dict[str, Any]]
    facts: list[ExtractedFact]
    vectors: _Vectors
    report: ExtractionReport


@dataclass(frozen=True)
class _Vectors:
    facts: list[list[float]]
    names: dict[str, list[float]]


async def _claim_prefetch(
    ahead: asyncio.Task[_Prepared] | None, batch: list[dict[str, Any]]
) -> _Prepared | None:
    if ahead is None:
        return None
    try:
        prepared = await ahead
    except Exception:  # prepared again in line below, where the failure surfaces
        return None
    same = [e["id"] for e in prepared.episodes] == [e["id"] for e in batch]
    return prepared if same else None


async def _prepare(ing: Ingestor, episodes: list[dict[str, Any]]) -> _Prepared:
    rep = ExtractionReport(episodes=len(episodes))
    t0 = time.perf_counter()
    turns = [turn_of(e) for e in episodes]
    kept: list[Turn] = []
    skips: list[dict[str, Any]] = []
    for t in turns:
        verdict = scan(t.text, t.role).verdict
        # The density gate is advisory here: the regex density misses facts spaCy sees ("Oskar
        # plays the cello" scores 1), and the extractor drops real filler on its own parse.
        hard = [r for r in verdict.reasons if r not in SOFT_FILTERS]
        if verdict.keep or not hard:
            kept.append(t)
        else:
            skips.append({"id": t.turn_id, "reasons": list(verdict.reasons)})
    rep.skipped_turns = len(skips)
    rep.tick("signal_scan", t0)
    facts = await _extract(ing, kept, rep)
    vectors = await _embed_inputs(ing, facts, rep)
    return _Prepared(episodes, turns, skips, facts, vectors, rep)


async def _commit(
    ing: Ingestor,
    ns: str,
    prepared: _Prepared,
    strategy: ConflictStrategy,
    now: datetime,
) -> ExtractionReport:
    rep = prepared.report
    turns = prepared.turns
    _, plan = await _gate_and_plan(
        ing, ns, prepared.facts, prepared.vectors, turns, strategy, now, rep
    )
    t0 = time.perf_counter()
    steps = _steps(ns, plan, [t.turn_id or "" for t in turns], prepared.skips, now, rep.engine)
    await ing.graph.write_batch(steps)
    rep.tick("neo4j_write", t0)
    rep.receipts = plan.receipts
    return rep


async def _extract(ing: Ingestor, turns: list[Turn], rep: ExtractionReport) -> list[ExtractedFact]:
    if not turns:
        return []
    level = ing.settings.llm_level
    llm = ing.llm if ing.llm is not None and ing.llm.configured else None
    local: list[ExtractedFact] | None = None
    if level != "always" or llm is None:
        local = await _local(ing, turns, rep)
        uncertain = not local or sum(f.confidence for f in local) / len(local) < AUTO_LLM_BELOW
        if llm is None or level == "off" or (level == "auto" and not uncertain):
            return local
    assert llm is not None
    t0 = time.perf_counter()
    try:
        facts = await extract_with_llm(llm, turns)
        rep.tick("llm", t0)
        rep.engine = "llm"
        return facts
    except LLMError as exc:  # fall back to the local engine; the failure is logged, not hidden
        rep.tick("llm", t0)
        log.warning("LLM extraction failed (%s); using the local engine", exc.message)
        rep.engine = "local (llm fallback)"
        if local is None:
            local = await _local(ing, turns, rep)
        return local


async def _local(ing: Ingestor, turns: list[Turn], rep: ExtractionReport) -> list[ExtractedFact]:
    """The local engine: spaCy parses in a worker thread, then the pure extractor."""
    t0 = time.perf_counter()
    docs = await asyncio.to_thread(lambda: list(ing.nlp.pipeline().pipe(t.text for t in turns)))
    t0 = rep.tick("spacy", t0)
    facts = extract_local(turns, docs)
    rep.tick("extract_local", t0)
    return facts


async def _embed_inputs(
    ing: Ingestor, facts: list[ExtractedFact], rep: ExtractionReport
) -> _Vectors:
    """One embedder call for the facts and their entity names (entity resolution by embedding)."""
    t0 = time.perf_counter()
    surfaces = {normalize_name(m.name): m.name for f in facts for m in f.entities}
    surfaces.pop("", None)
    names = sorted(surfaces)
    texts = [f.content for f in facts] + [surfaces[n] for n in names]
    vectors = await asyncio.to_thread(ing.embedder.embed, texts) if texts else []
    rep.tick("embed", t0)
    return _Vectors(vectors[: len(facts)], dict(zip(names, vectors[len(facts) :], strict=True)))


async def _gate_and_plan(
    ing: Ingestor,
    ns: str,
    facts: list[ExtractedFact],
    vectors: _Vectors,
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
    candidates: list[Candidate] = []
    for key, g in enumerate(groups):
        f = g.fact
        src = [by_id[s] for s in f.source_turn_ids if s in by_id]
        first = src[0] if src else turns[0]
        candidates.append(
            Candidate(
                key=key,
                fact=f,
                hash=content_hash(f.content),
                embedding=embeddings[g.representative],
                entities=frozenset(n for n in (normalize_name(e.name) for e in f.entities) if n),
                episode_ids=tuple(s.turn_id for s in src if s.turn_id),
                session_id=first.session_id,
                at=first.at or now,
                source=source or ("human" if first.role == "user" else "agent"),
            )
        )
    rows = await index_search.search_memory_neighbours(
        ing.graph,
        namespace=ns,
        k=NEIGHBOURS_K,
        items=[{"key": c.key, "hash": c.hash, "embedding": c.embedding} for c in candidates],
    )
    neighbours = {int(r["key"]): [_neighbour(n) for n in r["neighbours"]] for r in rows}
    decisions = [
        decide(c.fact, c.hash, c.entities, neighbours.get(c.key, []), strategy, now)
        for c in candidates
    ]
    t0 = rep.tick("gate", t0)
    merged = [
        (c.key, d.merged_content)
        for c, d in zip(candidates, decisions, strict=True)
        if d.merged_content
    ]
    merged_vecs = await asyncio.to_thread(ing.embedder.embed, [m for _, m in merged])
    t0 = rep.tick("embed", t0)
    scores, captured = _score(candidates, neighbours)
    resolutions = await _resolve_entities(ing, ns, candidates, name_vecs)
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


def _neighbour(n: dict[str, Any]) -> Neighbour:
    return Neighbour(
        memory_id=n["id"],
        content=n["content"],
        content_hash=n["content_hash"],
        similarity=float(n["similarity"]),
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
            neighbour_similarities=[n.similarity for n in neighbours.get(c.key, [])],
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


async def _resolve_entities(
    ing: Ingestor, ns: str, candidates: Sequence[Candidate], name_vecs: dict[str, list[float]]
) -> dict[int, list[Any]]:
    mentions = [m for c in candidates for m in c.fact.entities]
    names = sorted({normalize_name(m.name) for m in mentions} - {""})
    if not names:
        return {}
    rows = await repository.find_entity_candidates(
        ing.graph,
        namespace=ns,
        names=names,
        tokens=sorted({n.split(" ")[0] for n in names}),
        fuzzy=[_fuzzy(n) for n in names if len(n) >= 5],
    )
    vec_rows = await repository.search_entity_vector(
        ing.graph,
        namespace=ns,
        k=3,
        items=[{"key": n, "embedding": name_vecs[n]} for n in names if n in name_vecs],
    )
    known: dict[str, KnownEntity] = {}
    vectors: dict[str, Sequence[tuple[str, float]]] = {}
    for r in [*rows, *vec_rows]:
        e = r["entity"]
        known[e["id"]] = KnownEntity(
            e["id"], e["name"], e["normalized_name"], e["type"], tuple(e.get("aliases_norm") or ())
        )
        if "score" in r:
            vectors[r["key"]] = [*vectors.get(r["key"], ()), (e["id"], float(r["score"]))]
    ordered = sorted(known.values(), key=lambda k: k.id)
    out: dict[int, list[Any]] = {}
    # One resolution pass over the whole batch keeps it consistent across candidates.
    resolved = {
        r.normalized_name: r
        for r in resolve_mentions(mentions, ordered, lambda: str(uuid.uuid4()), vectors)
    }
    for c in candidates:
        out[c.key] = [
            resolved[n]
            for n in dict.fromkeys(normalize_name(m.name) for m in c.fact.entities)
            if n in resolved
        ]
    return out


def _fuzzy(name: str) -> str:
    from kgmem.recall.lucene import escape_term

    return " AND ".join(f"{escape_term(t)}~1" for t in name.split() if t)


def _steps(
    ns: str,
    plan: WritePlan,
    episode_ids: list[str],
    skips: list[dict[str, Any]],
    now: datetime,
    engine: str,
) -> list[Step]:
    wanted = len(episode_ids)

    def claimed_all(rows: list[Row]) -> None:
        if rows[0]["claimed"] != wanted:
            raise ConcurrentWrite("another worker extracted these turns first; retry")

    r = repository
    steps = [
        r.claim_episodes(namespace=ns, ids=episode_ids, now=now, engine=engine, check=claimed_all)
    ]
    if skips:
        steps.append(r.skip_episodes(namespace=ns, skips=skips))
    if plan.memories:
        steps.append(r.create_memories(namespace=ns, memories=plan.memories))
    if plan.updates:
        steps.append(r.update_memories(namespace=ns, updates=plan.updates))
    if plan.changes:
        steps.append(r.supersede_memories(namespace=ns, changes=plan.changes))
    if plan.links:
        steps.append(r.link_memories(namespace=ns, links=plan.links))
    if plan.entities or plan.mentions:
        steps.append(r.merge_entities(namespace=ns, entities=plan.entities, mentions=plan.mentions))
    if plan.relations:
        steps.append(r.relate_entities(namespace=ns, relations=plan.relations))
    if plan.memories or plan.updates or plan.changes or plan.links:
        steps.append(r.bump_namespace(namespace=ns, now=now))
    if plan.boxes or plan.members:
        steps.append(
            r.write_boxes(namespace=ns, boxes=plan.boxes, members=plan.members, traces=plan.traces)
        )
    return steps


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
    from kgmem.taxonomy import Category, parse_enum

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
    vectors = await _embed_inputs(ing, [fact], rep)
    _, plan = await _gate_and_plan(
        ing, ns, [fact], vectors, [turn], strategy, when, rep, actor="remember", source=source
    )
    steps = _steps(ns, plan, [episode["id"]], [], when, "explicit")
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
