"""Every GraphQL mutation against the real stack: results, what they wrote, and the Rejected
answers (with nothing written) for expected failures."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

import pytest

from api.helpers import Api
from kgmem.errors import KgmemError

pytestmark = [pytest.mark.graph, pytest.mark.models]

REMEMBER = """
mutation($text: String!, $ns: String, $category: String! = "fact", $strategy: String) {
  remember(input: {text: $text, namespace: $ns, category: $category, strategy: $strategy}) {
    __typename
    ... on RememberOk { receipt { action memoryId reason relatedIds entities } }
    ... on Rejected { reason code }
  }
}"""
MEMORY = """
query($id: ID!, $ns: String) {
  memory(id: $id, namespace: $ns) {
    id content category status pinned utility supersededBy
    statusHistory { old new reason actor relatedId }
    links { type direction resolved memory { id } }
  }
}"""


def remember(api: Api, ns: str, text: str, **extra: Any) -> dict[str, Any]:
    out: dict[str, Any] = api.ok(REMEMBER, {"text": text, "ns": ns, **extra})["remember"]
    return out


def memory(api: Api, ns: str, memory_id: str) -> dict[str, Any] | None:
    out: dict[str, Any] | None = api.ok(MEMORY, {"id": memory_id, "ns": ns})["memory"]
    return out


def created(api: Api, ns: str, text: str, **extra: Any) -> str:
    out = remember(api, ns, text, **extra)
    assert out["__typename"] == "RememberOk", out
    memory_id: str = out["receipt"]["memoryId"]
    return memory_id


OBSERVE = """
mutation($turns: [TurnInput!]!, $ns: String, $flush: Boolean! = false) {
  observe(turns: $turns, namespace: $ns, flush: $flush) {
    __typename
    ... on ObserveOk { episodeIds newEpisodes trigger extractedEpisodes skippedTurns engine
                       receipts { action memoryId } }
    ... on Rejected { reason code }
  }
}"""


def test_observe_buffers_then_flushes_and_rejects_bad_turns(api: Api, namespace: str) -> None:
    turn = {"text": "We had pasta for dinner with Lena.", "speaker": "Sam", "sessionId": "d1"}
    buffered = api.ok(OBSERVE, {"turns": [turn], "ns": namespace})["observe"]
    assert buffered["__typename"] == "ObserveOk", buffered
    assert buffered["trigger"] == "buffered" and buffered["receipts"] == []
    assert buffered["newEpisodes"] == 1 and len(buffered["episodeIds"]) == 1
    assert api.stats(namespace)["labels"] == {"Episode": 1}

    flushed = api.ok(
        OBSERVE,
        {"turns": [turn | {"text": "Lena is moving to Oslo in May."}], "ns": namespace}
        | {"flush": True},
    )["observe"]
    assert flushed["trigger"] == "flush" and flushed["extractedEpisodes"] == 2
    assert flushed["receipts"] and {r["action"] for r in flushed["receipts"]} <= {
        "created",
        "reinforced",
        "updated",
        "superseded",
        "flagged",
    }
    assert api.stats(namespace)["labels"]["Memory"] >= 1

    before = api.stats(namespace)
    for bad in ([{"text": "   "}], [], [{"text": "fine", "role": "narrator"}]):
        out = api.ok(OBSERVE, {"turns": bad, "ns": namespace})["observe"]
        assert out["__typename"] == "Rejected" and out["code"] == "invalid_input", out
    assert api.stats(namespace) == before


def test_remember_creates_reinforces_and_rejects(api: Api, namespace: str) -> None:
    first = remember(api, namespace, "Maya prefers oat milk in her coffee.", category="preference")
    assert first["__typename"] == "RememberOk"
    assert first["receipt"]["action"] == "created"
    again = remember(api, namespace, "Maya prefers oat milk in her coffee.", category="preference")
    assert again["receipt"]["action"] == "reinforced"
    assert again["receipt"]["memoryId"] == first["receipt"]["memoryId"]
    stored = memory(api, namespace, first["receipt"]["memoryId"])
    assert stored is not None and stored["category"] == "preference"

    before = api.stats(namespace)
    for text, extra in (("  ", {}), ("x" * 9000, {}), ("ok", {"category": "gossip"})):
        out = remember(api, namespace, text, **extra)
        assert out["__typename"] == "Rejected" and out["code"] == "invalid_input", out
        assert out["reason"]
    bad_strategy = remember(api, namespace, "Maya runs marathons.", strategy="coin_flip")
    assert bad_strategy["__typename"] == "Rejected"
    assert api.stats(namespace) == before


CORRECT = """
mutation($id: ID!, $text: String!, $ns: String) {
  correct(id: $id, text: $text, namespace: $ns) {
    __typename
    ... on CorrectOk { correctedId receipt { action memoryId relatedIds } }
    ... on Rejected { reason code }
  }
}"""


def test_correct_supersedes_the_named_memory(api: Api, namespace: str) -> None:
    old = created(api, namespace, "Priya lives in Berlin.")
    out = api.ok(CORRECT, {"id": old, "text": "Priya lives in Madrid now.", "ns": namespace})
    fixed = out["correct"]
    assert fixed["__typename"] == "CorrectOk", fixed
    assert fixed["correctedId"] == old and fixed["receipt"]["action"] == "superseded"
    new = fixed["receipt"]["memoryId"]
    assert new != old and old in fixed["receipt"]["relatedIds"]
    was = memory(api, namespace, old)
    assert was is not None and was["status"] == "superseded" and was["supersededBy"] == [new]
    now = memory(api, namespace, new)
    assert now is not None and now["category"] == "correction" and now["status"] == "active"


def test_correct_supersedes_even_when_the_texts_are_unrelated(api: Api, namespace: str) -> None:
    old = created(api, namespace, "The quarterly review is on the first Monday of March.")
    text = "Our team offsite will be held in Lisbon this year."
    fixed = api.ok(CORRECT, {"id": old, "text": text, "ns": namespace})["correct"]
    assert fixed["__typename"] == "CorrectOk", fixed
    new = fixed["receipt"]["memoryId"]
    was = memory(api, namespace, old)
    assert was is not None and was["status"] == "superseded" and was["supersededBy"] == [new]
    change = was["statusHistory"][-1]
    assert change["new"] == "superseded" and change["relatedId"] == new
    assert change["actor"].startswith("api:key:")


def test_correct_rejections_write_nothing(api: Api, namespace: str) -> None:
    old = created(api, namespace, "Oskar plays the cello.")
    before = api.stats(namespace)
    cases = [
        ({"id": "no-such-memory", "text": "Oskar plays the viola."}, "not_found"),
        ({"id": old, "text": "Oskar plays the cello."}, "invalid_input"),
        ({"id": old, "text": "   "}, "invalid_input"),
    ]
    for args, code in cases:
        out = api.ok(CORRECT, args | {"ns": namespace})["correct"]
        assert out["__typename"] == "Rejected" and out["code"] == code, out
    assert api.stats(namespace) == before


SET_STATUS = """
mutation($id: ID!, $status: String!, $reason: String!, $ns: String) {
  setStatus(id: $id, status: $status, reason: $reason, namespace: $ns) {
    __typename
    ... on StatusChanged { memoryId old new }
    ... on Rejected { reason code }
  }
}"""


def test_set_status_moves_and_audits_and_refuses_illegal_moves(api: Api, namespace: str) -> None:
    mid = created(api, namespace, "The wifi password is on the fridge.")
    out = api.ok(
        SET_STATUS, {"id": mid, "status": "challenged", "reason": "double-check", "ns": namespace}
    )["setStatus"]
    assert out == {
        "__typename": "StatusChanged",
        "memoryId": mid,
        "old": "active",
        "new": "challenged",
    }
    stored = memory(api, namespace, mid)
    assert stored is not None and stored["status"] == "challenged"
    history = stored["statusHistory"]
    assert [(h["old"], h["new"], h["reason"]) for h in history] == [
        ("active", "challenged", "double-check")
    ]
    assert history[0]["actor"].startswith("api:key:")
    for status, code in (("merged", None), ("active", "invalid_input"), ("bogus", "invalid_input")):
        got = api.ok(SET_STATUS, {"id": mid, "status": status, "reason": "r", "ns": namespace})
        if code is None:
            assert got["setStatus"]["__typename"] == "StatusChanged"
        else:  # merged → active is not a legal transition; bogus is not a status
            assert got["setStatus"]["code"] == code, got
    missing = api.ok(SET_STATUS, {"id": "nope", "status": "stale", "reason": "r", "ns": namespace})
    assert missing["setStatus"]["code"] == "not_found"


PIN = """
mutation($id: ID!, $ns: String) {
  pin(id: $id, namespace: $ns) { __typename ... on PinOk { memory { id pinned } }
                                 ... on Rejected { code } }
}"""
UNPIN = PIN.replace("pin(", "unpin(")


def test_pin_and_unpin(api: Api, namespace: str) -> None:
    mid = created(api, namespace, "Ada's birthday is on 12 June.")
    pinned = api.ok(PIN, {"id": mid, "ns": namespace})["pin"]
    assert pinned == {"__typename": "PinOk", "memory": {"id": mid, "pinned": True}}
    stored = memory(api, namespace, mid)
    assert stored is not None and stored["pinned"] is True
    unpinned = api.ok(UNPIN, {"id": mid, "ns": namespace})["unpin"]
    assert unpinned["memory"]["pinned"] is False
    assert api.ok(PIN, {"id": "nope", "ns": namespace})["pin"]["code"] == "not_found"


FORGET = """
mutation($id: ID!, $hard: Boolean!, $ns: String) {
  forget(id: $id, hard: $hard, reason: "asked to", namespace: $ns) {
    __typename
    ... on Forgotten { memoryId hard status episodesDeleted auditRecordsDeleted memoriesErased
                       entitiesDeleted episodesRedacted }
    ... on Rejected { code reason }
  }
}"""


def test_forget_soft_keeps_an_audited_tombstone(api: Api, namespace: str) -> None:
    mid = created(api, namespace, "Tom's locker code is 4312.")
    out = api.ok(FORGET, {"id": mid, "hard": False, "ns": namespace})["forget"]
    assert out["__typename"] == "Forgotten" and out["status"] == "deleted" and not out["hard"]
    stored = memory(api, namespace, mid)
    assert stored is not None and stored["status"] == "deleted"
    assert [(h["new"], h["reason"]) for h in stored["statusHistory"]] == [("deleted", "asked to")]
    again = api.ok(FORGET, {"id": mid, "hard": False, "ns": namespace})["forget"]
    assert again["__typename"] == "Rejected" and again["code"] == "invalid_input"


def test_forget_hard_removes_the_memory_and_its_own_episodes(api: Api, namespace: str) -> None:
    keep = created(api, namespace, "Lena's favourite colour is teal.")
    gone = created(api, namespace, "Tom's locker code is 4312.")
    api.ok(SET_STATUS, {"id": gone, "status": "challenged", "reason": "r", "ns": namespace})
    before = api.stats(namespace)
    out = api.ok(FORGET, {"id": gone, "hard": True, "ns": namespace})["forget"]
    assert out["__typename"] == "Forgotten" and out["hard"] and out["status"] is None
    assert out["episodesDeleted"] == 1 and out["auditRecordsDeleted"] == 1
    assert (out["memoriesErased"], out["episodesRedacted"]) == (1, 0)
    assert out["entitiesDeleted"] >= 1  # Tom: only the forgotten memory mentioned him
    assert memory(api, namespace, gone) is None
    assert memory(api, namespace, keep) is not None
    after = api.stats(namespace)
    assert after["labels"]["Memory"] == before["labels"]["Memory"] - 1
    assert after["labels"]["Episode"] == before["labels"]["Episode"] - 1
    assert after["labels"]["StatusChange"] == 1  # only that it was erased, no reason text
    history = api.km.status_history(gone, namespace=namespace)
    assert [(h.new, h.reason) for h in api.arun(history)] == [("purged", "erased on request")]
    missing = api.ok(FORGET, {"id": gone, "hard": True, "ns": namespace})["forget"]
    assert missing["code"] == "not_found"


FEEDBACK = """
mutation($id: ID!, $useful: Boolean!, $ns: String) {
  feedback(id: $id, useful: $useful, namespace: $ns) {
    __typename
    ... on FeedbackOk { memoryId useful utilityBefore utility }
    ... on Rejected { code }
  }
}"""


def test_feedback_moves_utility_by_the_seed_004_rule(api: Api, namespace: str) -> None:
    mid = created(api, namespace, "The staging server restarts every Sunday.")
    start = memory(api, namespace, mid)
    assert start is not None
    u0 = start["utility"]
    up = api.ok(FEEDBACK, {"id": mid, "useful": True, "ns": namespace})["feedback"]
    assert up["utilityBefore"] == pytest.approx(u0)
    assert up["utility"] == pytest.approx(u0 + 0.1 * (1 - u0))
    down = api.ok(FEEDBACK, {"id": mid, "useful": False, "ns": namespace})["feedback"]
    assert down["utilityBefore"] == pytest.approx(up["utility"])
    assert down["utility"] == pytest.approx(up["utility"] * 0.9)
    stored = memory(api, namespace, mid)
    assert stored is not None and stored["utility"] == pytest.approx(down["utility"])
    missing = api.ok(FEEDBACK, {"id": "nope", "useful": True, "ns": namespace})["feedback"]
    assert missing["code"] == "not_found"


RESOLVE = """
mutation($keep: ID!, $drop: ID!, $ns: String) {
  resolveConflict(keepId: $keep, dropId: $drop, reason: "the user said so", namespace: $ns) {
    __typename
    ... on ConflictResolved { keptId droppedId droppedStatusBefore contradictionsResolved }
    ... on Rejected { code reason }
  }
}"""


def test_resolve_conflict_settles_an_ask_contradiction(api: Api, namespace: str) -> None:
    old = created(api, namespace, "Priya lives in Berlin.", strategy="ask")
    out = remember(api, namespace, "Actually, Priya lives in Madrid now.", strategy="ask")
    assert out["receipt"]["action"] == "flagged", out
    new = out["receipt"]["memoryId"]
    both = [memory(api, namespace, i) for i in (old, new)]
    assert all(m is not None and m["status"] == "active" for m in both)

    resolved = api.ok(RESOLVE, {"keep": new, "drop": old, "ns": namespace})["resolveConflict"]
    assert resolved["__typename"] == "ConflictResolved", resolved
    assert resolved["droppedStatusBefore"] == "active"
    assert resolved["contradictionsResolved"] >= 1
    dropped = memory(api, namespace, old)
    assert dropped is not None and dropped["status"] == "superseded"
    assert dropped["supersededBy"] == [new]
    contradictions = [link for link in dropped["links"] if link["type"] == "CONTRADICTS"]
    assert contradictions and all(link["resolved"] for link in contradictions)
    assert dropped["statusHistory"][-1]["reason"] == "the user said so"

    for keep, drop, code in ((new, new, "invalid_input"), (new, "nope", "not_found")):
        got = api.ok(RESOLVE, {"keep": keep, "drop": drop, "ns": namespace})["resolveConflict"]
        assert got["__typename"] == "Rejected" and got["code"] == code, got
    # the loser is superseded now: keeping it is refused
    refused = api.ok(RESOLVE, {"keep": old, "drop": new, "ns": namespace})["resolveConflict"]
    assert refused["code"] == "invalid_input"


CONSOLIDATE = """
mutation($ns: String, $steps: [String!], $dry: Boolean!) {
  consolidate(namespace: $ns, steps: $steps, dryRun: $dry) {
    __typename
    ... on ConsolidateOk { namespace dryRun report }
    ... on Unavailable { message code }
    ... on Rejected { reason code }
  }
}"""


def test_consolidate_says_clearly_when_no_job_is_installed(
    api: Api, namespace: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(api.km, "consolidate", None, raising=False)
    out = api.ok(CONSOLIDATE, {"ns": namespace, "dry": False})["consolidate"]
    assert out["__typename"] == "Unavailable" and out["code"] == "unavailable"
    assert "not available" in out["message"]


def test_consolidate_runs_the_job_and_returns_its_report(
    api: Api, namespace: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    calls: list[dict[str, Any]] = []

    @dataclass
    class Report:
        steps: list[str]
        finished_at: datetime

    async def job(**options: Any) -> Report:
        calls.append(options)
        if options["namespace"] == "busy":
            raise KgmemError("another worker holds the lease")
        return Report(options.get("steps", ["all"]), datetime(2024, 1, 1, tzinfo=UTC))

    monkeypatch.setattr(api.km, "consolidate", job, raising=False)
    out = api.ok(CONSOLIDATE, {"ns": namespace, "steps": ["tiers"], "dry": True})["consolidate"]
    assert out == {
        "__typename": "ConsolidateOk",
        "namespace": namespace,
        "dryRun": True,
        "report": {"steps": ["tiers"], "finished_at": "2024-01-01T00:00:00+00:00"},
    }
    assert calls == [{"namespace": namespace, "dry_run": True, "steps": ["tiers"]}]
    busy = api.ok(CONSOLIDATE, {"ns": "busy", "dry": False})["consolidate"]
    assert busy["__typename"] == "Rejected" and "lease" in busy["reason"]


def test_consolidate_dry_run_through_the_real_job(api: Api, namespace: str) -> None:
    created(api, namespace, "Maya prefers oat milk in her coffee.")
    out = api.ok(CONSOLIDATE, {"ns": namespace, "dry": True})["consolidate"]
    assert out["__typename"] == "ConsolidateOk", out
    assert out["dryRun"] is True and out["report"]
