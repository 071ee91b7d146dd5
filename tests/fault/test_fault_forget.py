"""Hard forget erases everything derived from a memory; soft forget keeps it all (fault suite).

A conversation is observed (one turn yields the forgotten sentence *and* another memory, so the
turn's episode is shared), a memory sharing an entity with survivors is remembered and corrected
(a supersede chain), consolidation builds boxes, traces, topics, profiles and summaries, recalls
leave access traces — then two memories are hard-forgotten. Every read surface is then asked, and
so is every property of every node and relationship left in the namespace (the raw scan the
export runs): no word of a forgotten sentence that no surviving memory also says may be found
anywhere, nor the forgotten memory's id except on its single erasure record. The same reads
before the forget must find the words (the test cannot pass on an empty store).
"""

from __future__ import annotations

import asyncio
import json
import re
import uuid
from collections.abc import Iterable
from dataclasses import asdict, is_dataclass
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import httpx
import pytest
from support.vectors import at_cosine, direction

from kgmem.api import create_app
from kgmem.core.text import content_hash
from kgmem.errors import NotFound
from kgmem.graph import repository, transfer_repository
from kgmem.records import Turn
from kgmem.service import Kgmem

pytestmark = [pytest.mark.graph, pytest.mark.models, pytest.mark.slow]

T0 = datetime(2026, 3, 2, 9, 0, tzinfo=UTC)
KAYAK = "Priya Nair owns a red kayak called Seabird."
CANOE = "Tom Baker sold his green canoe called Wavelet."
MUST_VANISH = {"priya", "nair", "seabird", "kayak", "wavelet", "canoe"}
ADMIN = "admin-" + "f" * 32
STATUSES = ("active", "challenged", "stale", "superseded", "merged", "invalidated", "archived",
            "deleted")  # fmt: skip

TURNS = (
    f"{KAYAK} Marta Silva teaches chemistry at Porto University.",
    "Tom Baker lives in Porto with his dog Rex.",
    "Tom Baker plays chess every Sunday at the Porto club.",
    "Marta Silva and Tom Baker cook dinner together on Fridays.",
    "Tom Baker works as a nurse at the Porto hospital.",
    "Marta Silva grows tomatoes in her garden in Braga.",
    "Tom Baker drives a blue van to work.",
    "Marta Silva speaks four languages fluently.",
    "Tom Baker was born in Leeds in 1988.",
    "Marta Silva has a cat named Pimenta.",
    "Tom Baker reads detective novels before bed.",
)
QUERIES = (
    "Who owns a red kayak called Seabird?",
    "What is the name of Priya Nair's boat?",
    "What did Tom Baker sell?",
    "Wavelet canoe",
)
GRAPHQL = (
    """query($ns: String, $statuses: [String!]) {
  memories(first: 40, filters: {includeSuperseded: true, statuses: $statuses}, namespace: $ns) {
    nodes { id content versions status claim { subject slot value }
            entities { name normalizedName aliases summary } episodes { text }
            statusHistory { reason relatedId } } } }""",
    """query($ns: String) {
  entities(first: 100, namespace: $ns) { name normalizedName aliases summary }
  relations(first: 100, namespace: $ns) { source type target }
  topics(first: 100, namespace: $ns) { name terms }
  boxes(first: 100, namespace: $ns) { topics memoryIds }
  traces(first: 100, namespace: $ns) { topics } }""",
    """query($ns: String, $q: String!) {
  recall(query: $q, namespace: $ns, explain: true, dry: true, filters: {includeSuperseded: true}) {
    ... on RecallOk { hits { memoryId content turnIds }
                      xray { hits { content episodes path { name } } dropped { content detail } } }
  } }""",
)


def words(text: str) -> set[str]:
    return {w.casefold() for w in re.findall(r"[^\W\d_]+", text)}


