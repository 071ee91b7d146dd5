"""The consolidation job on the real Neo4j + GDS: every step at its thresholds, idempotence,
reversible merges, planted topics, transactional steps, the lease, bad input, resume.

Memories are planted through the write path's own queries with chosen timestamps and
embeddings, and every run passes ``now``, so each threshold is tested exactly at its value.
"""

from __future__ import annotations

import itertools
import uuid
from collections.abc import Sequence
from datetime import UTC, datetime, timedelta
from typing import Any

import pytest
from support.vectors import at_cosine, direction

from kgmem.core.text import content_hash, normalize_name
from kgmem.errors import InvalidInput, NotFound
from kgmem.graph import lease_repository, redundancy_repository, repository, topic_repository
from kgmem.graph.client import Row, Step
from kgmem.lifecycle.consolidation import lease as leases
from kgmem.lifecycle.consolidation.report import ConsolidationReport
from kgmem.ml.llm import LLMResult, LLMUnavailable
from kgmem.service import Kgmem

NOW = datetime(2025, 6, 1, 12, 0, tzinfo=UTC)
MIN = timedelta(minutes=1)
DAY = timedelta(days=1)
# FSRS-6 with the context stability (21 days, human, semantic tier, no accesses):
# R = (1 + t / 189)^-2, so R crosses 0.3, 0.1 and 0.01 at these ages.
S_CONTEXT = 21.0


def _age_at(r: float) -> timedelta:
    return timedelta(days=9 * S_CONTEXT * (r**-0.5 - 1))


def plant(
    km: Kgmem,
    arun: Any,
    ns: str,
    content: str | None = None,
    *,
    entities: Sequence[str | tuple[str, str]] = (),
    **props: Any,
) -> str:
    """One memory with chosen properties (defaults: an active episodic human fact created and
    accessed at NOW; stored when created unless ``recorded_at`` says otherwise), mentioning
    ``entities`` (name, or (name, type))."""
    mid = str(uuid.uuid4())
    text = content or f"planted memory {mid[:8]}"
    row: dict[str, Any] = {
        "id": mid,
        "content": text,
        "content_hash": content_hash(text),
        "category": "fact",
        "kind": "note",
        "type": "fact",
        "tier": "episodic",
        "status": "active",
        "lifecycle_state": "active",
        "verification_state": "user_confirmed",
        "importance": 0.5,
        "confidence": 0.8,
        "source": "human",
        "utility": 0.5,
        "stability": 1.0,
        "access_count": 0,
        "repetition_count": 1,
        "created_at": NOW,
        "last_accessed": NOW,
        "modified_at": NOW,
        "recorded_at": NOW,
        "pinned": False,
        "immutable": False,
        "flashbulb": False,
        "tags": [],
    }
    row.update(props)
    # A memory planted as created long ago was stored then too: the lifecycle counts ages from
    # the transaction time (recorded_at), so an aged plant needs both unless a test splits them.
    if "recorded_at" not in props:
        row["recorded_at"] = row["created_at"]
    ents, mentions = [], []
    for e in entities:
        name, etype = (e, "person") if isinstance(e, str) else e
        norm = normalize_name(name)
        eid = f"{ns}:{norm}:{etype}"
        ents.append(
            {
                "id": eid,
                "name": name,
                "normalized_name": norm,
                "type": etype,
                "first_token": norm.split()[0],
                "at": NOW,
                "embedding": None,
            }
        )
        mentions.append(
            {
                "memory_id": mid,
                "entity_id": eid,
                "confidence": 0.9,
                "at": NOW,
                "surface": name,
                "resolved_by": "new",
            }
        )
    arun(
        km.graph.write_batch(
            [
                repository.create_memories(
                    namespace=ns, memories=[{"key": 0, "props": row, "episode_ids": []}]
                ),
                repository.merge_entities(namespace=ns, entities=ents, mentions=mentions),
            ]
        )
    )
    return mid


def link(km: Kgmem, arun: Any, ns: str, source: str, target: str, kind: str, conf: float = 0.5):
    arun(
        km.graph.write_batch(
            [
                repository.link_memories(
                    namespace=ns,
                    links=[
                        {
                            "source_id": source,
                            "target_id": target,
                            "type": kind,
                            "confidence": conf,
                            "reason": "planted",
                            "at": NOW,
                        }
                    ],
                )
            ]
        )
    )


def mem(km: Kgmem, arun: Any, ns: str, mid: str) -> dict[str, Any]:
    row = arun(repository.get_memory(km.graph, namespace=ns, memory_id=mid))
    assert row is not None, f"memory {mid} is gone"
    return dict(row["memory"])


def run(km: Kgmem, arun: Any, ns: str, *steps: str, **kw: Any) -> ConsolidationReport:
    kw.setdefault("now", NOW)
    report = arun(km.consolidate(ns, steps=list(steps) or None, **kw))
    assert report.ok, report.errors
    return report


# --- bad input ----------------------------------------------------------------------------------


def test_lifecycle_bad_input_is_refused_and_changes_nothing(
    km: Kgmem, arun: Any, namespace: str
) -> None:
    stale = plant(km, arun, namespace, category="context", tier="semantic",
                  last_accessed=NOW - _age_at(0.3) - DAY)  # fmt: skip
    before = arun(km.stats(namespace=namespace))
    bad: list[dict[str, Any]] = [
        {"steps": ["tiers", "bogus"]},
        {"steps": []},
        {"steps": [3]},
        {"caps": {"batch": -1}},
        {"caps": {"batch": 0}},
        {"caps": {"rehearsal": 10**9}},
        {"caps": {"batch": True}},
        {"caps": {"nope": 5}},
        {"caps": [1, 2]},
        {"now": datetime(2025, 1, 1)},  # naive
        {"dry_run": "yes"},
    ]
    for kwargs in bad:
        with pytest.raises(InvalidInput):
            arun(km.consolidate(namespace, **{"now": NOW, **kwargs}))
    with pytest.raises(InvalidInput, match="does not exist"):
        arun(km.consolidate(f"nothing-{uuid.uuid4().hex[:8]}", now=NOW))
    with pytest.raises(InvalidInput):
        arun(km.consolidate("bad namespace!", now=NOW))
    assert arun(km.stats(namespace=namespace)) == before
    assert mem(km, arun, namespace, stale)["status"] == "active"
    lease = arun(lease_repository.get_consolidation_lease(km.graph, namespace=namespace))
    assert lease["holder"] is None and lease["epoch"] == 0


