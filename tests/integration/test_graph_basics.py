"""The graph gateway on the real server: schema, vector and fulltext indexes, GDS PageRank."""

from __future__ import annotations

import math
import random
import uuid
from datetime import UTC, datetime
from typing import Any

import pytest

from kgmem.core.text import content_hash
from kgmem.errors import GraphUnavailable
from kgmem.graph import gds, index_search, repository
from kgmem.graph.catalog import load_catalog
from kgmem.graph.client import GraphClient
from kgmem.graph.schema import apply_schema
from kgmem.local_server.launcher import free_port
from kgmem.service import Kgmem
from kgmem.settings import Settings


def _unit(v: list[float]) -> list[float]:
    n = math.sqrt(sum(x * x for x in v))
    return [x / n for x in v]


def _store(
    km: Kgmem,
    arun: Any,
    ns: str,
    text: str,
    emb: list[float],
    entities: list[dict[str, Any]] | None = None,
) -> str:
    """Plant a memory with a chosen embedding (and entities) through the write queries."""
    now = datetime.now(UTC)
    mid = str(uuid.uuid4())
    props = {
        "id": mid,
        "content": text,
        "content_hash": content_hash(text),
        "status": "active",
        "category": "fact",
        "created_at": now,
        "embedding": emb,
    }
    ents = [
        {**e, "first_token": e["normalized_name"].split()[0], "at": now, "embedding": None}
        for e in entities or []
    ]
    mentions = [
        {
            "memory_id": mid,
            "entity_id": e["id"],
            "confidence": e["confidence"],
            "at": now,
            "surface": e["name"],
            "resolved_by": "new",
        }
        for e in ents
    ]
    arun(
        km.graph.write_batch(
            [
                repository.create_memories(
                    namespace=ns, memories=[{"key": 0, "props": props, "episode_ids": []}]
                ),
                repository.merge_entities(namespace=ns, entities=ents, mentions=mentions),
            ]
        )
    )
    return mid


def test_schema_init_is_idempotent(km: Kgmem, arun: Any) -> None:
    report = arun(apply_schema(km.graph))
    assert report.created == frozenset()
    assert {
        "memory_embedding",
        "entity_embedding",
        "memory_content",
        "entity_names",
        "memory_id",
    } <= report.after
    states = arun(repository.get_schema_state(km.graph))
    assert all(row["state"] == "ONLINE" for row in states)


def test_vector_index_returns_true_nearest_neighbours(km: Kgmem, arun: Any, namespace: str) -> None:
    rng = random.Random(7)
    vectors = {f"doc {i}": _unit([rng.gauss(0, 1) for _ in range(384)]) for i in range(40)}
    text_of = {_store(km, arun, namespace, text, vec): text for text, vec in vectors.items()}
    for probe in ["doc 3", "doc 17", "doc 31"]:
        q = _unit([x + rng.gauss(0, 0.05) for x in vectors[probe]])

        def sim(t: str, q: list[float] = q) -> float:
            return sum(a * b for a, b in zip(q, vectors[t], strict=True))

        truth = sorted(vectors, key=lambda t: -sim(t))
        rows = arun(
            index_search.search_memory_vector(
                km.graph, namespace=namespace, embedding=q, k=40, limit=3
            )
        )
        assert [text_of[r.id] for r in rows] == truth[:3]


def test_fulltext_ranks_planted_exact_match_first(km: Kgmem, arun: Any, namespace: str) -> None:
    filler = [
        "We talked about the weather and the garden.",
        "The meeting moved to Thursday.",
        "Lunch was a sandwich and some soup.",
        "The zebra crossing near the school.",
    ]
    for text in filler:
        _store(km, arun, namespace, text, _unit([1.0] * 384))
    planted = _store(km, arun, namespace, "The quokka sanctuary opens at dawn.", _unit([1.0] * 384))
    rows, episodes = arun(
        index_search.search_text_memories(
            km.graph, namespace=namespace, query="quokka OR sanctuary", k=10, limit=5, episode=False
        )
    )
    assert rows is not None and rows[0].id == planted
    assert episodes is None  # not asked for


async def _memory_text(graph: Any, **kw: Any) -> list[Any]:
    rows, _ = await index_search.search_text_memories(graph, episode=False, **kw)
    assert rows is not None
    return rows