def dump(value: Any) -> str:
    """Everything a read returned, as text (dataclasses, rows, nested lists)."""

    def plain(v: Any) -> Any:
        if is_dataclass(v) and not isinstance(v, type):
            return plain(asdict(v))
        if isinstance(v, dict):
            return {str(k): plain(x) for k, x in v.items()}
        if isinstance(v, list | tuple | set | frozenset):
            return [plain(x) for x in v]
        return v

    return json.dumps(plain(value), default=str)


def leaked(text: str, vanished: Iterable[str]) -> set[str]:
    return words(text) & set(vanished)


async def everything(km: Kgmem, ns: str, tmp: Path, ids: list[str]) -> dict[str, str]:
    """Every read surface of the namespace, each as one text."""
    out: dict[str, str] = {}
    page = await km.memory_page(
        namespace=ns, include_superseded=True, limit=1000, statuses=list(STATUSES)
    )
    mids = [r["id"] for r in page] + ids
    out["memories"] = dump(page)
    out["memories_by_id"] = dump(await km.memories_by_id(mids, namespace=ns))
    out["memory_entities"] = dump(await km.memory_entities(mids, namespace=ns))
    out["memory_episodes"] = dump(await km.memory_episodes(mids, namespace=ns))
    out["memory_links"] = dump(await km.memory_links(mids, namespace=ns))
    out["status_changes"] = dump(await km.memory_status_changes(mids, namespace=ns))
    out["history"] = dump([await km.status_history(m, namespace=ns) for m in ids])
    entities = await km.entities(namespace=ns, limit=1000)
    out["entities"] = dump(entities)
    eids = [e["id"] for e in entities]
    out["entity_memories"] = dump(await km.entity_memories(eids, namespace=ns))
    out["entity_links"] = dump(await km.entity_links(eids, namespace=ns))
    out["relations"] = dump(await km.relations(namespace=ns, limit=1000))
    for name in ("Priya Nair", "Seabird", "kayak", "Tom Baker", "Wavelet"):
        out[f"entity {name}"] = dump(await km.get_entity(name=name, namespace=ns))
        try:
            out[f"facts {name}"] = dump(await km.entity_facts(name, namespace=ns))
        except NotFound:
            out[f"facts {name}"] = "not found"
        out[f"timeline {name}"] = dump(await km.timeline(entity=name, namespace=ns))
    for topic in ("kayak", "canoe", "porto"):
        out[f"timeline topic {topic}"] = dump(await km.timeline(topic=topic, namespace=ns))
    out["topics"] = dump(await km.topics(namespace=ns, limit=1000))
    out["boxes"] = dump(await km.boxes(namespace=ns, limit=1000))
    out["traces"] = dump(await km.traces(namespace=ns, limit=1000))
    out["resume"] = dump(await km.resume(ns, now=T0 + timedelta(hours=2)))
    for q in QUERIES:
        got = await km.recall(q, namespace=ns, include_superseded=True, dry=True)
        xray = got.xray.to_dict()
        for echo in ("query", "sub_queries", "hyde", "queries_run"):
            xray.pop(echo, None)  # the question itself names the words
        out[f"recall {q}"] = dump({"hits": got.hits, "xray": xray})
    target = tmp / f"{ns}.jsonl"
    await km.export_graph(target, namespace=ns)
    out["export"] = target.read_text(encoding="utf-8")
    out["raw nodes"] = dump(
        await transfer_repository.find_export_nodes(km.graph, namespace=ns, after="", limit=10**6)
    )
    out["raw edges"] = dump(
        await transfer_repository.find_export_edges(km.graph, namespace=ns, after="", limit=10**6)
    )
    return out