# --- state transitions ---------------------------------------------------------------------------


def test_lifecycle_state_transitions_fire_exactly_at_their_thresholds(
    km: Kgmem, arun: Any, namespace: str
) -> None:
    ns = namespace

    def p(**kw: Any) -> str:
        return plant(km, arun, ns, **kw)

    ctx = {"category": "context", "tier": "semantic"}
    ids = {
        # decay chain (docs/lifecycle.md#retention): R < 0.3 stale, < 0.1 archived, < 0.01 deleted
        "above_stale": p(**ctx, last_accessed=NOW - _age_at(0.3) + MIN, created_at=NOW - 500 * DAY),
        "stale": p(**ctx, last_accessed=NOW - _age_at(0.3) - MIN, created_at=NOW - 500 * DAY),
        "above_archive": p(**ctx, last_accessed=NOW - _age_at(0.1) + MIN,
                           created_at=NOW - 500 * DAY),
        "archived": p(**ctx, last_accessed=NOW - _age_at(0.1) - MIN, created_at=NOW - 500 * DAY),
        "deleted": p(**ctx, last_accessed=NOW - _age_at(0.01) - MIN,
                     created_at=NOW - 2000 * DAY),
        # stale for 30 days → archived (R still between 0.1 and 0.3)
        "stale_30d": p(**ctx, status="stale", stale_since=NOW - 30 * DAY,
                       last_accessed=NOW - 200 * DAY, created_at=NOW - 200 * DAY),
        "stale_29d": p(**ctx, status="stale", stale_since=NOW - 30 * DAY + MIN,
                       last_accessed=NOW - 200 * DAY, created_at=NOW - 200 * DAY),
        # exemptions: protected category, pinned, immutable, dormant (frozen)
        "protected": p(category="preference", tier="semantic", last_accessed=NOW - 5000 * DAY,
                       created_at=NOW - 5000 * DAY),
        "pinned": p(**ctx, pinned=True, last_accessed=NOW - 5000 * DAY,
                    created_at=NOW - 5000 * DAY),
        "immutable": p(**ctx, immutable=True, last_accessed=NOW - 5000 * DAY,
                       created_at=NOW - 5000 * DAY),
        "dormant": p(**{**ctx, "tier": "dormant"}, last_accessed=NOW - 5000 * DAY,
                     frozen_at=NOW - 5000 * DAY, created_at=NOW - 5000 * DAY),
        # purge after 90 days deleted (docs/lifecycle.md)
        "purged": p(status="deleted", deleted_at=NOW - 90 * DAY),
        "kept_deleted": p(status="deleted", deleted_at=NOW - 90 * DAY + MIN),
        # speculative expiry: confidence < 0.40, 30 days unconfirmed (docs/lifecycle.md)
        "speculative": p(confidence=0.39, verification_state="unverified",
                         created_at=NOW - 30 * DAY),
        "speculative_young": p(confidence=0.39, verification_state="unverified",
                               created_at=NOW - 30 * DAY + MIN),
        "not_speculative": p(confidence=0.40, verification_state="unverified",
                             created_at=NOW - 30 * DAY),
        "confirmed": p(confidence=0.39, created_at=NOW - 30 * DAY),
        # foresight expiry: valid_until passed → superseded (docs/lifecycle.md)
        "foresight": p(valid_until=NOW),
        "foresight_future": p(valid_until=NOW + MIN),
        # commitment decay: resolved 90 days ago → deleted (docs/lifecycle.md#retention)
        "commitment_old": p(category="commitment", valid_until=NOW - 90 * DAY,
                            created_at=NOW - 100 * DAY),
        "commitment_recent": p(category="commitment", valid_until=NOW - 90 * DAY + MIN,
                               created_at=NOW - 100 * DAY),
        "commitment_open": p(category="commitment", created_at=NOW - 400 * DAY),
        # fact archival: age > 90 days, importance < 0.3, ≤ 2 accesses (docs/lifecycle.md)
        "archival": p(importance=0.29, access_count=2, created_at=NOW - 90 * DAY - MIN),
        "archival_age": p(importance=0.29, access_count=2, created_at=NOW - 90 * DAY),
        "archival_importance": p(importance=0.3, access_count=2, created_at=NOW - 91 * DAY),
        "archival_access": p(importance=0.29, access_count=3, created_at=NOW - 91 * DAY),
        "archival_protected": p(category="decision", importance=0.29, access_count=0,
                                created_at=NOW - 91 * DAY),
    }  # fmt: skip
    report = run(km, arun, ns, "state_transitions")
    expected = {
        "above_stale": "active",
        "stale": "stale",
        "above_archive": "stale",
        "archived": "archived",
        "deleted": "deleted",
        "stale_30d": "archived",
        "stale_29d": "stale",
        "protected": "active",
        "pinned": "active",
        "immutable": "active",
        "dormant": "active",
        "kept_deleted": "deleted",
        "speculative": "deleted",
        "speculative_young": "active",
        "not_speculative": "active",
        "confirmed": "active",
        "foresight": "superseded",
        "foresight_future": "active",
        "commitment_old": "deleted",
        "commitment_recent": "superseded",
        "commitment_open": "active",
        "archival": "archived",
        "archival_age": "active",
        "archival_importance": "active",
        "archival_access": "active",
        "archival_protected": "active",
    }
    got = {name: mem(km, arun, ns, ids[name])["status"] for name in expected}
    assert got == expected
    assert arun(repository.get_memory(km.graph, namespace=ns, memory_id=ids["purged"])) is None
    step = report.step("state_transitions")
    assert step.changes == {
        "stale": 2,
        "archived": 3,
        "deleted": 3,
        "superseded": 2,
        "purged": 1,
    }
    history = arun(km.status_history(ids["stale"], namespace=ns))
    assert [(h.old, h.new, h.actor) for h in history] == [("active", "stale", "consolidation")]
    assert [h.new for h in arun(km.status_history(ids["purged"], namespace=ns))] == ["purged"]
    # the same clock again: nothing left to do
    assert run(km, arun, ns, "state_transitions").changed == 0