def test_a_crowded_shared_index_still_yields_the_namespaces_own_rows(
    km: Kgmem, arun: Any, namespace: str
) -> None:
    # Another namespace holds 30 memories nearer to the query (and better BM25 matches) than
    # ours; a window of 5 index rows would hold none of ours, so the search must widen.
    crowd = f"{namespace}-crowd"
    target = _unit([1.0] + [0.0] * 383)
    for i in range(30):
        near = _unit([1.0, 0.001 * (i + 1)] + [0.0] * 382)
        _store(km, arun, crowd, f"quokka quokka quokka note {i}", near)
    ours = {
        _store(
            km, arun, namespace, f"a quokka seen on day {i}", _unit([1.0, 0.5 + i] + [0.0] * 382)
        )
        for i in range(3)
    }
    vec = arun(
        index_search.search_memory_vector(
            km.graph, namespace=namespace, embedding=target, k=5, limit=3
        )
    )
    assert {r.id for r in vec} == ours
    text = arun(_memory_text(km.graph, namespace=namespace, query="quokka", k=5, limit=3))
    assert {r.id for r in text} == ours
    # A window of 1 row: the statement reads the windows 1, 4 and 16 on the server (all crowd),
    # then the client goes on with 64, which holds ours: two statements, the same rows.
    for search, arg in [
        (index_search.search_memory_vector, {"embedding": target}),
        (_memory_text, {"query": "quokka"}),
    ]:
        before = km.graph.statements_run
        rows = arun(search(km.graph, namespace=namespace, k=1, limit=3, **arg))  # type: ignore[operator]
        assert {r.id for r in rows} == ours
        assert km.graph.statements_run - before == 2
        # The next search of the namespace starts at the window this one ended at (64): one
        # statement, the same rows.
        before = km.graph.statements_run
        again = arun(search(km.graph, namespace=namespace, k=1, limit=3, **arg))  # type: ignore[operator]
        assert again == rows
        assert km.graph.statements_run - before == 1
    # Both text searches in one statement, from a fresh window (k=2: the reads 2, 8 and 32 hold
    # the crowd's 30 and two of ours): the memory half widens again alone, to 128, while the
    # episode half (this namespace has no episodes) ended in the first statement.
    before = km.graph.statements_run
    memory, episode = arun(
        index_search.search_text_memories(
            km.graph, namespace=namespace, query="quokka", k=2, limit=3
        )
    )
    assert km.graph.statements_run - before == 2
    assert memory is not None and {r.id for r in memory} == ours
    assert episode == []
    rows = arun(
        index_search.search_memory_neighbours(
            km.graph,
            namespace=namespace,
            items=[{"key": 0, "hash": "none", "embedding": target}],
            k=2,
        )
    )
    assert len(rows[0]["neighbours"]) == 2
    assert {n["id"] for n in rows[0]["neighbours"]} <= ours
    sims = [n["similarity"] for n in rows[0]["neighbours"]]
    assert sims == sorted(sims, reverse=True)  # best first, as the gate ranks them
    arun(km.wipe_namespace(crowd))