async def graphql(km: Kgmem, ns: str) -> dict[str, str]:
    """The same namespace through the GraphQL API (its own app on the same server)."""
    app = create_app(km.settings.model_copy(update={"api_keys": {ADMIN: ["*"]}}))
    out: dict[str, str] = {}
    async with app.router.lifespan_context(app):
        transport = httpx.ASGITransport(app=app)
        async with httpx.AsyncClient(transport=transport, base_url="http://kgmem.test") as client:
            calls: list[tuple[str, dict[str, Any]]] = [
                (GRAPHQL[0], {"statuses": list(STATUSES)}),
                (GRAPHQL[1], {}),
            ]
            calls += [(GRAPHQL[2], {"q": q}) for q in QUERIES]
            for i, (doc, variables) in enumerate(calls):
                r = await client.post(
                    "/graphql",
                    json={"query": doc, "variables": {"ns": ns, **variables}},
                    headers={"Authorization": f"Bearer {ADMIN}"},
                )
                assert r.status_code == 200, r.text
                body = r.json()
                assert not body.get("errors"), body["errors"]
                out[f"graphql {i}"] = json.dumps(body["data"])
    return out


def by_text(rows: list[dict[str, Any]], needle: str) -> str:
    found = [r["id"] for r in rows if needle in r["content"]]
    assert len(found) == 1, (needle, [r["content"] for r in rows])
    return str(found[0])


def test_hard_forget_leaves_nothing_to_rebuild_the_sentence_from(
    km: Kgmem, namespace: str, arun: Any, tmp_path: Path
) -> None:
    ns = namespace
    turns = [
        Turn(text, speaker="Lena", session_id="s1", at=T0 + timedelta(minutes=i), turn_id=f"t{i}")
        for i, text in enumerate(TURNS)
    ]
    arun(km.remember(CANOE, namespace=ns, now=T0 - timedelta(minutes=1)))
    arun(km.observe(turns, namespace=ns, flush=True, now=T0 + timedelta(minutes=10)))
    rows = arun(km.memory_page(namespace=ns, limit=100))
    kayak, canoe = by_text(rows, "Seabird"), by_text(rows, "Wavelet")
    arun(km.consolidate(ns, now=T0 + timedelta(minutes=30)))
    fix = arun(km.correct(canoe, "Tom Baker sold his old bicycle.", namespace=ns))
    assert fix.action == "superseded" and fix.memory_id
    for q in QUERIES:  # access traces: counts, co-activation
        arun(km.recall(q, namespace=ns))

    before = arun(everything(km, ns, tmp_path, [kayak, canoe]))
    before |= arun(graphql(km, ns))
    for surface in ("entities", "boxes", "export", "raw nodes", "graphql 1"):
        assert "seabird" in leaked(before[surface], MUST_VANISH), surface
    # consolidation built from the forgotten memories: a category summary, Tom Baker's profile
    assert "category_summary" in before["raw nodes"]
    tom_before = arun(km.get_entity(name="Tom Baker", namespace=ns))
    assert tom_before is not None and "Wavelet" in (tom_before["summary"] or "")

    gone = arun(km.forget(kayak, hard=True, reason="Priya asked", namespace=ns))
    assert gone["hard"] is True
    arun(km.forget(canoe, hard=True, reason="forget the Wavelet", namespace=ns))

    survivors = arun(
        km.memory_page(namespace=ns, include_superseded=True, limit=1000, statuses=list(STATUSES))
    )
    assert fix.memory_id in {r["id"] for r in survivors}  # the correction outlives what it fixed
    kept_words = set().union(*(words(r["content"]) for r in survivors))
    vanished = (words(KAYAK) | words(CANOE)) - kept_words
    # no surviving memory says them: not even a summary or theme built from the forgotten ones
    assert vanished >= MUST_VANISH, [
        r["content"] for r in survivors if words(r["content"]) & MUST_VANISH
    ]
    after = arun(everything(km, ns, tmp_path, [kayak, canoe]))
    after |= arun(graphql(km, ns))
    leaks = {k: sorted(leaked(v, vanished)) for k, v in after.items() if leaked(v, vanished)}
    assert leaks == {}
    # the ids survive only on one erasure record each, with no text but the fixed reason
    for mid in (kayak, canoe):
        places = [k for k, v in after.items() if mid in v and not k.startswith("history")]
        assert set(places) <= {"export", "raw nodes", "status_changes"}, (mid, places)
        history = arun(km.status_history(mid, namespace=ns))
        assert [(h.new, h.reason) for h in history] == [("purged", "erased on request")]
    # entities other memories still mention survive the forget
    tom = arun(km.get_entity(name="Tom Baker", namespace=ns))
    assert tom is not None and tom["mention_count"] >= 4
    assert arun(km.get_entity(name="Marta Silva", namespace=ns)) is not None
    # the shared turn is kept, its text redacted; the other memory it yielded is kept
    marta = by_text(survivors, "chemistry")
    episodes = arun(km.memory_episodes([marta], namespace=ns))[marta]
    assert episodes and all(e.episode.text == "" for e in episodes)