# --- tiers ----------------------------------------------------------------------------------------


def test_lifecycle_tier_rules_fire_exactly_at_their_thresholds(
    km: Kgmem, arun: Any, namespace: str
) -> None:
    ns = namespace

    def p(**kw: Any) -> str:
        return plant(km, arun, ns, **kw)

    sem = {"tier": "semantic", "created_at": NOW - 100 * DAY}
    ids = {
        # working → episodic: 30 minutes or 2 accesses (docs/lifecycle.md)
        "w_30min": p(tier="working", created_at=NOW - timedelta(minutes=30)),
        "w_young": p(tier="working", created_at=NOW - timedelta(minutes=30) + timedelta(seconds=1)),
        "w_2access": p(tier="working", access_count=2),
        # episodic → semantic: access ≥ 3, or utility ≥ 0.7 at ≥ 7 days, or shared entity
        "e_access3": p(access_count=3),
        "e_access2": p(access_count=2),
        "e_useful": p(utility=0.7, created_at=NOW - 7 * DAY, last_accessed=NOW - 7 * DAY),
        "e_useful_young": p(utility=0.7, created_at=NOW - 7 * DAY + MIN),
        "e_less_useful": p(utility=0.69, created_at=NOW - 8 * DAY),
        "zed1": p(entities=["Zed"]),
        "zed2": p(entities=["Zed"]),
        "zed3": p(tier="working", created_at=NOW - DAY, entities=["Zed"]),
        "yan1": p(entities=["Yan"]),
        "yan2": p(entities=["Yan"]),
        "e_pinned": p(access_count=5, pinned=True),
        "e_immutable": p(access_count=5, immutable=True),
        # semantic → dormant: idle ≥ 60 days and utility < 0.2 (docs/lifecycle.md)
        "s_dormant": p(**sem, utility=0.19, last_accessed=NOW - 60 * DAY),
        "s_idle_less": p(**sem, utility=0.19, last_accessed=NOW - 60 * DAY + MIN),
        "s_utility": p(**sem, utility=0.2, last_accessed=NOW - 60 * DAY),
        "s_flashbulb": p(**sem, utility=0.1, flashbulb=True, last_accessed=NOW - 90 * DAY),
        "s_pinned": p(**sem, utility=0.1, pinned=True, last_accessed=NOW - 90 * DAY),
        # dormant → semantic when accessed after it froze
        "reactivated": p(tier="dormant", frozen_at=NOW - 10 * DAY, last_accessed=NOW - DAY),
        "still_dormant": p(tier="dormant", frozen_at=NOW - DAY, last_accessed=NOW - 10 * DAY),
        # the core gate: identity passes, a plain fact and "for now" rules do not
        "core": p(**sem, category="identity", importance=0.7, access_count=3,
                  content="The user is Dana, a data engineer in Lisbon."),
        "gate_fact": p(**sem, category="fact", importance=0.7, access_count=3,
                       content="The staging cluster has 12 nodes."),
        "gate_temporary": p(**sem, category="principle", importance=0.7, access_count=3,
                            content="For now, deploy from the release branch."),
        "gate_unimportant": p(**sem, category="identity", importance=0.59, access_count=3),
        # the hot tier
        "hot": p(tier="semantic", utility=0.85, access_count=12, created_at=NOW - DAY),
    }  # fmt: skip
    report = run(km, arun, ns, "tiers")
    expected = {
        "w_30min": "episodic",
        "w_young": "working",
        "w_2access": "episodic",
        "e_access3": "semantic",
        "e_access2": "episodic",
        "e_useful": "semantic",
        "e_useful_young": "episodic",
        "e_less_useful": "episodic",
        "zed1": "semantic",
        "zed2": "semantic",
        "zed3": "semantic",
        "yan1": "episodic",
        "yan2": "episodic",
        "e_pinned": "episodic",
        "e_immutable": "episodic",
        "s_dormant": "dormant",
        "s_idle_less": "semantic",
        "s_utility": "semantic",
        "s_flashbulb": "semantic",
        "s_pinned": "semantic",
        "reactivated": "semantic",
        "still_dormant": "dormant",
        "core": "core",
        "gate_fact": "semantic",
        "gate_temporary": "semantic",
        "gate_unimportant": "semantic",
        "hot": "semantic",
    }
    got = {name: mem(km, arun, ns, ids[name])["tier"] for name in expected}
    assert got == expected
    assert mem(km, arun, ns, ids["s_dormant"])["frozen_at"] is not None
    assert mem(km, arun, ns, ids["gate_fact"])["gate_rejections"] == 1
    assert mem(km, arun, ns, ids["gate_temporary"])["gate_rejections"] == 1
    assert mem(km, arun, ns, ids["gate_unimportant"]).get("gate_rejections") is None
    assert mem(km, arun, ns, ids["hot"])["hot"] is True
    step = report.step("tiers")
    assert step.changes["gate_rejected"] == 2 and step.changes["hot_added"] == 1
    assert step.changes["to_core"] == 1 and step.changes["to_dormant"] == 1
    # a second run (the next epoch) changes nothing: refusals wait 48 epochs
    assert run(km, arun, ns, "tiers").changed == 0


class StubLLM:
    """An LLM that answers the core gate with a fixed verdict, or fails."""

    configured = True

    def __init__(self, answer: dict[str, Any] | None = None) -> None:
        self.answer = answer
        self.calls: list[str] = []

    async def complete_json(
        self, system: str, user: str, schema: dict[str, Any], schema_name: str
    ) -> LLMResult:
        self.calls.append(user)
        if self.answer is None:
            raise LLMUnavailable("the stub is down")
        return LLMResult(data=self.answer, tokens_in=1, tokens_out=1, latency_ms=1.0)


