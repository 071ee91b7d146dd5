"""Every GraphQL query against the real stack, on a graph built through the API itself."""

from __future__ import annotations

import math
import uuid
from collections.abc import Iterator
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from typing import Any

import pytest

from api.helpers import Api

pytestmark = [pytest.mark.graph, pytest.mark.models]

T0 = datetime(2024, 3, 4, 9, 0, tzinfo=UTC)
OBSERVE = """
mutation($turns: [TurnInput!]!, $ns: String) {
  observe(turns: $turns, flush: true, namespace: $ns) {
    __typename
    ... on ObserveOk { receipts { action memoryId relatedIds } }
    ... on Rejected { reason code }
  }
}"""
REMEMBER = """
mutation($text: String!, $category: String!, $ns: String) {
  remember(input: {text: $text, category: $category, namespace: $ns}) {
    __typename
    ... on RememberOk { receipt { action memoryId relatedIds entities } }
    ... on Rejected { reason code }
  }
}"""


@dataclass(frozen=True)
class Seeded:
    ns: str
    superseded_id: str  # the old green-tea preference
    coffee_id: str  # what replaced it
    review_id: str  # an explicit memory


def _turn(text: str, minutes: int) -> dict[str, Any]:
    at = (T0 + timedelta(minutes=minutes)).isoformat()
    return {"text": text, "speaker": "Caroline", "sessionId": "s1", "at": at}


@pytest.fixture(scope="module")
def seeded(api: Api) -> Iterator[Seeded]:
    """Episodes, memories with entities and typed relations, a supersession, boxes and traces,
    and an explicit memory — all written through the GraphQL API."""
    ns = f"q-{uuid.uuid4().hex[:10]}"
    turns = [
        _turn("My friend Jon Smith works at Acme Corp in Boston.", 0),
        _turn("I love green tea in the morning.", 5),
        _turn("Jon Smith is married to Maria Lopez, who manages the Boston office.", 10),
        _turn("Actually, I don't love green tea anymore, I prefer black coffee now.", 60 * 24),
    ]
    receipts = []
    for turn in turns:
        out = api.ok(OBSERVE, {"turns": [turn], "ns": ns})["observe"]
        assert out["__typename"] == "ObserveOk", out
        receipts += out["receipts"]
    superseding = [r for r in receipts if r["action"] == "superseded"]
    assert superseding, receipts
    review = api.ok(
        REMEMBER,
        {"text": "The quarterly review is on the first Monday of March.", "category": "fact"}
        | {"ns": ns},
    )["remember"]
    try:
        yield Seeded(
            ns=ns,
            superseded_id=superseding[0]["relatedIds"][0],
            coffee_id=superseding[0]["memoryId"],
            review_id=review["receipt"]["memoryId"],
        )
    finally:
        api.arun(api.km.wipe_namespace(ns))


RECALL = """
query($q: String!, $ns: String, $dry: Boolean!, $explain: Boolean!, $filters: RecallFilters) {
  recall(query: $q, namespace: $ns, dry: $dry, explain: $explain, limit: 5, filters: $filters) {
    __typename
    ... on Rejected { reason code }
    ... on RecallOk {
      namespace skipped
      hits { memoryId content score category status injection turnIds
             channels { channel rank rawScore } memory { id accessCount entities { name } } }
      xray { query intent subQueries hyde queriesRun raw
             timings { stage ms }
             dropped { memoryId reason detail bestScore }
             hits { memoryId finalScore contributions { factor value } factors { factor value }
                    channels { channel rank } path { nodeId label name edgeType edgeConfidence }
                    episodes status } }
    }
  }
}"""