def test_gate_neighbours_carry_their_entities_and_hash_twins(
    km: Kgmem, arun: Any, namespace: str
) -> None:
    now = datetime.now(UTC)

    def ent(name: str) -> dict[str, Any]:
        return {
            "id": f"{namespace}-{name}",
            "name": name,
            "normalized_name": name.lower(),
            "type": "person",
            "confidence": 0.9,
            "created_at": now,
        }

    near = _store(km, arun, namespace, "Ada plays chess", _unit([1.0, 0.1] + [0.0] * 382),
                  [ent("Ada"), ent("Bo")])  # fmt: skip
    far = _store(km, arun, namespace, "Cy sings", _unit([1.0, 0.9] + [0.0] * 382), [ent("Cy")])
    bare = _store(km, arun, namespace, "no names", _unit([1.0, 2.0] + [0.0] * 382))
    rows = arun(
        index_search.search_memory_neighbours(
            km.graph,
            namespace=namespace,
            items=[
                {
                    "key": 7,
                    "hash": content_hash("Cy sings"),
                    "embedding": _unit([1.0] + [0.0] * 383),
                }
            ],
            k=10,
        )
    )
    (row,) = rows
    assert row["key"] == 7
    # the hash twin first (similarity 1.0), then the nearest without it
    got = [(n["id"], sorted(n["entities"])) for n in row["neighbours"]]
    assert got == [(far, ["cy"]), (near, ["ada", "bo"]), (bare, [])]
    assert row["neighbours"][0]["similarity"] == 1.0
    # the others carry the cosine, as the batch's own neighbours do and the gate's thresholds
    # mean (the index scores (1 + cos) / 2: "no names" at cos 0.447 would read 0.724); the
    # index quantises its vectors, so its cosine is within a few hundredths
    query = _unit([1.0] + [0.0] * 383)
    for n, vec in ((row["neighbours"][1], [1.0, 0.1]), (row["neighbours"][2], [1.0, 2.0])):
        cosine = sum(a * b for a, b in zip(query, _unit(vec + [0.0] * 382), strict=True))
        assert abs(n["similarity"] - cosine) < 0.06, (n["similarity"], cosine)
    assert {"content", "status", "valid_from", "immutable"} <= set(row["neighbours"][0])
    # a twin outside the vector window (k=1 reads only the nearest) is still a neighbour
    (narrow,) = arun(
        index_search.search_memory_neighbours(
            km.graph,
            namespace=namespace,
            items=[
                {
                    "key": 7,
                    "hash": content_hash("no names"),
                    "embedding": _unit([1.0] + [0.0] * 383),
                }
            ],
            k=1,
        )
    )
    assert [n["id"] for n in narrow["neighbours"]] == [bare, near]


def test_personalized_pagerank_expected_top(km: Kgmem, arun: Any, namespace: str) -> None:
    emb = _unit([1.0] * 384)
    now = datetime.now(UTC)

    ids = {n: str(uuid.uuid4()) for n in "ABCD"}

    def ent(name: str) -> dict[str, Any]:
        return {
            "id": ids[name],
            "name": name,
            "normalized_name": name.lower(),
            "type": "person",
            "confidence": 0.9,
            "created_at": now,
        }

    # m1 and m2 share entity A; m2 also names B; m3 and m4 share C, m4 also names D. Seeded at
    # m1, the memory reachable through A (m2) must outrank the unconnected m3 and m4.
    m1 = _store(km, arun, namespace, "m1", emb, [ent("A")])
    m2 = _store(km, arun, namespace, "m2", emb, [ent("A"), ent("B")])
    _store(km, arun, namespace, "m3", emb, [ent("C")])
    _store(km, arun, namespace, "m4", emb, [ent("C"), ent("D")])
    name = f"ppr-{namespace}"
    proj = arun(
        gds.project_recall_graph(km.graph, name=name, namespace=namespace, half_life_days=180.0)
    )
    assert proj["nodes"] == 8
    try:
        rows = arun(
            gds.find_pagerank_memories(
                km.graph, name=name, namespace=namespace, seeds=[m1], limit=4
            )
        )
    finally:
        arun(repository.drop_graph(km.graph, name=name))
    ids = [r.id for r in rows]
    assert ids[0] == m2  # the seed itself is not returned
    scores = {r.id: r.score for r in rows}
    assert all(scores[i] < scores[m2] for i in ids[1:])


def test_server_info_reports_versions(km: Kgmem, arun: Any) -> None:
    info = arun(km.server_info())
    assert info["neo4j_version"].startswith("5.26")
    assert info["gds_version"].startswith("2.13")


def test_neo4j_not_running_gives_typed_error(arun: Any) -> None:
    port = free_port()
    client = GraphClient(
        Settings(neo4j_uri=f"bolt://127.0.0.1:{port}", neo4j_auth=False, neo4j_timeout_s=2)
    )
    with pytest.raises(GraphUnavailable, match="kgmem db start"):
        arun(client.connect())


def test_every_catalog_query_plans_without_deprecations(km: Kgmem, arun: Any) -> None:
    """Each query plans on the real server (no syntax a test never reaches can hide) and uses
    no feature the server reports as deprecated (e.g. an importing ``WITH`` in ``CALL {}``)."""
    notices = {name: arun(km.graph.deprecations(name)) for name in sorted(load_catalog())}
    assert {name: n for name, n in notices.items() if n} == {}


