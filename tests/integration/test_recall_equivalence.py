"""Recall's fast execution path gives what the plain sequential one gave, on the real stack.

The engine overlaps the text searches with the query embedding and NER, runs NER alone, caches
query embeddings, and hydrates candidates from a narrow projection with timestamps sent as epoch
microseconds. Each test here recomputes a stage the slow, obvious way (one search after the
other, the full spaCy pipeline, the memory's whole property map) and asserts the results are
identical, so a speed-up that changed a ranking fails here.
"""

from __future__ import annotations

import asyncio
from dataclasses import fields, replace
from datetime import UTC, datetime, timedelta
from typing import Any

import pytest

from kgmem.core.text import normalize_name
from kgmem.graph import api_repository, index_search, repository
from kgmem.graph.rows import CandidateMemory
from kgmem.ml.nlp import mentions_of
from kgmem.recall import channels as searches
from kgmem.recall import engine, request
from kgmem.recall.filters import Evidence, to_candidate
from kgmem.recall.lucene import QUESTION_WORDS, hub_words, to_lucene
from kgmem.recall.options import RecallOptions
from kgmem.recall.profiles import get_profile
from kgmem.recall.query import decompose
from kgmem.records import Turn
from kgmem.service import Kgmem

T0 = datetime(2024, 3, 1, 9, tzinfo=UTC)
FACTS = [
    "Priya lives in Berlin and works at Siemens as an engineer.",
    "Marco recommended the ramen place on Fifth Street to Priya.",
    "Priya's sister Anika studies medicine in Munich.",
    "Marco adopted a beagle called Pepper from the Hayward shelter.",
    "Anika and Marco went hiking in the Alps last summer.",
    "The Siemens office in Berlin moved to a new building in May.",
    "Pepper the beagle hates thunderstorms and hides under the bed.",
]
QUERIES = [
    "Where does Priya live?",
    "What did Marco recommend and where did Anika go hiking?",  # decomposed into sub-queries
    "beagle thunderstorms",
    "Who works at Siemens in Berlin?",
]


@pytest.fixture
def store(km: Kgmem, arun: Any, namespace: str) -> str:
    for i, fact in enumerate(FACTS):
        arun(km.remember(fact, namespace=namespace, now=T0 + timedelta(hours=i)))
    turn = Turn(
        "Pepper came home from the Hayward shelter with a blue collar.",
        speaker="Marco",
        at=T0,
        turn_id="t-pepper",
    )
    arun(km.observe([turn], namespace=namespace, flush=True))
    arun(km.recall("Marco and Priya", namespace=namespace))  # touches: co-activation, access
    return namespace


async def _sequential_channels(
    km: Kgmem, req: request.RecallRequest, subs: list[str]
) -> tuple[dict[str, Evidence], list[list[str]], list[float], frozenset[str]]:
    """The channel stage as it was: embed, full-pipeline NER, then each search in turn."""
    queries = [req.query, *subs[1:]] if len(subs) > 1 else [req.query]
    vecs = km.embedder.embed(queries)
    mentions = mentions_of(km.nlp.pipeline()(req.query)) if "entity" in req.channels else []
    names = sorted({normalize_name(m.name) for m in mentions} - {""})
    ev: dict[str, Evidence] = {}
    rankings: list[list[str]] = []
    k, ns, graph = searches.pool_size(req), req.namespace, km.graph
    boost = get_profile(req.profile).hub_boost
    weak = (
        hub_words(
            await repository.find_hub_names(
                graph, namespace=ns, share=searches.HUB_SHARE, limit=searches.HUB_LIMIT
            )
        )
        if boost != 1.0
        else frozenset()
    )
    for i, (q, vec) in enumerate(zip(queries, vecs, strict=True)):
        tag = "" if i == 0 else f"#{i}"
        lucene = to_lucene(q, weak, boost, QUESTION_WORDS)
        if "vector" in req.channels:
            rows = await index_search.search_memory_vector(
                graph, namespace=ns, embedding=vec, k=k, limit=k
            )
            searches.collect(ev, rankings, "vector" + tag, rows, "vector")
        if "fulltext" in req.channels and lucene:  # each text search alone
            rows, _ = await index_search.search_text_memories(
                graph, namespace=ns, query=lucene, k=k, limit=k, episode=False
            )
            searches.collect(ev, rankings, "fulltext" + tag, rows or [], "fulltext")
        if "episode" in req.channels and lucene:
            _, rows = await index_search.search_text_memories(
                graph, namespace=ns, query=lucene, k=k, limit=k, memory=False
            )
            searches.collect(ev, rankings, "episode" + tag, rows or [], "fulltext")
    if "entity" in req.channels and (names or to_lucene(req.query)):
        rows = await repository.search_entity_memories(
            graph, namespace=ns, names=names, query=to_lucene(req.query) or "", hops=2, limit=k
        )
        searches.collect(ev, rankings, "entity", rows, "entity")
    return ev, rankings, vecs[0], frozenset(names)