def test_recall_returns_hits_and_the_xray_when_asked(api: Api, seeded: Seeded) -> None:
    query = "what does Caroline drink in the morning"
    plain = api.ok(RECALL, {"q": query, "ns": seeded.ns, "dry": True, "explain": False})["recall"]
    assert plain["__typename"] == "RecallOk" and plain["namespace"] == seeded.ns
    assert plain["xray"] is None
    ids = [h["memoryId"] for h in plain["hits"]]
    assert seeded.coffee_id in ids and seeded.superseded_id not in ids
    assert all(h["memory"]["id"] == h["memoryId"] for h in plain["hits"])

    explained = api.ok(RECALL, {"q": query, "ns": seeded.ns, "dry": True, "explain": True})
    xray = explained["recall"]["xray"]
    assert xray["query"] == query and xray["intent"] and xray["queriesRun"]
    assert {t["stage"] for t in xray["timings"]} >= {"channels", "score"}
    for hit in xray["hits"]:  # the X-ray's promise: contributions add up to the score
        total = math.fsum(c["value"] for c in hit["contributions"])
        assert math.isclose(total, hit["finalScore"], rel_tol=1e-9, abs_tol=1e-12)
        assert hit["channels"]
    # what is shown is what is ranked: hit scores fall in hit order and are the X-ray's totals
    hits = explained["recall"]["hits"]
    scores = [h["score"] for h in hits]
    assert scores == sorted(scores, reverse=True)
    assert scores == [h["finalScore"] for h in xray["hits"]]
    dropped = {d["memoryId"]: d["reason"] for d in xray["dropped"]}
    assert dropped.get(seeded.superseded_id) == "superseded"
    assert xray["raw"]["query"] == query and len(xray["raw"]["hits"]) == len(xray["hits"])


def test_recall_dry_leaves_memories_untouched_and_a_real_recall_touches(
    api: Api, seeded: Seeded
) -> None:
    query = "when is the quarterly review"

    def access() -> int:
        got = api.ok(
            "query($id: ID!, $ns: String) { memory(id: $id, namespace: $ns) { accessCount } }",
            {"id": seeded.review_id, "ns": seeded.ns},
        )
        count: int = got["memory"]["accessCount"]
        return count

    before = access()
    api.ok(RECALL, {"q": query, "ns": seeded.ns, "dry": True, "explain": False})
    assert access() == before
    hits = api.ok(RECALL, {"q": query, "ns": seeded.ns, "dry": False, "explain": False})
    assert seeded.review_id in [h["memoryId"] for h in hits["recall"]["hits"]]
    assert access() == before + 1


def test_recall_filters_and_rejections(api: Api, seeded: Seeded) -> None:
    query = "what does Caroline drink in the morning"
    with_old = api.ok(
        RECALL,
        {"q": query, "ns": seeded.ns, "dry": True, "explain": False}
        | {"filters": {"includeSuperseded": True}},
    )
    assert seeded.superseded_id in [h["memoryId"] for h in with_old["recall"]["hits"]]
    only_events = api.ok(
        RECALL,
        {"q": query, "ns": seeded.ns, "dry": True, "explain": False}
        | {"filters": {"categories": ["event"]}},
    )
    assert all(h["category"] == "event" for h in only_events["recall"]["hits"])
    for bad in ({"q": "   "}, {"filters": {"categories": ["nonsense"]}}):
        got = api.ok(RECALL, {"q": query, "ns": seeded.ns, "dry": True, "explain": False} | bad)
        assert got["recall"]["__typename"] == "Rejected"
        assert got["recall"]["code"] == "invalid_input" and got["recall"]["reason"]
    greeting = api.ok(RECALL, {"q": "hello!", "ns": seeded.ns, "dry": True, "explain": False})
    assert greeting["recall"]["hits"] == [] and greeting["recall"]["skipped"]


RECALL_CHOICES = """
query($q: String!, $ns: String, $p: String, $m: String) {
  recall(query: $q, namespace: $ns, profile: $p, mode: $m, dry: true) {
    __typename ... on Rejected { code reason } ... on RecallOk { hits { memoryId } }
  }
}"""