def test_lifecycle_the_core_gate_asks_the_llm_when_on_and_falls_back_to_the_heuristic(
    km: Kgmem, arun: Any, namespace: str, tuned: Any
) -> None:
    ns = namespace
    svc = tuned(llm_level="always")
    sem = {"tier": "semantic", "category": "fact", "importance": 0.7, "access_count": 3,
           "created_at": NOW - 100 * DAY}  # fmt: skip
    lesson = plant(km, arun, ns, "Flaky tests hid the race; retry once, then fix.", **sem)
    svc.llm = StubLLM({"approve": True, "kind": "lesson", "reason": "hard-won"})
    report = run(svc, arun, ns, "tiers")
    assert mem(km, arun, ns, lesson)["tier"] == "core"
    assert svc.llm.calls and "Flaky tests" in svc.llm.calls[0]
    assert report.step("tiers").stats["gate_llm_calls"] == 1
    other = plant(km, arun, ns, "The staging cluster has 12 nodes.", **sem)
    svc.llm = StubLLM(None)  # down: the heuristic decides (a plain fact is refused)
    report = run(svc, arun, ns, "tiers")
    assert mem(km, arun, ns, other)["tier"] == "semantic"
    assert mem(km, arun, ns, other)["gate_rejections"] == 1
    assert report.step("tiers").stats["gate_llm_failed"] == 1


# --- rehearsal, drift, replay --------------------------------------------------------------------


def test_lifecycle_rehearsal_drift_and_replay_are_bounded_and_idempotent(
    km: Kgmem, arun: Any, namespace: str
) -> None:
    ns = namespace
    old = NOW - _age_at(0.3) - 10 * DAY  # endangered: R < 0.3
    endangered = [
        plant(km, arun, ns, category="context", tier="semantic", importance=imp,
              created_at=old, last_accessed=old)
        for imp in (0.9, 0.8, 0.7)
    ]  # fmt: skip
    fresh = plant(km, arun, ns, category="context", tier="semantic")
    drifting = plant(
        km, arun, ns, utility=0.9, created_at=NOW - 10 * DAY, last_accessed=NOW - 10 * DAY
    )
    a = plant(km, arun, ns, stability=2.0)
    b = plant(km, arun, ns)
    for _ in range(3):  # seen together three times: the co-activation threshold
        arun(repository.touch_memories(km.graph, namespace=ns, touches=[], pairs=[[a, b]], now=NOW))
    report = run(km, arun, ns, "rehearsal", caps={"rehearsal": 2})
    step = report.step("rehearsal")
    assert step.capped and step.changes["rehearsed"] == 2
    stab = [mem(km, arun, ns, m)["stability"] for m in endangered]
    assert stab == [pytest.approx(1.5), pytest.approx(1.5), pytest.approx(1.0)]
    assert mem(km, arun, ns, fresh)["stability"] == pytest.approx(1.0)
    # u + 0.01 * 10 * (0.5 - u)
    assert mem(km, arun, ns, drifting)["utility"] == pytest.approx(0.86)
    assert mem(km, arun, ns, a)["stability"] == pytest.approx(2.04)
    assert mem(km, arun, ns, b)["stability"] == pytest.approx(1.02)
    assert step.changes["replayed_pairs"] == 1 and step.changes["utility_drifted"] == 1
    again = run(km, arun, ns, "rehearsal", caps={"rehearsal": 2})
    # the third endangered memory gets its turn; the others are inside their daily cooldown
    assert again.step("rehearsal").changes == {"rehearsed": 1}
    assert mem(km, arun, ns, endangered[2])["stability"] == pytest.approx(1.5)
    assert run(km, arun, ns, "rehearsal").changed == 0


# --- redundancy ----------------------------------------------------------------------------------


def test_lifecycle_near_duplicates_merge_into_the_more_useful_and_undo_restores_them(
    km: Kgmem, arun: Any, namespace: str
) -> None:
    ns = namespace
    v, w = direction(1), direction(2)
    keep = plant(km, arun, ns, "Ana uses Vim.", utility=0.8, embedding=v)
    dup = plant(km, arun, ns, "Ana uses vim daily.", utility=0.4, embedding=at_cosine(v, 0.95, 3))
    other = plant(km, arun, ns, "Bo likes tea.", embedding=direction(4))
    below = plant(km, arun, ns, "below", utility=0.6, embedding=w)
    below2 = plant(km, arun, ns, "below two", embedding=at_cosine(w, 0.899, 5))
    u = direction(6)
    plant(km, arun, ns, "above", utility=0.6, embedding=u)
    above2 = plant(km, arun, ns, "above two", embedding=at_cosine(u, 0.901, 7))
    before = {m: mem(km, arun, ns, m) for m in (dup, above2)}
    report = run(km, arun, ns, "redundancy")
    step = report.step("redundancy")
    assert step.changes == {"merged": 2}
    assert {m: mem(km, arun, ns, m)["status"] for m in (keep, dup, other, below, below2)} == {
        keep: "active", dup: "merged", other: "active", below: "active", below2: "active"
    }  # fmt: skip
    merged = mem(km, arun, ns, dup)
    assert merged["tier"] == "dormant"
    assert mem(km, arun, ns, above2)["status"] == "merged"
    assert arun(km.stats(namespace=ns))["relationships"]["MERGED_INTO"] == 2
    assert run(km, arun, ns, "redundancy").changed == 0
    ids = step.ids["merges"]
    assert len(ids) == 2
    dup_merge = _merge_of(km, arun, ns, dup)
    other_merge = next(i for i in ids if i != dup_merge)
    for key in (dup, other_merge):  # by the merged memory's id, and by merge id
        arun(km.undo_merge(key, namespace=ns, now=NOW))
    for m, original in before.items():
        assert mem(km, arun, ns, m) == original
    assert "MERGED_INTO" not in arun(km.stats(namespace=ns))["relationships"]
    with pytest.raises(NotFound):
        arun(km.undo_merge(dup_merge, namespace=ns, now=NOW))


