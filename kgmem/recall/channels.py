"""The channel searches of one recall, and the stage clock that times them.

``run_channels`` starts every channel of a request at once (vector, memory and episode fulltext,
entity, the period the question names) for the query and each sub-query, with the query
embedding's model run in a worker thread from the start, overlapping spaCy's entities (found in
another worker thread) and then the searches, and collects each channel's ranked rows into
per-memory ``Evidence`` in a fixed order, so ranks, fusion and X-ray paths never depend on which
search answered first. The main query's episode search also names the matching turns no memory
was derived from, handed to the caller's ``turns`` list (``episode_hits``).
``collect`` turns one channel's rows into evidence and a ranking; ``pool_size`` is the
candidate depth every channel fetches (the 3x overfetch for MMR).
A profile with a ``hub_boost`` below 1 first reads the namespace's hub names (entities most of
its memories mention, ``find_hub_names``, memoised for a minute per graph client) alongside the
embedding, and its text searches weigh those names at that boost. Every search is scoped to
the request's namespace.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Awaitable, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from kgmem import tracing
from kgmem.core.text import normalize_name
from kgmem.graph import hub_names, index_search, repository
from kgmem.graph.client import GraphClient
from kgmem.graph.index_search import RETIRED_TURN_SHARE
from kgmem.graph.rows import PathHit, ScoredId, TurnRow
from kgmem.ml.embedder import Embedder
from kgmem.ml.nlp import Nlp
from kgmem.recall.asked_time import AskedPeriod
from kgmem.recall.episode_hits import MAX_TURN_RANK, TurnMatch, unclaimed_turns
from kgmem.recall.filters import Evidence
from kgmem.recall.lucene import QUESTION_WORDS, hub_words, to_lucene
from kgmem.recall.profiles import get_profile
from kgmem.records import EntityMention

if TYPE_CHECKING:
    from kgmem.recall.request import RecallRequest

Hits = Sequence[ScoredId]  # a channel's ranked memory hits, best first


@dataclass
class StageClock:
    timings: dict[str, float] = field(default_factory=dict)
    queries: list[str] = field(default_factory=list)
    t: float = field(default_factory=time.perf_counter)

    def tick(self, stage: str) -> None:
        now = time.perf_counter()
        tracing.stage(f"recall.{stage}", self.t, now)  # the X-ray's timing is the span's too
        self.timings[stage] = round(self.timings.get(stage, 0.0) + (now - self.t) * 1000, 3)
        self.t = now


# An entity that at least this share of a namespace's memories mention is a hub (a speaker of a
# conversation); the profile's hub_boost weighs its names in the text searches.
HUB_SHARE = 0.1
HUB_LIMIT = 20


# Raw BM25 of a weak best match. The fulltext indexes are shared by every namespace, so a name
# keeps its store-wide rarity; at the hub boost (profiles.HUB_BOOST) a memory matched on its
# speaker's name alone scored 1.0-1.2, one matched on a content word 3 and more. Own corpus of
# changes with eight unrelated turns per person: current value first 0.807 -> 0.880 on the tune
# half (floors 2, 4 and 8 alike), 0.604 -> 0.670 on the confirm half; LoCoMo dev replay, where
# the best matches are strong, unchanged (R@10 0.685 -> 0.686, MRR 0.522 on both).
BM25_FLOOR = 4.0

# The most memories a named day or week may hold for the period channel to read them all. A
# LoCoMo day holds under a hundred; a store of 100k memories over a year about 275 a day, 800
# with the slack, which cost 30 ms to score: a fuller period is left to the time boost.
PERIOD_SCAN = 200


def pool_size(req: RecallRequest) -> int:
    return max(50, 3 * req.limit)  # 3x overfetch for the MMR pool


def collect(
    ev: dict[str, Evidence],
    rankings: list[tuple[str, list[str]]],
    name: str,
    rows: Sequence[ScoredId],
    kind: str,
) -> None:
    ranking = []
    # BM25 scores are comparable only within one index and query: a fulltext hit counts as its
    # share of its own list's best, so memory text and episode text can share the bm25 factor.
    # A best that is itself weak (only the person's name matched: "Where does Maya work?" over
    # memories that say nothing of work) is no full match: the share is of at least BM25_FLOOR.
    best = max((r.score for r in rows), default=0.0) or 1.0
    if kind == "fulltext":
        best = max(best, BM25_FLOOR)
    for i, row in enumerate(rows, start=1):
        e = ev.setdefault(row.id, Evidence())
        score = row.score
        e.ranks.setdefault(name, (i, score))
        if kind == "vector":
            e.vector = max(e.vector or 0.0, score)
        elif kind == "fulltext":
            e.bm25 = max(e.bm25 or 0.0, score / best)
        elif kind == "activation":
            e.activation = max(e.activation or 0.0, score)
        elif kind == "entity":
            e.entity = max(e.entity or 0.0, score)
        if isinstance(row, PathHit) and row.path and not e.path:
            e.path = row.path
            e.path_confidences = row.confidences
        ranking.append(row.id)
    rankings.append((name, ranking))


async def run_channels(
    graph: GraphClient,
    embedder: Embedder,
    nlp: Nlp,
    req: RecallRequest,
    subs: list[str],
    run: StageClock,
    turns: list[TurnMatch] | None = None,
    history: bool = False,
    period: AskedPeriod | None = None,
) -> tuple[dict[str, Evidence], list[tuple[str, list[str]]], list[float], frozenset[str]]:
    """The channels' evidence and rankings, the query embedding and the query's entities;
    ``turns``, when given, receives the query's matching turns no memory stands for (the
    episode channel's unclaimed turns, ``episode_hits``). ``history``: the recall reads
    superseded memories or asks when, so a turn that gave a retired fact matches for all its
    memories in full. ``period``: the day or week the question names, whose memories the
    period channel reads alongside the other searches (``asked_time.search_window``)."""
    queries = [req.query, *subs[1:]] if len(subs) > 1 else [req.query]
    share = 1.0 if history else RETIRED_TURN_SHARE
    k = pool_size(req)
    ns = req.namespace
    # The query embedding's model run is handed to a worker thread at once (``submit_query``: a
    # ``to_thread`` task would start only when the loop next ran), so ONNX Runtime, which
    # releases the GIL, runs on another core; spaCy's NER of the query runs in a worker thread
    # too, before any of this recall's statements is sent (the entity search, the longest,
    # starts right after it). spaCy holds the GIL while it runs, but in a thread the loop still
    # gets it back every switch interval, so the other requests this process serves are not
    # stopped for the NER's few milliseconds (a recall's statements wait on the GIL a little
    # instead). The results are still collected in the fixed order below, so ranks, fusion and
    # paths do not depend on who answered first.
    searches: list[tuple[str, str, str, asyncio.Task[Hits | None]]] = []
    main_text: asyncio.Task[TextHits | None] | None = None
    turn_limit = MAX_TURN_RANK if turns is not None else 0
    embedding = embedder.submit_query(queries)
    async with asyncio.TaskGroup() as tg:
        names = (
            _names(await asyncio.to_thread(nlp.entities, req.query))
            if "entity" in req.channels
            else None
        )

        def add(name: str, kind: str, query_name: str, search: Awaitable[Hits | None]) -> None:
            searches.append((name, kind, query_name, tg.create_task(_rows(search))))

        entity = tg.create_task(_entity_search(graph, req, names)) if names is not None else None
        boost = get_profile(req.profile).hub_boost
        hubs = (
            tg.create_task(read_hub_words(graph, ns, run.queries))
            if boost != 1.0 and {"fulltext", "episode"} & set(req.channels)
            else None
        )
        for i, q in enumerate(queries):
            tag = "" if i == 0 else f"#{i}"
            if "vector" in req.channels:
                search: Awaitable[Hits | None] = _vector_search(graph, ns, embedding, i, k)
                add("vector" + tag, "vector", "search_memory_vector", search)
            halves = [c for c in ("fulltext", "episode") if c in req.channels]
            if not to_lucene(q) or not halves:
                continue
            # The episode channel searches the turns' own words, before any rewrite. Both text
            # searches of a query are one statement; each channel still gets its own list.
            text = tg.create_task(
                _text_search(graph, ns, q, hubs, boost, k, halves, turn_limit, share)
            )
            if i == 0:  # the turns come from the query as asked, not its sub-queries
                main_text = text
            for i_half, c in enumerate(halves):
                query_name = "" if i_half else "search_text_memories"  # the X-ray lists it once
                add(c + tag, "fulltext", query_name, _half(text, c))
        if period is not None:
            add(
                "period",
                "period",
                "search_period_memories",
                _period_search(graph, ns, embedding, period, k),
            )
        if entity is not None:  # sent first, collected last, as before
            searches.append(("entity", "entity", "search_entity_memories", entity))
        vecs = await embedding
        run.tick("embed")  # NER and the embedding; the searches ran alongside
    ev: dict[str, Evidence] = {}
    rankings: list[tuple[str, list[str]]] = []
    for name, kind, query_name, task in searches:
        rows = task.result()
        if rows is None:  # the entity channel had nothing to search for
            continue
        if query_name:
            run.queries.append(query_name)
        collect(ev, rankings, name, rows, kind)
    if turns is not None and main_text is not None:
        main = main_text.result()
        turns.extend(unclaimed_turns(main.unclaimed if main is not None else ()))
    run.tick("channels")
    return ev, rankings, vecs[0], frozenset(names or ())


async def _rows(search: Awaitable[Hits | None]) -> Hits | None:
    return await search


def _names(mentions: Sequence[EntityMention]) -> list[str]:
    return sorted({normalize_name(m.name) for m in mentions} - {""})


async def read_hub_words(graph: GraphClient, ns: str, queries: list[str]) -> frozenset[str]:
    """The namespace's hub names as words; ``find_hub_names`` joins ``queries`` (the X-ray's
    queries run) only when the statement ran: the names are memoised per graph client for a
    minute (hub_names.py), since hubs change slowly and counting a large namespace's mentions
    on every recall cost more than the searches it re-weighs."""
    names, read = await hub_names.read_hub_names(
        graph, namespace=ns, share=HUB_SHARE, limit=HUB_LIMIT
    )
    if read:
        queries.append("find_hub_names")
    return hub_words(names)


async def _text_search(
    graph: GraphClient,
    ns: str,
    text: str,
    hubs: Awaitable[frozenset[str]] | None,
    boost: float,
    k: int,
    halves: Sequence[str],
    turn_limit: int = 0,
    retired_turn_share: float = RETIRED_TURN_SHARE,
) -> TextHits | None:
    """The memory ("fulltext") and episode text searches of ``text`` without its question
    words, the namespace's hub names kept at ``boost``, in one statement: rows per channel,
    and under "unclaimed" the matching turns no memory was derived from (the episode search's
    tagged rows, among its best ``turn_limit`` turns)."""
    weak = await hubs if hubs is not None else frozenset()
    lucene = to_lucene(text, weak, boost, QUESTION_WORDS)
    if lucene is None:  # nothing but question words and hub names the profile drops
        return None
    memory, episode = await index_search.search_text_memories(
        graph,
        namespace=ns,
        query=lucene,
        k=k,
        limit=k,
        memory="fulltext" in halves,
        episode="episode" in halves,
        turn_limit=turn_limit,
        retired_turn_share=retired_turn_share,
    )
    rows = episode or []
    return TextHits(
        fulltext=memory or [],
        episode=[r for r in rows if isinstance(r, ScoredId)],
        unclaimed=[r for r in rows if isinstance(r, TurnRow)],
    )


@dataclass(frozen=True)
class TextHits:
    """One text statement's answer: the memory hits of each channel and the unclaimed turns."""

    fulltext: Hits
    episode: Hits
    unclaimed: list[TurnRow]


async def _half(text: Awaitable[TextHits | None], channel: str) -> Hits | None:
    hits = await text
    if hits is None:
        return None
    return hits.fulltext if channel == "fulltext" else hits.episode


async def _vector_search(
    graph: GraphClient, ns: str, embedding: Awaitable[list[list[float]]], i: int, k: int
) -> Hits:
    vecs = await embedding
    return await index_search.search_memory_vector(
        graph, namespace=ns, embedding=vecs[i], k=k, limit=k
    )


async def _period_search(
    graph: GraphClient,
    ns: str,
    embedding: Awaitable[list[list[float]]],
    period: AskedPeriod,
    k: int,
) -> Hits:
    vecs = await embedding
    return await repository.search_period_memories(
        graph,
        namespace=ns,
        start=period.start,
        end=period.end,
        embedding=vecs[0],
        scan=PERIOD_SCAN,
        limit=k,
    )


async def _entity_search(graph: GraphClient, req: RecallRequest, names: list[str]) -> Hits | None:
    lucene = to_lucene(req.query)
    if not names and not lucene:
        return None
    return await repository.search_entity_memories(
        graph,
        namespace=req.namespace,
        names=names,
        query=lucene or "",
        hops=2,
        limit=pool_size(req),
    )
