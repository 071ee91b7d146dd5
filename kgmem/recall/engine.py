"""The recall orchestrator: query understanding, channels, fusion, scoring, filters, MMR, touch.

Every stage but the I/O is a pure function from ``kgmem/recall`` (query, fusion, filters, scoring,
diversity, turns, xray); a request that names no channels searches its intent's (the router);
this module only sequences them around the channel searches (``channels.py``, the period a
question names among them: ``asked_time``), the claim read (``claim_channel``), the activation and
hydration queries and the touch write, and times each stage. The CPU-heavy stages run in worker
threads (the query embedding, the query's NER, the hydration's conversions, the scoring and
selection: ``selection.select``), so one process's event loop keeps serving other requests while a
recall computes. Every query is scoped to the request's namespace, so no other namespace's memory
reaches a hit or the X-ray. A ``dry`` recall reads only; otherwise the hits are touched (access
count, last access, stability, Hebbian co-activation, 2% boost to linked neighbours). A matching
turn that no memory stands for may fill in as an episode hit (``episode_hits``: where it goes, and
when); it is never touched, and the memories it pushes past the limit are dropped with that reason.
"""

from __future__ import annotations

import asyncio
from collections.abc import Sequence
from dataclasses import replace
from datetime import UTC, datetime

from kgmem import tracing
from kgmem.graph import gds, index_search, repository
from kgmem.graph.client import GraphClient
from kgmem.graph.rows import ScoredId
from kgmem.ml.embedder import Embedder
from kgmem.ml.nlp import Nlp
from kgmem.recall.asked_time import asked_periods, search_window
from kgmem.recall.candidates import Candidate, Scored
from kgmem.recall.channels import StageClock, collect, pool_size, run_channels
from kgmem.recall.claim_channel import (
    UNNAMED_USER,
    asked_about,
    claim_search,
    query_slot,
    table_for,
)
from kgmem.recall.diversity import centroid, gate_confidence, hit_confidence
from kgmem.recall.episode_hits import EPISODE_KIND, TurnMatch, wanted
from kgmem.recall.feedback import refine
from kgmem.recall.filters import Evidence, Filters
from kgmem.recall.fusion import fuse
from kgmem.recall.hyde import hyde_variants
from kgmem.recall.hydration import hydrate
from kgmem.recall.options import Activation
from kgmem.recall.profiles import get_profile
from kgmem.recall.query import Intent, decompose, should_expand, should_skip, strategy_for
from kgmem.recall.request import RecallRequest
from kgmem.recall.results import RecallHit, RecallResult
from kgmem.recall.selection import select
from kgmem.recall.touch import touch
from kgmem.recall.xray import ChannelEvidence, HitExplain, PathStep, Xray

ACTIVATION_SEEDS = 10
ACTIVATION_DECAY = 0.5  # activation halves per hop
FANOUT_CAP = 50  # entities mentioned by more memories than this do not spread activation


@tracing.traced("kgmem.recall")
async def recall(
    graph: GraphClient,
    embedder: Embedder,
    nlp: Nlp,
    req: RecallRequest,
    now: datetime | None = None,
) -> RecallResult:
    run = StageClock()
    when = now or datetime.now(UTC)
    skip = should_skip(req.query)
    if skip is not None:  # the pre-retrieval gate: no embedding, no query
        xray = Xray(req.query, "skipped", (), (), (), (), run.timings, (), ())
        return RecallResult((), xray, skip)
    strategy = strategy_for(req.query)
    intent = strategy.intent
    tracing.annotate(namespace=req.namespace, intent=str(intent), limit=req.limit)
    if not req.channels:  # the router: the intent's primary method names the searches
        req = replace(req, channels=strategy.channels)
    profile = get_profile(req.profile).tuned(
        utility_boost=strategy.utility_boost,
        vector_weight=strategy.vector_weight,
        fts_weight=strategy.fts_weight,
    )
    subs = decompose(req.query)
    run.tick("understand")
    matches: list[TurnMatch] | None = [] if wanted(req) else None
    # A question about when things happened, or one that reads what was superseded, takes a
    # turn's words in full: what a retired fact said is evidence of its time.
    history = (
        req.include_superseded
        or strategy.include_superseded
        or req.as_of is not None
        or intent is Intent.TEMPORAL
    )
    periods = asked_periods(req.query, when)
    window = search_window(periods) if "period" in req.channels else None
    ev, rankings, qvec, q_entities = await run_channels(
        graph, embedder, nlp, req, subs, run, turns=matches, history=history, period=window
    )
    guess = query_slot(req.query, qvec, table_for(embedder)) if "claim" in req.channels else None
    if guess is not None:  # a question about an attribute: who holds it now
        subjects = q_entities or asked_about(req.query)
        rows: Sequence[ScoredId] = await claim_search(graph, req.namespace, subjects, guess)
        run.queries.append("search_claim_holders")
        if not rows and subjects == {UNNAMED_USER}:
            # "the user" of a namespace whose speaker has a name: every subject, as before
            rows = await claim_search(graph, req.namespace, (), guess)
            run.queries.append("search_claim_holders")
        collect(ev, rankings, "claim", rows, "claim")
        run.tick("claim")
    if profile.feedback:
        await refine(graph, req, profile, ev, rankings, run)
    hyde: list[str] = []
    best = max((e.vector for e in ev.values() if e.vector is not None), default=None)
    if "vector" in req.channels and should_expand(_cos(best)):  # kgmem auto-expansion
        hyde = hyde_variants(req.query)
        vecs = await asyncio.to_thread(embedder.embed_query, hyde)
        rows = await index_search.search_memory_vector(
            graph,
            namespace=req.namespace,
            embedding=centroid([qvec, *vecs]),
            k=pool_size(req),
            limit=pool_size(req),
        )
        run.queries.append("search_memory_vector")
        collect(ev, rankings, "vector_hyde", rows, "vector")
        run.tick("expand")
    fused = fuse(rankings, profile.channel_weights)
    if "activation" in req.channels and fused:
        seeds = [
            {"id": mid, "weight": 1.0 / (1 + i)}
            for i, (mid, _) in enumerate(fused[:ACTIVATION_SEEDS])
        ]
        if req.activation is Activation.PAGERANK:  # GDS on the namespace's maintained projection
            rows = await gds.pagerank_memories(
                graph, req.namespace, [mid for mid, _ in fused[:ACTIVATION_SEEDS]], pool_size(req)
            )
            run.queries.append("find_pagerank_memories")
        else:
            rows = await repository.search_memory_activation(
                graph,
                namespace=req.namespace,
                seeds=seeds,
                decay=ACTIVATION_DECAY,
                fanout=FANOUT_CAP,
                limit=pool_size(req),
            )
            run.queries.append("search_memory_activation")
        collect(ev, rankings, "activation", rows, "activation")
        fused = fuse(rankings, profile.channel_weights)
        run.tick("activation")
    rrf_of = dict(fused)
    ids = [mid for mid, _ in fused[: max(pool_size(req), 3 * req.limit)]]
    pool = await hydrate(
        graph,
        query=req.query,
        namespace=req.namespace,
        ids=ids,
        ev=ev,
        rrf_of=rrf_of,
        q_entities=q_entities,
        asks_attribute=guess is not None,
        periods=periods,
    )
    run.queries.append("get_recall_candidates")
    run.tick("hydrate")
    filters = Filters(
        as_of=req.as_of,
        categories=req.categories,
        tiers=req.tiers,
        min_confidence=req.min_confidence,
        include_superseded=req.include_superseded or strategy.include_superseded,
        include_expired=strategy.include_expired,
    )
    # Scoring and selection are CPU only: a worker thread, so the loop serves other requests.
    chosen = await asyncio.to_thread(
        select, pool, req, profile, filters, when, qvec, matches or [], run.tick
    )
    order, score_of, by_id, dropped = chosen.order, chosen.score_of, chosen.by_id, chosen.dropped
    turns = pool.turns
    hits, explains = _hits(order, score_of, by_id, ev, turns)
    if not req.dry and hits:
        memories = [by_id[h.memory_id] for h in hits if h.kind == "memory"]
        await touch(graph, req.namespace, memories, when)
        run.queries.append("touch_memories")
    run.tick("touch")
    xray = Xray(
        req.query,
        str(intent),
        tuple(subs),
        tuple(hyde),
        tuple(explains),
        tuple(dropped),
        dict(run.timings),
        tuple(run.queries),
        req.channels,
    )
    return RecallResult(tuple(hits), xray)