def _merge_of(km: Kgmem, arun: Any, ns: str, mid: str) -> str:
    rows = arun(redundancy_repository.find_merge_records(km.graph, namespace=ns, key=mid))
    return str(rows[0]["merge_id"])


def test_lifecycle_a_cluster_of_five_becomes_a_theme_memory_that_keeps_every_detail(
    km: Kgmem, arun: Any, namespace: str
) -> None:
    ns = namespace
    v = direction(11)
    texts = [
        "Alice booked flight AA100 to Paris.",
        "Alice has seat 12C on the Paris flight.",
        "Alice's Paris flight leaves at 9am.",
        "Alice's flight to Paris departs from JFK.",
        "Alice paid 420 dollars for the Paris flight.",
    ]
    members = [
        plant(km, arun, ns, t, embedding=at_cosine(v, 0.975, 20 + i), entities=["Alice"],
              access_count=i, created_at=NOW - (5 - i) * DAY)
        for i, t in enumerate(texts)
    ]  # fmt: skip
    before = {m: mem(km, arun, ns, m) for m in members}
    report = run(km, arun, ns, "redundancy")
    assert report.step("redundancy").changes == {"themes": 1, "merged": 5}
    survivors = {mem(km, arun, ns, m)["status"] for m in members}
    assert survivors == {"merged"}
    themes = [
        r
        for r in arun(repository.find_memories(km.graph, namespace=ns, statuses=["active"],
                                               limit=10))
        if "theme" in (r.get("tags") or [])
    ]  # fmt: skip
    assert len(themes) == 1
    theme = themes[0]
    for detail in ("AA100", "12C", "9am", "JFK", "420", "Paris", "Alice"):
        assert detail in theme["content"]
    assert theme["tier"] == "semantic" and theme["importance"] == pytest.approx(0.8)
    assert theme["access_count"] == sum(range(5))
    row = arun(repository.get_memory(km.graph, namespace=ns, memory_id=theme["id"]))
    assert row is not None and row["entities"] == ["Alice"]
    assert run(km, arun, ns, "redundancy", "tiers").changed == 0
    arun(km.undo_merge(theme["id"], namespace=ns, now=NOW))
    assert arun(repository.get_memory(km.graph, namespace=ns, memory_id=theme["id"])) is None
    for m, original in before.items():
        assert mem(km, arun, ns, m) == original
    alice = arun(repository.find_entities(km.graph, namespace=ns, limit=5))
    assert [e["mention_count"] for e in alice] == [5]


# --- contradictions and the invalidation cascade -----------------------------------------------


def test_lifecycle_older_side_of_a_contradiction_goes_dormant_unless_anchored(
    km: Kgmem, arun: Any, namespace: str
) -> None:
    ns = namespace
    older = plant(km, arun, ns, "Kim lives in Oslo.", created_at=NOW - 10 * DAY)
    newer = plant(km, arun, ns, "Kim lives in Rome.", created_at=NOW - DAY)
    link(km, arun, ns, newer, older, "CONTRADICTS")
    anchored = plant(km, arun, ns, "Lee is 40.", created_at=NOW - 10 * DAY, pinned=True)
    challenger = plant(km, arun, ns, "Lee is 41.", created_at=NOW - DAY)
    link(km, arun, ns, anchored, challenger, "CONTRADICTS")
    report = run(km, arun, ns, "contradictions")
    assert report.step("contradictions").changes == {"contradictions_resolved": 1, "demoted": 1}
    assert mem(km, arun, ns, older)["tier"] == "dormant"
    assert mem(km, arun, ns, newer)["tier"] == "episodic"
    assert mem(km, arun, ns, anchored)["tier"] == "episodic"
    assert run(km, arun, ns, "contradictions").changed == 0


def test_lifecycle_dependents_of_a_superseded_premise_are_flagged_in_a_bounded_cascade(
    km: Kgmem, arun: Any, namespace: str
) -> None:
    ns = namespace
    premise = plant(km, arun, ns, "The API uses v1 tokens.", status="superseded")
    chain = [plant(km, arun, ns, f"conclusion {i}") for i in range(4)]
    link(km, arun, ns, premise, chain[0], "DEPENDS_ON")
    for a, b in itertools.pairwise(chain):
        link(km, arun, ns, a, b, "DEPENDS_ON")
    unrelated = plant(km, arun, ns, "unrelated")
    first = run(km, arun, ns, "contradictions", caps={"cascade": 2})
    assert first.step("contradictions").capped
    assert [mem(km, arun, ns, c)["status"] for c in chain] == [
        "challenged", "challenged", "active", "active"
    ]  # fmt: skip
    run(km, arun, ns, "contradictions")
    # depth 3 from the premise is the bound: the fourth conclusion is left alone
    assert [mem(km, arun, ns, c)["status"] for c in chain] == [
        "challenged", "challenged", "challenged", "active"
    ]  # fmt: skip
    history = arun(km.status_history(chain[0], namespace=ns))
    assert history[-1].related_id == premise
    assert mem(km, arun, ns, unrelated)["status"] == "active"
    assert run(km, arun, ns, "contradictions").changed == 0


# --- entities and edges ---------------------------------------------------------------------


def _entity_state(km: Kgmem, arun: Any, ns: str, memories: Sequence[str]) -> dict[str, Any]:
    entities = arun(repository.find_entities(km.graph, namespace=ns, limit=100))
    relations = arun(repository.find_entity_relations(km.graph, namespace=ns, limit=100))
    mentions = {
        m: sorted(arun(repository.get_memory(km.graph, namespace=ns, memory_id=m))["entities"])
        for m in memories
    }
    return {
        "entities": sorted(entities, key=lambda e: e["id"]),
        "relations": sorted(relations, key=lambda r: (r.source, r.type, r.target)),
        "mentions": mentions,
    }