def test_recall_profile_and_mode_are_checked_at_the_edge(api: Api, seeded: Seeded) -> None:
    query = {"q": "what does Caroline drink in the morning", "ns": seeded.ns}
    spelled = api.ok(RECALL_CHOICES, query | {"p": "Recent", "m": "facts-only"})["recall"]
    assert spelled["__typename"] == "RecallOk"  # the same strings as ever, case forgiven
    for bad, named in (({"p": "fastest"}, "ranking profile"), ({"m": "all"}, "recall mode")):
        got = api.ok(RECALL_CHOICES, query | bad)["recall"]
        assert got["__typename"] == "Rejected" and got["code"] == "invalid_input"
        assert named in got["reason"], got


MEMORY = """
query($id: ID!, $ns: String) {
  memory(id: $id, namespace: $ns) {
    id namespace content category status kind tier confidence utility pinned createdAt validFrom
    entities { name type } episodes { text speaker sessionId } statusHistory { old new }
    links { type direction memory { id } } supersededBy
  }
}"""


def test_memory_by_id_with_nested_fields(api: Api, seeded: Seeded) -> None:
    old = api.ok(MEMORY, {"id": seeded.superseded_id, "ns": seeded.ns})["memory"]
    assert old["id"] == seeded.superseded_id and old["namespace"] == seeded.ns
    assert old["status"] == "superseded" and "green tea" in old["content"]
    assert old["supersededBy"] == [seeded.coffee_id]
    assert [(h["old"], h["new"]) for h in old["statusHistory"]] == [("active", "superseded")]
    assert old["episodes"] and old["episodes"][0]["speaker"] == "Caroline"
    links = {(link["type"], link["direction"], link["memory"]["id"]) for link in old["links"]}
    assert ("SUPERSEDES", "in", seeded.coffee_id) in links
    missing = api.ok(MEMORY, {"id": "no-such-memory", "ns": seeded.ns})
    assert missing["memory"] is None


PAGE = """
query($first: Int!, $after: String, $ns: String, $filters: MemoryFilters) {
  memories(first: $first, after: $after, namespace: $ns, filters: $filters) {
    edges { cursor node { id status createdAt } }
    nodes { id }
    pageInfo { hasNextPage endCursor }
  }
}"""


def test_memories_pages_through_everything_once_with_cursors(api: Api, seeded: Seeded) -> None:
    everything = api.ok(PAGE, {"first": 100, "ns": seeded.ns})["memories"]
    all_ids = [n["id"] for n in everything["nodes"]]
    assert len(all_ids) >= 4 and not everything["pageInfo"]["hasNextPage"]
    assert seeded.superseded_id not in all_ids  # active only by default
    seen: list[str] = []
    after = None
    while True:
        page = api.ok(PAGE, {"first": 2, "after": after, "ns": seeded.ns})["memories"]
        seen += [e["node"]["id"] for e in page["edges"]]
        assert len(page["edges"]) <= 2
        if not page["pageInfo"]["hasNextPage"]:
            break
        after = page["pageInfo"]["endCursor"]
        assert after == page["edges"][-1]["cursor"]
    assert seen == all_ids  # same order, nothing twice, nothing missed
    stamps = [e["node"]["createdAt"] for e in everything["edges"]]
    assert stamps == sorted(stamps, reverse=True)

    old = api.ok(PAGE, {"first": 100, "ns": seeded.ns, "filters": {"includeSuperseded": True}})
    assert seeded.superseded_id in [n["id"] for n in old["memories"]["nodes"]]
    only = api.ok(PAGE, {"first": 100, "ns": seeded.ns, "filters": {"statuses": ["superseded"]}})
    assert [n["id"] for n in only["memories"]["nodes"]] == [seeded.superseded_id]
    bad = api.gql(PAGE, {"first": 5, "after": "not-a-cursor", "ns": seeded.ns})
    assert bad["errors"][0]["extensions"]["code"] == "invalid_input"