def test_soft_forget_keeps_everything_until_the_purge(km: Kgmem, namespace: str, arun: Any) -> None:
    ns = namespace
    turn = Turn("Priya Nair owns a red kayak called Seabird.", at=T0, session_id="s1")
    arun(km.observe([turn], namespace=ns, flush=True, now=T0))
    (row,) = arun(km.memory_page(namespace=ns, limit=10))
    before_entities = sorted(e["name"] for e in arun(km.entities(namespace=ns)))
    out = arun(km.forget(row["id"], namespace=ns, reason="not now"))
    assert out["hard"] is False and out["new"] == "deleted"
    kept = arun(km.get_memory(row["id"], namespace=ns))
    assert kept is not None and kept["content"] == row["content"]
    assert kept["status"] == "deleted"
    assert sorted(e["name"] for e in arun(km.entities(namespace=ns))) == before_entities
    assert [
        e.episode.text for e in arun(km.memory_episodes([row["id"]], namespace=ns))[row["id"]]
    ] == [turn.text]
    history = arun(km.status_history(row["id"], namespace=ns))
    assert [(h.old, h.new, h.reason) for h in history] == [("active", "deleted", "not now")]


def raw_scan(km: Kgmem, ns: str, arun: Any) -> str:
    """Every property of every node and relationship of the namespace, as text."""
    nodes = arun(
        transfer_repository.find_export_nodes(km.graph, namespace=ns, after="", limit=10**6)
    )
    edges = arun(
        transfer_repository.find_export_edges(km.graph, namespace=ns, after="", limit=10**6)
    )
    return dump([nodes, edges])


def test_an_entity_another_memory_keeps_loses_the_names_only_the_forgotten_one_said(
    km: Kgmem, namespace: str, arun: Any
) -> None:
    ns = namespace
    arun(km.observe([Turn(KAYAK, session_id="s1", at=T0)], namespace=ns, flush=True, now=T0))
    arun(km.remember("Marta told Priya about the Seabird regatta.", namespace=ns))
    priya = arun(km.get_entity(name="Priya", namespace=ns))
    assert priya is not None and priya["name"] == "Priya Nair"  # resolved by first name
    (kayak,) = [r["id"] for r in arun(km.memory_page(namespace=ns)) if "kayak" in r["content"]]
    out = arun(km.forget(kayak, hard=True, namespace=ns))
    kept = arun(km.get_entity(name="Priya", namespace=ns))
    assert kept is not None and kept["id"] == priya["id"]
    assert (kept["name"], kept["normalized_name"], kept["aliases"]) == ("Priya", "priya", ["Priya"])
    assert arun(km.get_entity(name="Priya Nair", namespace=ns)) is None
    assert not words(raw_scan(km, ns, arun)) & {"nair", "kayak", "red", "owns"}
    assert out["entities_renamed"] == 1