def test_lifecycle_fragmented_entities_merge_and_the_merge_undoes(
    km: Kgmem, arun: Any, namespace: str
) -> None:
    ns = namespace
    org = "organization"
    m1 = plant(km, arun, ns, "Bob joined Acme Corp.", entities=[("Acme Corp", org), "Bob"])
    m2 = plant(km, arun, ns, "Acme ships on Fridays.", entities=[("Acme", org)])
    m3 = plant(km, arun, ns, "Acme uses Jira.", entities=[("Acme", org), ("Jira", "product")])
    # "Acme Corp" is also known as "Acme": the write path records the alias on the entity
    acme_corp = f"{ns}:acme corp:{org}"
    arun(
        km.graph.write_batch(
            [
                repository.merge_entities(
                    namespace=ns,
                    entities=[{"id": acme_corp, "name": "Acme", "normalized_name": "acme",
                               "type": org, "first_token": "acme", "at": NOW,
                               "embedding": None}],
                    mentions=[],
                ),
                repository.relate_entities(
                    namespace=ns,
                    relations=[
                        {"source_id": f"{ns}:acme:{org}", "target_id": f"{ns}:jira:product",
                         "type": "uses", "confidence": 0.6, "at": NOW, "delta": 0.1,
                         "memory_id": m3, "inferred": False},
                        {"source_id": f"{ns}:bob:person", "target_id": acme_corp,
                         "type": "works_at", "confidence": 0.7, "at": NOW, "delta": 0.1,
                         "memory_id": m1, "inferred": False},
                    ],
                ),
            ]
        )
    )  # fmt: skip
    # a person and a place called Paris are not the same entity
    plant(km, arun, ns, "Paris called.", entities=[("Paris", "person")])
    plant(km, arun, ns, "Paris is busy.", entities=[("Paris", "location")])
    memories = [m1, m2, m3]
    before = _entity_state(km, arun, ns, memories)
    report = run(km, arun, ns, "entities")
    step = report.step("entities")
    assert step.changes == {"entities_merged": 1}
    after = _entity_state(km, arun, ns, memories)
    names = [e["name"] for e in after["entities"]]
    assert sorted(names) == ["Acme", "Bob", "Jira", "Paris", "Paris"]
    assert after["mentions"][m1] == ["Acme", "Bob"]
    canonical = next(e for e in after["entities"] if e["name"] == "Acme")
    assert "Acme Corp" in canonical["aliases"] and canonical["mention_count"] == 3
    assert {(r.source, r.type, r.target) for r in after["relations"]} == {
        ("Acme", "uses", "Jira"), ("Bob", "works_at", "Acme")
    }  # fmt: skip
    assert run(km, arun, ns, "entities").changed == 0
    arun(km.undo_entity_merge(step.ids["entity_merges"][0], namespace=ns, now=NOW))
    assert _entity_state(km, arun, ns, memories) == before
    with pytest.raises(NotFound):
        arun(km.undo_entity_merge(step.ids["entity_merges"][0], namespace=ns, now=NOW))


def test_lifecycle_edge_confidence_decays_per_window_after_the_grace_period_to_a_floor(
    km: Kgmem, arun: Any, namespace: str
) -> None:
    ns = namespace
    people = ["Ann", "Ben", "Cat", "Dan", "Eve", "Fay"]
    for name in people:
        plant(km, arun, ns, f"{name} is here.", entities=[name])
    ages = {"Ben": 90 * DAY, "Dan": 60 * DAY - MIN, "Fay": 400 * DAY}  # Ann→Ben, Cat→Dan, Eve→Fay
    confs = {"Ben": 0.6, "Dan": 0.6, "Fay": 0.12}
    relations = [
        {"source_id": f"{ns}:{normalize_name(a)}:person",
         "target_id": f"{ns}:{normalize_name(b)}:person", "type": "knows",
         "confidence": confs[b], "at": NOW - ages[b], "delta": 0.1, "memory_id": "m",
         "inferred": False}
        for a, b in (("Ann", "Ben"), ("Cat", "Dan"), ("Eve", "Fay"))
    ]  # fmt: skip
    arun(km.graph.write_batch([repository.relate_entities(namespace=ns, relations=relations)]))
    report = run(km, arun, ns, "entities")
    assert report.step("entities").changes == {"edges_decayed": 2}
    got = {
        r.target: r.confidence
        for r in arun(repository.find_entity_relations(km.graph, namespace=ns, limit=10))
    }
    # 90 days: 30 of grace, then 2 windows of 30 days at 0.05 each; 400 days: down to the floor
    assert got == {"Ben": pytest.approx(0.5), "Dan": pytest.approx(0.6), "Fay": pytest.approx(0.1)}
    assert run(km, arun, ns, "entities").changed == 0
    later = run(km, arun, ns, "entities", now=NOW + 30 * DAY)
    assert later.step("entities").changes == {"edges_decayed": 2}


def test_lifecycle_links_are_pruned_at_the_relation_cap_but_never_the_protected_types(
    km: Kgmem, arun: Any, namespace: str, tuned: Any
) -> None:
    ns = namespace
    small = tuned(relation_cap=5)
    ms = [plant(km, arun, ns, f"memory {i}") for i in range(9)]
    planted = [
        ("RELATED_TO", 0.4), ("RELATED_TO", 0.5), ("SAME_ENTITY", 0.7), ("SAME_ENTITY", 0.6),
        ("ELABORATES", 0.5), ("CONTRADICTS", 0.1), ("CAUSES", 0.1), ("DEPENDS_ON", 0.1),
    ]  # fmt: skip
    for i, (kind, conf) in enumerate(planted):
        link(km, arun, ns, ms[i], ms[i + 1], kind, conf)
    report = run(small, arun, ns, "entities")
    # 8 links > cap 5: trim to 4, cheapest first (related_to, then same_entity)
    assert report.step("entities").changes == {"links_pruned": 4}
    rels = arun(km.stats(namespace=ns))["relationships"]
    assert {k: v for k, v in rels.items() if k not in ("MENTIONS",)} == {
        "ELABORATES": 1, "CONTRADICTS": 1, "CAUSES": 1, "DEPENDS_ON": 1
    }  # fmt: skip
    assert run(small, arun, ns, "entities").changed == 0