def test_entity_channel_scores_direct_and_one_hop_mentions(
    km: Kgmem, arun: Any, namespace: str
) -> None:
    # Ada is named in the query; Bo is one RELATED hop away. A memory scores the sum of its
    # paths (direct: match x mention confidence; one hop: match x 0.5 x relation x mention) and
    # carries its best path for the X-ray.
    now = datetime.now(UTC)

    def ent(name: str, conf: float) -> dict[str, Any]:
        return {
            "id": f"{namespace}-{name}",
            "name": name,
            "normalized_name": name.lower(),
            "type": "person",
            "confidence": conf,
            "created_at": now,
        }

    vec = _unit([1.0] * 384)
    direct = _store(km, arun, namespace, "Ada rows", vec, [ent("Ada", 0.9)])
    hop = _store(km, arun, namespace, "Bo rides", vec, [ent("Bo", 0.7)])
    both = _store(km, arun, namespace, "Ada and Bo", vec, [ent("Ada", 0.6), ent("Bo", 0.7)])
    relation = {
        "source_id": f"{namespace}-Ada",
        "target_id": f"{namespace}-Bo",
        "type": "works_with",
        "confidence": 0.8,
        "delta": 0.0,
        "at": now,
        "memory_id": direct,
        "inferred": False,
    }
    arun(
        km.graph.write_batch(
            [repository.relate_entities(namespace=namespace, relations=[relation])]
        )
    )
    rows = arun(
        repository.search_entity_memories(
            km.graph, namespace=namespace, names=["ada"], query="", hops=2, limit=10
        )
    )
    got = [(r.id, round(r.score, 9), list(r.path), list(r.confidences), r.hops) for r in rows]
    assert got == [
        (direct, 0.9, ["Ada"], [0.9], 0),
        (both, round(0.6 + 0.5 * 0.8 * 0.7, 9), ["Ada"], [0.6], 0),
        (hop, round(0.5 * 0.8 * 0.7, 9), ["Ada", "works_with", "Bo"], [0.8, 0.7], 1),
    ]


def test_entity_channel_stays_in_its_namespace(km: Kgmem, arun: Any, namespace: str) -> None:
    # The entity channel scopes a mention's memory by its entity's namespace (MENTIONS never
    # crosses namespaces): another namespace that remembers the same person, more often, adds
    # nothing to this namespace's rows.
    other = f"{namespace}-other"
    try:
        for i in range(3):
            arun(km.remember(f"Ada Lovelace wrote program number {i}.", namespace=other))
        mine = arun(km.remember("Ada Lovelace wrote the first program.", namespace=namespace))
        rows = arun(
            repository.search_entity_memories(
                km.graph,
                namespace=namespace,
                names=["ada lovelace"],
                query="Ada OR Lovelace",
                hops=2,
                limit=10,
            )
        )
        assert [r.id for r in rows] == [mine.memory_id]
        theirs = arun(
            repository.search_entity_memories(
                km.graph, namespace=other, names=["ada lovelace"], query="", hops=2, limit=10
            )
        )
        assert len(theirs) == 3 and mine.memory_id not in {r.id for r in theirs}
    finally:
        arun(km.wipe_namespace(other))


def test_recall_candidates_list_co_activations_among_the_candidates_only(
    km: Kgmem, arun: Any, namespace: str
) -> None:
    # A candidate's co-activated neighbours are recognised by node identity among the candidates:
    # either direction of the edge counts, with its count; a neighbour outside the candidate ids
    # (c) is not listed, nor is a memory of another namespace even when its id is passed.
    emb = [1.0] + [0.0] * 383
    a, b, c, d = (_store(km, arun, namespace, f"memory {x}", emb) for x in "abcd")
    other = f"{namespace}-other"
    try:
        stranger = _store(km, arun, other, "memory of another namespace", emb)
        touch, now = repository.touch_memories, datetime.now(UTC)
        for pair, times in (([a, b], 2), ([c, a], 1), ([d, a], 1)):
            for _ in range(times):
                arun(touch(km.graph, namespace=namespace, touches=[], pairs=[pair], now=now))
        rows = arun(
            repository.get_recall_candidates(km.graph, namespace=namespace, ids=[a, b, d, stranger])
        )
    finally:
        arun(km.wipe_namespace(other))
    got = {r.memory.id: sorted((x.id, x.count) for x in r.coactive) for r in rows}
    # ids are random uuids, so the expected lists are sorted the same way
    assert got == {a: sorted([(b, 2), (d, 1)]), b: [(a, 2)], d: [(a, 1)]}