def _plant(km: Kgmem, arun: Any, ns: str, text: str, embedding: list[float], at: datetime) -> str:
    """A stored memory mentioning Alice, written straight to the graph (its embedding chosen)."""
    mid = str(uuid.uuid4())
    props = {
        **{"id": mid, "content": text, "content_hash": content_hash(text), "category": "fact"},
        **{"kind": "note", "type": "fact", "tier": "episodic", "status": "active"},
        **{"lifecycle_state": "active", "verification_state": "user_confirmed"},
        **{"importance": 0.5, "confidence": 0.8, "source": "human", "utility": 0.5},
        **{"stability": 1.0, "access_count": 0, "repetition_count": 1, "tags": []},
        **{"created_at": at, "last_accessed": at, "modified_at": at, "recorded_at": at},
        **{"pinned": False, "immutable": False, "flashbulb": False, "embedding": embedding},
    }
    eid = f"{ns}:alice:person"
    entity: dict[str, Any] = {"id": eid, "name": "Alice", "normalized_name": "alice"}
    entity |= {"type": "person"}
    entity |= {"first_token": "alice", "at": at, "embedding": None}
    mention: dict[str, Any] = {"memory_id": mid, "entity_id": eid, "confidence": 0.9, "at": at}
    mention |= {"surface": "Alice", "resolved_by": "new"}
    memory = {"key": 0, "props": props, "episode_ids": []}
    arun(
        km.graph.write_batch(
            [
                repository.create_memories(namespace=ns, memories=[memory]),
                repository.merge_entities(namespace=ns, entities=[entity], mentions=[mention]),
            ]
        )
    )
    return mid


def test_hard_forget_of_a_theme_member_erases_the_theme_and_gives_the_rest_back(
    km: Kgmem, namespace: str, arun: Any
) -> None:
    ns = namespace
    texts = [
        "Alice booked flight AA100 to Paris.",
        "Alice has seat 12C on the Paris flight.",
        "Alice's Paris flight leaves at 9am.",
        "Alice's flight to Paris departs from JFK.",
        "Alice paid 420 dollars for the Paris flight.",
    ]
    v = direction(11)
    members = [
        _plant(km, arun, ns, t, at_cosine(v, 0.975, 20 + i), T0 - timedelta(days=5 - i))
        for i, t in enumerate(texts)
    ]
    report = arun(km.consolidate(ns, steps=["redundancy"], now=T0))
    assert report.step("redundancy").changes == {"themes": 1, "merged": 5}
    assert "dollars" in words(raw_scan(km, ns, arun))
    out = arun(km.forget(members[-1], hard=True, namespace=ns))
    for mid in members[:-1]:
        row = arun(km.get_memory(mid, namespace=ns))
        assert row is not None and row["status"] == "active"
    scan = raw_scan(km, ns, arun)
    assert not words(scan) & {"dollars", "paid"}
    assert re.search(r"(?<![\w.])420(?![\w.])", scan) is None  # not a digit run of a vector
    alice = arun(km.get_entity(name="Alice", namespace=ns))
    assert alice is not None and alice["mention_count"] == 4
    assert (out["memories"], out["restored"]) == (2, 4)  # the member and its theme; 4 back


def test_two_hard_forgets_of_one_memory_erase_it_once(km: Kgmem, namespace: str, arun: Any) -> None:
    ns = namespace
    receipt = arun(km.remember(KAYAK, namespace=ns))
    assert receipt.memory_id

    async def both() -> list[Any]:
        forget = km.forget(receipt.memory_id, hard=True, namespace=ns)
        again = km.forget(receipt.memory_id, hard=True, namespace=ns)
        return list(await asyncio.gather(forget, again, return_exceptions=True))

    outcomes = arun(both())
    assert sorted(type(o).__name__ for o in outcomes) == ["NotFound", "dict"]
    history = arun(km.status_history(receipt.memory_id, namespace=ns))
    assert [h.new for h in history] == ["purged"]  # one erasure record, not two