# --- topics and centrality ------------------------------------------------------------------


CLUSTERS = {
    "garden": ["Rosa", "Tulip", "Compost"],
    "music": ["Piano", "Chopin", "Recital"],
    "travel": ["Kyoto", "Shinkansen", "Ryokan"],
}


def _plant_clusters(km: Kgmem, arun: Any, ns: str) -> dict[str, set[str]]:
    planted: dict[str, set[str]] = {}
    for topic, names in CLUSTERS.items():
        planted[topic] = set()
        for i in range(4):
            pair = [(names[i % 3], "concept"), (names[(i + 1) % 3], "concept")]
            text = f"Note {i} on {topic}: {pair[0][0]} and {pair[1][0]}."
            planted[topic].add(plant(km, arun, ns, text, entities=pair))
    return planted


def test_lifecycle_topic_detection_recovers_planted_topics(
    km: Kgmem, arun: Any, namespace: str
) -> None:
    ns = namespace
    planted = _plant_clusters(km, arun, ns)
    plant(km, arun, ns, "A lonely memory with no entities.")
    report = run(km, arun, ns, "topics", "centrality")
    assert report.step("topics").changes == {"topics_created": 3}
    topics = arun(topic_repository.find_topics(km.graph, namespaces=[ns], limit=10))
    assert sorted(t.members for t in topics) == [4, 4, 4]
    found = {
        t.id: {
            m["id"]
            for m in arun(topic_repository.find_topic_members(km.graph, namespace=ns,
                                                              topic_id=t.id, limit=10))
        }
        for t in topics
    }  # fmt: skip
    assert sorted(map(sorted, found.values())) == sorted(map(sorted, planted.values()))
    for t in topics:
        cluster = next(k for k, ids in planted.items() if ids == found[t.id])
        assert set(t.terms) & set(CLUSTERS[cluster]), t
        assert t.name == ", ".join(t.terms)
    centrality = [mem(km, arun, ns, m)["centrality"] for ids in planted.values() for m in ids]
    assert all(c > 0 for c in centrality)
    assert report.step("centrality").changes == {"centrality_updated": 13}  # the lonely one too
    assert run(km, arun, ns, "topics", "centrality").changed == 0


# --- housekeeping --------------------------------------------------------------------------


def test_lifecycle_capacity_trim_sends_the_least_useful_dormant_down_to_the_target(
    km: Kgmem, arun: Any, namespace: str, tuned: Any
) -> None:
    ns = namespace
    small = tuned(capacity_cap=4)
    pinned = plant(km, arun, ns, utility=0.05, pinned=True)
    ids = [plant(km, arun, ns, utility=u) for u in (0.1, 0.2, 0.3, 0.4, 0.5)]
    report = run(small, arun, ns, "housekeeping")
    # 6 live > 4: down to 3 (90 % of the cap), lowest utility first, never the pinned one
    assert report.step("housekeeping").changes == {"trimmed": 3}
    assert [mem(km, arun, ns, m)["tier"] for m in ids] == [
        "dormant", "dormant", "dormant", "episodic", "episodic"
    ]  # fmt: skip
    assert mem(km, arun, ns, pinned)["tier"] == "episodic"
    assert run(small, arun, ns, "housekeeping").changed == 0


# --- the whole job: idempotence, dry run, failures, the lease ------------------------------


def _mixed(km: Kgmem, arun: Any, ns: str) -> dict[str, str]:
    v = direction(40)
    ids = {
        "stale": plant(km, arun, ns, category="context", tier="semantic",
                       last_accessed=NOW - _age_at(0.15), created_at=NOW - 400 * DAY),
        "working": plant(km, arun, ns, tier="working", created_at=NOW - DAY),
        "dup_a": plant(km, arun, ns, "Sam drinks coffee.", utility=0.7, embedding=v),
        "dup_b": plant(km, arun, ns, "Sam drinks coffee daily.", embedding=at_cosine(v, 0.95, 41)),
    }  # fmt: skip
    _plant_clusters(km, arun, ns)
    return ids


def test_lifecycle_a_full_run_then_a_second_run_changes_nothing(
    km: Kgmem, arun: Any, namespace: str
) -> None:
    ns = namespace
    ids = _mixed(km, arun, ns)
    first = run(km, arun, ns)
    assert [s.name for s in first.steps] == [
        "rehearsal", "state_transitions", "contradictions", "redundancy", "entities",
        "distillation", "housekeeping", "tiers", "topics", "summaries", "centrality",
    ]  # fmt: skip
    assert first.changed > 0 and first.epoch == 1
    assert mem(km, arun, ns, ids["stale"])["status"] == "stale"
    assert mem(km, arun, ns, ids["dup_b"])["status"] == "merged"
    second = run(km, arun, ns)
    assert second.changed == 0, {s.name: s.changes for s in second.steps if s.changes}
    assert second.epoch == 2


def test_lifecycle_a_dry_run_reports_and_writes_nothing(
    km: Kgmem, arun: Any, namespace: str
) -> None:
    ns = namespace
    ids = _mixed(km, arun, ns)
    before = arun(km.stats(namespace=ns))
    report = run(km, arun, ns, dry_run=True)
    assert report.dry_run and report.step("state_transitions").changes == {"stale": 1}
    assert report.step("redundancy").changes == {"merged": 1}
    assert arun(km.stats(namespace=ns)) == before
    assert mem(km, arun, ns, ids["stale"])["status"] == "active"
    lease = arun(lease_repository.get_consolidation_lease(km.graph, namespace=ns))
    assert lease["holder"] is None and lease["epoch"] == 0


def _failing_batch(
    km: Kgmem, monkeypatch: pytest.MonkeyPatch, query: str, exc: BaseException
) -> None:
    """Make the transaction holding ``query`` fail after all its writes ran."""
    real = km.graph.write_batch

    async def write_batch(steps: Sequence[Step]) -> list[list[Row]]:
        if any(s.name == query for s in steps):

            def boom(rows: list[Row]) -> None:
                raise exc

            last = steps[-1]
            steps = [*steps[:-1], Step(last.name, last.params, boom)]
        return await real(steps)

    monkeypatch.setattr(km.graph, "write_batch", write_batch)