ENTITY = """
query($id: ID, $name: String, $ns: String) {
  entity(id: $id, name: $name, namespace: $ns) {
    id name type aliases mentionCount
    memories(first: 10) { id content }
    relations { type direction confidence entity { name } }
  }
}"""


def test_entity_by_name_and_by_id_with_memories_and_relations(api: Api, seeded: Seeded) -> None:
    jon = api.ok(ENTITY, {"name": "jon smith", "ns": seeded.ns})["entity"]
    assert jon is not None and jon["name"].lower().startswith("jon")
    assert jon["mentionCount"] >= 2 and len(jon["memories"]) >= 2
    assert any("Acme" in m["content"] for m in jon["memories"])
    kinds = {(r["type"], r["direction"]) for r in jon["relations"]}
    assert ("works_at", "out") in kinds, jon["relations"]
    same = api.ok(ENTITY, {"id": jon["id"], "ns": seeded.ns})["entity"]
    assert same["id"] == jon["id"] and same["name"] == jon["name"]
    assert api.ok(ENTITY, {"name": "nobody at all", "ns": seeded.ns})["entity"] is None
    neither = api.gql(ENTITY, {"ns": seeded.ns})
    assert neither["errors"][0]["extensions"]["code"] == "invalid_input"


def test_entities_and_relations(api: Api, seeded: Seeded) -> None:
    got = api.ok(
        """query($ns: String) {
             entities(first: 50, namespace: $ns) { name type mentionCount }
             relations(first: 50, namespace: $ns) { source type target confidence count }
           }""",
        {"ns": seeded.ns},
    )
    names = {e["name"].lower() for e in got["entities"]}
    assert any("jon" in n for n in names) and any("acme" in n for n in names)
    counts = [e["mentionCount"] for e in got["entities"]]
    assert counts == sorted(counts, reverse=True)
    typed = {(r["source"].lower(), r["type"]) for r in got["relations"]}
    assert any(s.startswith("jon") and t == "works_at" for s, t in typed), typed
    assert all(0 <= r["confidence"] <= 1 for r in got["relations"])


def test_timeline_of_an_entity_and_of_a_topic_includes_superseded(api: Api, seeded: Seeded) -> None:
    old = api.ok(MEMORY, {"id": seeded.superseded_id, "ns": seeded.ns})["memory"]
    assert old["entities"], "the superseded memory should mention someone"
    name = old["entities"][0]["name"]
    timeline = api.ok(
        """query($e: String, $ns: String) {
             timeline(entity: $e, namespace: $ns) { id status validFrom createdAt }
           }""",
        {"e": name, "ns": seeded.ns},
    )["timeline"]
    ids = [m["id"] for m in timeline]
    assert seeded.superseded_id in ids
    starts = [m["validFrom"] or m["createdAt"] for m in timeline]
    assert starts == sorted(starts)
    boxes = api.ok(
        "query($ns: String) { boxes(namespace: $ns) { topics memoryIds } }", {"ns": seeded.ns}
    )["boxes"]
    box = next(b for b in boxes if b["topics"])
    by_topic = api.ok(
        "query($t: String, $ns: String) { timeline(topic: $t, namespace: $ns) { id } }",
        {"t": box["topics"][0], "ns": seeded.ns},
    )["timeline"]
    assert set(box["memoryIds"]) <= {m["id"] for m in by_topic}
    both = api.gql('query { timeline(entity: "a", topic: "b") { id } }')
    assert both["errors"][0]["extensions"]["code"] == "invalid_input"


def test_status_history(api: Api, seeded: Seeded) -> None:
    history = api.ok(
        """query($id: ID!, $ns: String) {
             statusHistory(id: $id, namespace: $ns) { old new reason actor at relatedId }
           }""",
        {"id": seeded.superseded_id, "ns": seeded.ns},
    )["statusHistory"]
    assert [(h["old"], h["new"]) for h in history] == [("active", "superseded")]
    assert history[0]["relatedId"] == seeded.coffee_id and history[0]["reason"]