def _cos(raw: float | None) -> float | None:
    return None if raw is None else max(0.0, 2.0 * raw - 1.0)  # Neo4j cosine score → cosine


def _turn_hit(t: TurnMatch, score: float) -> tuple[RecallHit, HitExplain]:
    """An episode hit takes the score of the hit before it: it fills in, it is not ranked."""
    channels = (ChannelEvidence("episode", t.rank, t.score),)
    turn = (t.turn_id or t.episode_id,)
    hit = RecallHit(
        t.episode_id, t.content, score, EPISODE_KIND, "active", "full", turn, t.at, None,
        channels, kind=EPISODE_KIND,
    )  # fmt: skip
    explain = HitExplain(
        memory_id=t.episode_id,
        content=t.content,
        final_score=score,
        contributions={"episode_turn": score},
        channels=channels,
        valid_from=t.at,
        episodes=turn,
        factors={"episode_turn_rank": float(t.rank)},
        injection="full",
        kind=EPISODE_KIND,
    )
    return hit, explain


def _hits(
    order: Sequence[str | TurnMatch],
    score_of: dict[str, Scored],
    by_id: dict[str, Candidate],
    ev: dict[str, Evidence],
    turns: dict[str, tuple[str, ...]],
) -> tuple[list[RecallHit], list[HitExplain]]:
    hits: list[RecallHit] = []
    explains: list[HitExplain] = []
    for mid in order:
        if isinstance(mid, TurnMatch):
            hit, explain = _turn_hit(mid, hits[-1].score if hits else 0.0)
            hits.append(hit)
            explains.append(explain)
            continue
        s, c, e = score_of[mid], by_id[mid], ev[mid]
        channels = tuple(ChannelEvidence(name, r, raw) for name, (r, raw) in e.ranks.items())
        injection = gate_confidence(hit_confidence(s))
        hits.append(
            RecallHit(
                mid,
                c.content,
                s.final,
                c.category,
                c.status,
                injection,
                turns.get(mid, ()),
                c.valid_from,
                c.valid_until,
                channels,
            )
        )
        explains.append(
            HitExplain.from_scored(
                s,
                c.content,
                channels=channels,
                path=_path(e),
                valid_from=c.valid_from,
                valid_until=c.valid_until,
                status=c.status,
                episodes=turns.get(mid, ()),
                injection=injection,
            )
        )
    return hits, explains


def _path(e: Evidence) -> tuple[PathStep, ...]:
    """The graph path that brought a hit: alternating nodes and edges, with edge confidences."""
    if not e.path:
        return ()
    steps: list[PathStep] = []
    confs = list(e.path_confidences)
    nodes = e.path[0::2]
    edges = e.path[1::2]
    for i, node in enumerate(nodes):
        edge = edges[i - 1] if i > 0 and i - 1 < len(edges) else None
        conf = confs[i - 1] if i > 0 and i - 1 < len(confs) else None
        steps.append(PathStep(str(node), "node", str(node), edge, conf))
    return tuple(steps)
