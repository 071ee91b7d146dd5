"""Entity facts, episode hits and supersede chains through GraphQL and the SDK client, on the
real stack: the quickstart's conversation (oat milk, then almond milk) observed through the API."""

from __future__ import annotations

import json
import uuid
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest

from api.helpers import ADMIN_KEY, Api
from kgmem.errors import InvalidInput, NotFound
from kgmem.sdk.client import KgmemClient

pytestmark = [pytest.mark.graph, pytest.mark.models]

SAMPLE = Path(__file__).resolve().parents[2] / "examples" / "sample_conversation.jsonl"
OBSERVE = """
mutation($turns: [TurnInput!]!, $ns: String) {
  observe(turns: $turns, flush: true, namespace: $ns) { __typename }
}"""
CLAIM = "value polarity memoryId status supersededBy"
FACTS = f"""
query($entity: String!, $slot: String, $ns: String) {{
  facts(entity: $entity, slot: $slot, namespace: $ns) {{
    __typename
    ... on EntityFactsOk {{
      subject entityId name
      slots {{ slot multiValued current {{ {CLAIM} }} history {{ {CLAIM} }} }}
    }}
    ... on Rejected {{ reason code }}
  }}
}}"""
ENTITY_FACTS = """
query($name: String!, $slot: String, $ns: String) {
  entity(name: $name, namespace: $ns) {
    name
    facts(slot: $slot) {
      __typename
      ... on EntityFactsOk { slots { slot current { value } history { value } } }
      ... on Rejected { reason code }
    }
  }
}"""
RECALL = """
query($q: String!, $ns: String, $episodes: Boolean!) {
  recall(query: $q, limit: 10, dry: true, explain: true, namespace: $ns, episodeHits: $episodes) {
    ... on RecallOk {
      hits { kind memoryId content turnIds memory { id } }
      xray { hits { kind memoryId } dropped { memoryId reason detail } }
    }
  }
}"""
TIMELINE = """
query($entity: String!, $ns: String) {
  timeline(entity: $entity, namespace: $ns) {
    id status supersededBy claim { subject slot value polarity }
  }
}"""


@pytest.fixture(scope="module")
def maya(api: Api) -> Iterator[str]:
    ns = f"facts-{uuid.uuid4().hex[:10]}"
    turns = []
    for line in SAMPLE.read_text().splitlines():
        d = json.loads(line)
        turns.append(
            {k: d[k] for k in ("text", "speaker", "at") if k in d}
            | {"sessionId": d["session_id"], "turnId": d["turn_id"], "role": d.get("role", "user")}
        )
    assert api.ok(OBSERVE, {"turns": turns, "ns": ns})["observe"]["__typename"] == "ObserveOk"
    yield ns
    api.arun(api.km.wipe_namespace(ns))


def _milk(api: Api, ns: str) -> dict[str, Any]:
    facts = api.ok(FACTS, {"entity": "Maya", "ns": ns})["facts"]
    assert facts["__typename"] == "EntityFactsOk" and facts["name"] == "Maya"
    (milk,) = [s for s in facts["slots"] if s["slot"] == "preference:milk"]
    return milk


def test_facts_show_the_current_value_and_the_superseded_history(api: Api, maya: str) -> None:
    milk = _milk(api, maya)
    assert [v["value"] for v in milk["current"]] == ["almond milk"]
    assert [v["value"] for v in milk["history"]] == ["oat milk"]
    assert milk["history"][0]["supersededBy"] == [milk["current"][0]["memoryId"]]
    assert milk["multiValued"] is False
    nested = api.ok(ENTITY_FACTS, {"name": "Maya", "slot": "preference", "ns": maya})
    slots = nested["entity"]["facts"]["slots"]
    assert [(s["slot"], s["current"][0]["value"]) for s in slots] == [
        ("preference:milk", "almond milk")
    ]


def test_bad_facts_input_is_a_typed_rejection(api: Api, maya: str) -> None:
    bad = api.ok(FACTS, {"entity": "Maya", "slot": "shoe size", "ns": maya})["facts"]
    assert bad["__typename"] == "Rejected" and bad["code"] == "invalid_input"
    missing = api.ok(FACTS, {"entity": "Nobody Atall", "ns": maya})["facts"]
    assert missing["__typename"] == "Rejected" and missing["code"] == "not_found"
    empty = api.ok(FACTS, {"entity": "  ", "ns": maya})["facts"]
    assert empty["__typename"] == "Rejected" and empty["code"] == "invalid_input"
    nested = api.ok(ENTITY_FACTS, {"name": "Maya", "slot": "shoe size", "ns": maya})
    assert nested["entity"]["facts"]["code"] == "invalid_input"


def test_recall_marks_episode_hits_and_names_what_superseded_a_drop(api: Api, maya: str) -> None:
    milk = _milk(api, maya)
    almond, oat = milk["current"][0]["memoryId"], milk["history"][0]["memoryId"]
    r = api.ok(
        RECALL, {"q": "What milk does Maya take in her coffee?", "ns": maya, "episodes": True}
    )
    dropped = {d["memoryId"]: d for d in r["recall"]["xray"]["dropped"]}
    assert dropped[oat]["reason"] == "superseded"
    assert dropped[oat]["detail"] == f"superseded by {almond}"
    r = api.ok(RECALL, {"q": "How are you feeling?", "ns": maya, "episodes": True})["recall"]
    (turn,) = [h for h in r["hits"] if h["kind"] == "episode"]
    assert turn["turnIds"] == ["1:2"] and turn["memory"] is None
    assert "How are you feeling?" in turn["content"]
    assert [h["kind"] for h in r["xray"]["hits"]] == [h["kind"] for h in r["hits"]]
    off = api.ok(RECALL, {"q": "How are you feeling?", "ns": maya, "episodes": False})["recall"]
    assert {h["kind"] for h in off["hits"]} == {"memory"}


def test_timeline_shows_claims_and_the_supersede_chain(api: Api, maya: str) -> None:
    milk = _milk(api, maya)
    almond, oat = milk["current"][0]["memoryId"], milk["history"][0]["memoryId"]
    rows = {m["id"]: m for m in api.ok(TIMELINE, {"entity": "Maya", "ns": maya})["timeline"]}
    assert rows[oat]["supersededBy"] == [almond] and rows[oat]["status"] == "superseded"
    assert rows[oat]["claim"]["slot"] == rows[almond]["claim"]["slot"] == "preference:milk"
    assert (rows[oat]["claim"]["value"], rows[almond]["claim"]["value"]) == (
        "oat milk",
        "almond milk",
    )


def test_the_sdk_client_reads_facts_and_episode_hits(api: Api, maya: str) -> None:
    transport = httpx.ASGITransport(app=api.app)
    client = KgmemClient("http://kgmem.test", ADMIN_KEY, transport=transport)
    facts = api.arun(client.entity_facts("Maya", namespace=maya))
    (milk,) = [s for s in facts.slots if s.slot == "preference:milk"]
    assert milk.current[0].value == "almond milk" and milk.history[0].value == "oat milk"
    with pytest.raises(InvalidInput):
        api.arun(client.entity_facts("Maya", slot="shoe size", namespace=maya))
    with pytest.raises(NotFound):
        api.arun(client.entity_facts("Nobody Atall", namespace=maya))
    result = api.arun(client.recall("How are you feeling?", namespace=maya, dry=True))
    assert [h.turn_ids for h in result.hits if h.kind == "episode"] == [("1:2",)]
    off = api.arun(
        client.recall("How are you feeling?", namespace=maya, dry=True, episode_hits=False)
    )
    assert {h.kind for h in off.hits} == {"memory"}