def test_topics_lists_topic_clusters(api: Api, seeded: Seeded) -> None:
    query = (
        "query($ns: String) { topics(namespace: $ns) "
        "{ id name terms memberCount level parentId nameMethod } }"
    )
    assert api.ok(query, {"ns": seeded.ns})["topics"] == []  # no consolidation has run yet
    # Stand in for the consolidation job's topics step, which is what creates topics: a leaf
    # topic under a parent, as the topic tree has them.
    api.arun(
        api.km.graph.run_ddl(
            f"MATCH (m:Memory {{namespace: '{seeded.ns}', id: '{seeded.coffee_id}'}}) "
            f"CREATE (t:Topic {{namespace: '{seeded.ns}', id: 'topic-1', name: 'Drinks', "
            "terms: ['coffee', 'morning'], member_count: 1, level: 0}) "
            f"CREATE (p:Topic {{namespace: '{seeded.ns}', id: 'topic-p', name: 'Food and drink', "
            "terms: ['coffee'], member_count: 0, level: 1, name_method: 'llm'}) "
            "CREATE (m)-[:IN_TOPIC]->(t) CREATE (t)-[:SUBTOPIC_OF]->(p)"
        )
    )
    topics = api.ok(query, {"ns": seeded.ns})["topics"]
    assert topics == [
        {
            "id": "topic-1",
            "name": "Drinks",
            "terms": ["coffee", "morning"],
            "memberCount": 1,
            "level": 0,
            "parentId": "topic-p",
            "nameMethod": "local",
        },
        {
            "id": "topic-p",
            "name": "Food and drink",
            "terms": ["coffee"],
            "memberCount": 0,
            "level": 1,
            "parentId": None,
            "nameMethod": "llm",
        },
    ]
    timeline = api.ok(
        'query($ns: String) { timeline(topic: "Drinks", namespace: $ns) { id } }',
        {"ns": seeded.ns},
    )["timeline"]
    assert [m["id"] for m in timeline] == [seeded.coffee_id]


def test_boxes_and_traces(api: Api, seeded: Seeded) -> None:
    got = api.ok(
        """query($ns: String) {
             boxes(namespace: $ns) { id status sessionId topics memoryCount memoryIds traceIds
                                     openedAt lastAt memories { id } }
             open: boxes(namespace: $ns, status: "open") { id status }
             traces(namespace: $ns) { id topics boxCount boxIds lastAt }
           }""",
        {"ns": seeded.ns},
    )
    boxes = got["boxes"]
    assert any(b["sessionId"] == "s1" for b in boxes), boxes
    for box in boxes:
        assert {m["id"] for m in box["memories"]} == set(box["memoryIds"])
    assert {b["id"] for b in got["open"]} <= {b["id"] for b in boxes}
    assert all(b["status"] == "open" for b in got["open"])
    traces = got["traces"]
    assert traces and all(t["boxIds"] for t in traces)
    traced = {i for t in traces for i in t["boxIds"]}
    assert traced <= {b["id"] for b in boxes}
    bad = api.gql('{ boxes(status: "ajar") { id } }')
    assert bad["errors"][0]["extensions"]["code"] == "invalid_input"


def test_stats(api: Api, seeded: Seeded) -> None:
    stats = api.ok(
        """query($ns: String) {
             stats(namespace: $ns) { namespace nodes labels { key count }
                                     statuses { key count } relationships { key count } }
           }""",
        {"ns": seeded.ns},
    )["stats"]
    direct = api.stats(seeded.ns)
    assert stats["namespace"] == seeded.ns and stats["nodes"] == direct["nodes"]
    assert {c["key"]: c["count"] for c in stats["labels"]} == direct["labels"]
    assert {c["key"]: c["count"] for c in stats["statuses"]}["superseded"] >= 1
    assert {c["key"] for c in stats["relationships"]} >= {"MENTIONS", "DERIVED_FROM"}
