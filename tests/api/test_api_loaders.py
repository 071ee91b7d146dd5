"""No N+1: a nested request over many memories costs one statement per nested field, however
many memories it covers (counted with GraphClient.statements_run)."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest

from api.helpers import Api

pytestmark = [pytest.mark.graph, pytest.mark.models]

PEOPLE = [
    ("Ava Brooks", "Orbit Labs", "Denver"),
    ("Ben Carter", "Nimbus Corp", "Austin"),
    ("Chloe Diaz", "Quartz Systems", "Seattle"),
    ("Dan Evans", "Helix Media", "Boston"),
    ("Ella Fischer", "Pylon Energy", "Chicago"),
    ("Finn Garcia", "Vertex Health", "Miami"),
    ("Gina Hall", "Lumen Foods", "Phoenix"),
    ("Hugo Ito", "Cobalt Bank", "Dallas"),
    ("Iris Jones", "Summit Travel", "Portland"),
    ("Jack Klein", "Beacon Games", "Atlanta"),
    ("Kara Lopez", "Delta Robotics", "Detroit"),
    ("Liam Moore", "Echo Studios", "Nashville"),
]
NESTED = """
query($first: Int!, $ns: String) {
  memories(first: $first, namespace: $ns) {
    nodes {
      id content
      entities(first: 2) {
        name type memories(first: 3) { id } relations(first: 2) { type entity { name } }
      }
      episodes(first: 2) { text speaker }
      statusHistory(first: 3) { new }
      links(first: 3) { type memory { id } }
      supersededBy
    }
  }
}"""


def test_nested_memories_cost_the_same_number_of_statements_for_3_or_12(
    api: Api, namespace: str
) -> None:
    t0 = datetime(2024, 1, 8, 9, tzinfo=UTC)
    turns = [
        {
            "text": f"{person} works at {org} in {city}.",
            "speaker": "Sam",
            "sessionId": "n1",
            "at": (t0 + timedelta(minutes=i)).isoformat(),
        }
        for i, (person, org, city) in enumerate(PEOPLE)
    ]
    out = api.ok(
        """mutation($turns: [TurnInput!]!, $ns: String) {
             observe(turns: $turns, flush: true, namespace: $ns) {
               ... on ObserveOk { receipts { action } } } }""",
        {"turns": turns, "ns": namespace},
    )
    assert len(out["observe"]["receipts"]) >= len(PEOPLE)

    def cost(first: int) -> tuple[int, int]:
        before = api.km.graph.statements_run
        data = api.ok(NESTED, {"first": first, "ns": namespace})
        nodes = data["memories"]["nodes"]
        assert all(n["entities"] and n["episodes"] for n in nodes)
        return api.km.graph.statements_run - before, len(nodes)

    small, n_small = cost(3)
    large, n_large = cost(12)
    assert (n_small, n_large) == (3, 12)
    # page + entities + episodes + history + links (+supersededBy, same loader) +
    # entity memories + entity relations = 7 statements, for 3 memories or for 12
    assert small == large == 7, (small, large)


def test_recall_hits_and_box_members_load_in_one_batch(api: Api, namespace: str) -> None:
    for person, org, city in PEOPLE[:6]:
        api.ok(
            "mutation($t: String!, $ns: String) { remember(input: {text: $t, namespace: $ns})"
            " { __typename } }",
            {"t": f"{person} works at {org} in {city}.", "ns": namespace},
        )
    query = """query($ns: String) {
      recall(query: "who works where", namespace: $ns, dry: true, explain: true, limit: 6) {
        ... on RecallOk { hits { memory { id entities(first: 3) { name } } }
          xray { queriesRun } } } }"""
    before = api.km.graph.statements_run
    data = api.ok(query, {"ns": namespace})["recall"]
    spent = api.km.graph.statements_run - before
    assert len(data["hits"]) >= 3
    # the recall's own queries, then one statement for all hits' memories, one for entities
    assert spent == len(data["xray"]["queriesRun"]) + 2, (spent, data["xray"]["queriesRun"])

    before = api.km.graph.statements_run
    boxes = api.ok(
        "query($ns: String) { boxes(namespace: $ns) {"
        " memories(first: 10) { id entities(first: 3) { name } } } }",
        {"ns": namespace},
    )["boxes"]
    assert sum(len(b["memories"]) for b in boxes) == 6
    assert api.km.graph.statements_run - before == 3  # boxes, their memories, entities