def test_lifecycle_a_failing_step_is_rolled_back_and_recorded_while_the_others_run(
    km: Kgmem, arun: Any, namespace: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    ns = namespace
    ids = _mixed(km, arun, ns)
    _failing_batch(km, monkeypatch, "set_memory_statuses", RuntimeError("disk on fire"))
    report = arun(km.consolidate(ns, now=NOW))
    step = report.step("state_transitions")
    assert not report.ok and "disk on fire" in (step.error or "") and step.changes == {}
    assert mem(km, arun, ns, ids["stale"])["status"] == "active"  # nothing half-applied
    assert mem(km, arun, ns, ids["working"])["tier"] == "episodic"  # tiers still ran
    assert mem(km, arun, ns, ids["dup_b"])["status"] == "merged"  # so did redundancy
    monkeypatch.undo()
    retry = run(km, arun, ns)  # the lease was released: the next run proceeds
    assert retry.step("state_transitions").changes == {"stale": 1}


class Killed(BaseException):
    """The worker process dies (nothing in the job catches it)."""


def test_lifecycle_a_killed_run_leaves_no_half_applied_step_and_its_lease_expires(
    km: Kgmem, arun: Any, namespace: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    ns = namespace
    ids = _mixed(km, arun, ns)

    async def died(*_args: Any) -> bool:  # a dead worker never gives its lease back
        return False

    with monkeypatch.context() as mp:
        _failing_batch(km, mp, "set_memory_tiers", Killed())
        mp.setattr(leases, "release", died)
        with pytest.raises(Killed):
            arun(km.consolidate(ns, now=NOW))
    assert mem(km, arun, ns, ids["stale"])["status"] == "stale"  # earlier steps landed whole
    assert mem(km, arun, ns, ids["working"])["tier"] == "working"  # the killed step: nothing
    held = arun(lease_repository.get_consolidation_lease(km.graph, namespace=ns))
    expires = held["expires_at"]  # the dead run's last renewal + the lease time
    assert expires >= NOW + timedelta(seconds=km.settings.consolidation_lease_s)
    with pytest.raises(leases.LeaseHeld):
        arun(km.consolidate(ns, now=expires - timedelta(seconds=1)))
    assert mem(km, arun, ns, ids["working"])["tier"] == "working"
    report = run(km, arun, ns, now=expires)  # the lease expired: taken over
    assert report.step("tiers").changes.get("to_episodic") == 1
    assert mem(km, arun, ns, ids["working"])["tier"] == "episodic"


def test_lifecycle_a_live_lease_refuses_a_second_worker(
    km: Kgmem, arun: Any, namespace: str
) -> None:
    ns = namespace
    ids = _mixed(km, arun, ns)
    ttl = timedelta(seconds=km.settings.consolidation_lease_s)
    held = arun(leases.acquire(km.graph, ns, "worker-a", NOW, ttl))
    assert held.holder == "worker-a" and held.epoch == 1
    with pytest.raises(leases.LeaseHeld, match="worker-a"):
        arun(km.consolidate(ns, now=NOW + ttl - timedelta(seconds=1)))
    assert mem(km, arun, ns, ids["stale"])["status"] == "active"
    with pytest.raises(leases.LeaseHeld):
        arun(leases.acquire(km.graph, ns, "worker-b", NOW, ttl))
    report = run(km, arun, ns, now=NOW + ttl)
    assert report.epoch == 2 and report.changed > 0
    lease = arun(lease_repository.get_consolidation_lease(km.graph, namespace=ns))
    assert lease["holder"] is None  # released at the end


# --- resume ------------------------------------------------------------------------------------


def test_lifecycle_resume_gives_core_recent_topics_and_triggers_within_the_budget(
    km: Kgmem, arun: Any, namespace: str
) -> None:
    ns = namespace
    core = plant(km, arun, ns, "The user is Dana, a data engineer in Lisbon.", tier="core",
                 category="identity", importance=0.9, created_at=NOW - 50 * DAY)  # fmt: skip
    plant(km, arun, ns, "Always run the linters before pushing.", tier="core",
          category="principle", type="procedure", importance=0.7,
          created_at=NOW - 50 * DAY)  # fmt: skip
    recent = plant(km, arun, ns, "Dana fixed the ingest bug today.", created_at=NOW - DAY / 2,
                   modified_at=NOW - DAY / 2)  # fmt: skip
    plant(km, arun, ns, "Old news.", created_at=NOW - 30 * DAY, modified_at=NOW - 30 * DAY)
    plant(km, arun, ns, "Deploy with the script.", tags=["trigger:deploy"], access_count=5)
    plant(km, arun, ns, "Push after review.", tags=["trigger:git-push"], access_count=1)
    _plant_clusters(km, arun, ns)
    run(km, arun, ns, "topics")
    before = mem(km, arun, ns, core)
    ctx = arun(km.resume(ns, token_budget=4000, now=NOW))
    assert ctx.tokens <= 4000 and ctx.core[0] == core and recent in ctx.recent
    assert "=== Core (2) ===" in ctx.text and "Dana, a data engineer" in ctx.text
    assert "=== Recent (24h) ===" in ctx.text and "Old news" not in ctx.text
    assert 'kb1: "' in ctx.text and "[4]" in ctx.text and len(ctx.topics) == 3
    assert ctx.text.splitlines()[-1] == "Triggers: deploy, git-push"
    assert mem(km, arun, ns, core) == before  # resume touches nothing
    small = arun(km.resume(ns, token_budget=60, now=NOW))
    assert small.tokens <= 60 and len(small.text) < len(ctx.text)
    for bad in (10, 10**7, True, "100"):
        with pytest.raises(InvalidInput):
            arun(km.resume(ns, token_budget=bad, now=NOW))  # type: ignore[arg-type]