@pytest.mark.parametrize("query", QUERIES)
@pytest.mark.parametrize("channels", [request.CHANNELS, ("vector", "fulltext")])
def test_concurrent_channels_equal_the_sequential_ones(
    km: Kgmem, arun: Any, store: str, query: str, channels: tuple[str, ...]
) -> None:
    req = request.build_request(query, store, RecallOptions.parse(channels=channels))
    subs = decompose(query)
    expected = arun(_sequential_channels(km, req, subs))
    for _ in range(2):  # the second run serves the embedding from the query cache
        got = arun(
            searches.run_channels(km.graph, km.embedder, km.nlp, req, subs, searches.StageClock())
        )
        assert got == expected  # evidence, ranks, insertion orders, paths, vector, names
        assert list(got[0]) == list(expected[0])


def test_both_text_searches_in_one_statement_equal_each_alone(
    km: Kgmem, arun: Any, store: str
) -> None:
    found_episodes = False
    for query in QUERIES:
        lucene = to_lucene(query, frozenset(), 1.0, QUESTION_WORDS)
        assert lucene is not None
        kw: dict[str, Any] = {"namespace": store, "query": lucene, "k": 50, "limit": 50}
        memory, _ = arun(index_search.search_text_memories(km.graph, episode=False, **kw))
        _, episode = arun(index_search.search_text_memories(km.graph, memory=False, **kw))
        before = km.graph.statements_run
        both = arun(index_search.search_text_memories(km.graph, **kw))
        assert km.graph.statements_run - before == 1
        assert both == (memory, episode)  # rows, order and scores
        assert memory
        found_episodes = found_episodes or bool(episode)
    assert found_episodes  # the episode half was exercised, not only skipped


def test_hydration_equals_the_whole_property_map(km: Kgmem, arun: Any, store: str) -> None:
    memories = arun(repository.find_memories(km.graph, namespace=store, statuses=None, limit=100))
    ids = [m["id"] for m in memories]
    rows = arun(repository.get_recall_candidates(km.graph, namespace=store, ids=ids))
    full = {
        m["id"]: m
        for m in arun(api_repository.find_memories_by_id(km.graph, namespace=store, ids=ids))
    }
    assert sorted(r.memory.id for r in rows) == sorted(ids)
    touched = 0
    for row in rows:
        mid = row.memory.id
        whole = {**full[mid], "embedding": row.memory.embedding}
        assert row.memory.embedding and len(row.memory.embedding) == 384
        memory = CandidateMemory.of({f.name: whole.get(f.name) for f in fields(CandidateMemory)})
        ev = Evidence(vector=0.8)
        names = frozenset({"priya"})
        assert to_candidate(row, ev, 0.1, names) == to_candidate(
            replace(row, memory=memory), ev, 0.1, names
        )
        assert row.memory.recorded_at == whole.get("recorded_at")
        touched += row.memory.last_accessed is not None
    assert touched, "the store must hold a touched memory, so last_accessed is compared too"


def test_concurrent_recalls_equal_sequential_ones(km: Kgmem, arun: Any, store: str) -> None:
    now = T0 + timedelta(days=3)  # one clock for all: recency must not differ between runs

    def one(query: str) -> Any:
        req = request.build_request(query, store, RecallOptions(dry=True))
        return engine.recall(km.graph, km.embedder, km.nlp, req, now=now)

    async def many() -> list[Any]:
        return await asyncio.gather(*(one(q) for q in QUERIES))

    sequential = [arun(one(q)) for q in QUERIES]
    together = arun(many())
    for one, other in zip(sequential, together, strict=True):
        assert one.hits == other.hits
        assert one.xray.hits == other.xray.hits and one.xray.dropped == other.xray.dropped
