"""The consolidation's Cypher-side filters agree with the pure rules (real Neo4j + GDS).

The tiers and rehearsal steps read only candidates, filtered on the server with the pure rules'
thresholds passed as parameters. Each filter must be a superset of what the pure rules act on,
so a store of memories planted on and around every threshold (ages, accesses, utilities,
importance, anchors, sources, categories, tiers, statuses, shared entities) is read in full, the
pure rules are applied to every memory, and each memory they would change must be among the
candidates. The co-occurrence count runs wholly in Cypher, so it must equal the pure count.
Centrality is written on the server: rounded, only when changed, a second run writes nothing.
"""

from __future__ import annotations

import itertools
import random
import uuid
from datetime import timedelta
from typing import Any

from support.vectors import at_cosine, direction
from test_consolidation import DAY, MIN, NOW, mem, plant, run

from kgmem.core.text import content_hash, normalize_name
from kgmem.core.tunables import HOT_MAX_AGE, HOT_MIN_ACCESS, HOT_MIN_UTILITY
from kgmem.graph import repository, retention_repository, tier_repository
from kgmem.lifecycle.consolidation.context import ALL_STATUSES
from kgmem.lifecycle.consolidation.policy import Policy
from kgmem.lifecycle.records import MemoryRecord
from kgmem.lifecycle.redundancy import steps as merge_steps
from kgmem.lifecycle.tiers.rules import decide_tier, hot_candidate, shared_entities
from kgmem.lifecycle.tiers.steps import candidate_filters
from kgmem.lifecycle.upkeep.rehearsal import drift, endangered
from kgmem.lifecycle.upkeep.steps import LIVE, rehearsal_filters, transition_filters
from kgmem.lifecycle.upkeep.transitions import decide_status, retention_now
from kgmem.service import Kgmem
from kgmem.taxonomy import Tier

AGES = [
    timedelta(0), 29 * MIN, 30 * MIN, 31 * MIN, 6.99 * DAY, 7 * DAY, 7.01 * DAY, 29.9 * DAY,
    30 * DAY, 59.99 * DAY, 60 * DAY, 61 * DAY, 150 * DAY, 495 * DAY, 496 * DAY, 2000 * DAY,
]  # fmt: skip
NAMES = ["Ava", "Bo", "Cy", "Di"]
PEOPLE = [f"Person {i}" for i in range(150)]  # ~3 mentions each: counts on both sides of 3


def _edge_rows(ns: str, n: int, seed: int) -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
    """``n`` memories whose properties sit on and around the rules' thresholds."""
    rnd = random.Random(seed)
    pick = rnd.choice
    memories, mentions = [], []
    for j in range(n):
        mid = str(uuid.uuid4())
        created = NOW - pick(AGES)
        used = pick([None, created, created + (NOW - created) / 2, NOW - DAY, NOW - 0.99 * DAY])
        tier = pick(["working", "episodic", "semantic", "core", "dormant", None])
        props: dict[str, Any] = {
            "id": mid,
            "content": f"edge memory {j}" + pick(["", " for now", " lesson learned"]),
            "content_hash": content_hash(mid),
            "category": pick(["fact", "context", "identity", "ephemeral", "decision", "goal"]),
            "type": "fact",
            "status": pick(["active", "active", "active", "stale", "archived", "deleted"]),
            "verification_state": "unverified",
            "importance": pick([0.3, 0.59, 0.6, 0.9]),
            "confidence": 0.8,
            "source": pick(["human", "agent", "ingest", "User", "", "consolidation"]),
            "utility": pick([0.0, 0.19, 0.2, 0.5, 0.5, 0.69, 0.7, 0.8, 0.95, None]),
            "stability": pick([0.5, 1.0, 3.0, None]),
            "access_count": pick([0, 1, 2, 3, 9, 10, None]),
            "created_at": created,
            "recorded_at": created,
            "last_accessed": used,
            "pinned": rnd.random() < 0.1,
            "immutable": rnd.random() < 0.05,
            "flashbulb": rnd.random() < 0.05,
            "hot": rnd.random() < 0.1,
            "tags": pick([[], ["lesson"], ["temporary"]]),
        }
        if tier is not None:
            props["tier"] = tier
        if tier == "dormant":
            props["frozen_at"] = pick([None, used or created, NOW - 2 * DAY])
        if rnd.random() < 0.3:
            props["utility_drifted_at"] = NOW - pick([0.5 * DAY, 0.99 * DAY, DAY, 3 * DAY])
        if rnd.random() < 0.2:
            props["rehearsed_at"] = NOW - pick([0.5 * DAY, DAY, 2 * DAY])
        if rnd.random() < 0.2:
            props["gate_rejections"] = pick([1, 2, 3])
            props["gate_rejected_epoch"] = pick([0, 1, 5])
        memories.append({"key": j, "props": props, "episode_ids": []})
        for name in rnd.sample(PEOPLE, rnd.randint(0, 2)):
            mentions.append(
                {
                    "memory_id": mid,
                    "entity_id": f"{ns}:{name}",
                    "confidence": 0.9,
                    "at": NOW,
                    "surface": name,
                    "resolved_by": "new",
                }
            )
    return memories, mentions


def _plant_edges(km: Kgmem, arun: Any, ns: str, n: int = 400, seed: int = 11) -> None:
    memories, mentions = _edge_rows(ns, n, seed)
    entities = [
        {
            "id": f"{ns}:{name}",
            "name": name,
            "normalized_name": normalize_name(name),
            "type": "person",
            "first_token": normalize_name(name),
            "at": NOW,
            "embedding": None,
        }
        for name in PEOPLE
    ]
    arun(
        km.graph.write_batch(
            [
                repository.create_memories(namespace=ns, memories=memories),
                repository.merge_entities(namespace=ns, entities=entities, mentions=mentions),
            ]
        )
    )


def _all_records(km: Kgmem, arun: Any, ns: str) -> list[MemoryRecord]:
    rows = arun(
        retention_repository.find_lifecycle_memories(
            km.graph, namespace=ns, statuses=ALL_STATUSES, after="", limit=100_000
        )
    )
    return [MemoryRecord.from_row(r) for r in rows]


def _page_ids(km: Kgmem, arun: Any, page: Any, ns: str, **filters: Any) -> set[str]:
    rows = arun(page(km.graph, namespace=ns, statuses=LIVE, after="", limit=100_000, **filters))
    return {str(r["id"]) for r in rows}


def test_lifecycle_shared_entities_in_cypher_equal_the_pure_count(
    km: Kgmem, arun: Any, namespace: str
) -> None:
    ns = namespace
    _plant_edges(km, arun, ns)
    records = _all_records(km, arun, ns)
    want = shared_entities(records, NOW)
    got = arun(
        tier_repository.find_shared_entities(
            km.graph,
            namespace=ns,
            statuses=LIVE,
            working_before=NOW - timedelta(minutes=30),
            working_accesses=2,
            min_memories=3,
        )
    )
    assert 0 < len(want) < len(PEOPLE)  # the planted store has entities on both sides
    assert set(got) == want


def test_lifecycle_tier_candidates_hold_every_memory_the_tier_rules_move_or_gate(
    km: Kgmem, arun: Any, namespace: str
) -> None:
    ns = namespace
    _plant_edges(km, arun, ns, seed=12)
    records = _all_records(km, arun, ns)
    shared = shared_entities(records, NOW)
    acted = set()
    for m in records:
        d = decide_tier(m, NOW, shared, epoch=3)
        if d.change is not None or d.rejected is not None:
            acted.add(m.id)
    candidates = _page_ids(
        km, arun, tier_repository.find_tier_candidates, ns, **candidate_filters(shared)
    )
    assert acted and acted <= candidates
    live = {m.id for m in records if m.status.value in LIVE}
    assert candidates < live  # the filter does filter
    hot_rows = arun(
        tier_repository.find_hot_candidates(
            km.graph,
            namespace=ns,
            statuses=LIVE,
            min_utility=HOT_MIN_UTILITY,
            min_access=HOT_MIN_ACCESS,
            created_after=NOW - HOT_MAX_AGE,
        )
    )
    hot_ids = {str(r["id"]) for r in hot_rows}
    for m in records:
        if m.status.value in LIVE and (
            m.hot or any(hot_candidate(m, t, NOW) for t in (Tier.SEMANTIC, Tier.CORE))
        ):
            assert m.id in hot_ids


def test_lifecycle_rehearsal_candidates_hold_every_endangered_or_drifting_memory(
    km: Kgmem, arun: Any, namespace: str
) -> None:
    ns = namespace
    _plant_edges(km, arun, ns, seed=13)
    records = _all_records(km, arun, ns)
    acted = set()
    for policy in (
        Policy(),
        Policy(retention_model="exp"),
        Policy(regularisation="huber"),
        Policy(regularisation="elastic"),
    ):
        endangered_ids = {
            m.id
            for m in records
            if m.status.value in LIVE
            and m.tier is not Tier.DORMANT
            and endangered(m, retention_now(m, NOW, policy), NOW, policy)
        }
        drifting = {m.id for m in records if drift(m, NOW) is not None}
        candidates = _page_ids(
            km,
            arun,
            retention_repository.find_rehearsal_candidates,
            ns,
            **rehearsal_filters(policy, NOW),
        )
        assert endangered_ids and drifting
        assert endangered_ids | drifting <= candidates
        acted |= endangered_ids | drifting
    live = {m.id for m in records if m.status.value in LIVE and m.tier is not Tier.DORMANT}
    assert acted < live  # memories no rule touches are not shipped at all


def test_lifecycle_centrality_is_written_rounded_once_and_a_rerun_writes_nothing(
    km: Kgmem, arun: Any, namespace: str
) -> None:
    ns = namespace
    ids = [
        plant(km, arun, ns, f"{a} met {b} in Porto.", entities=[a, b])
        for a, b in itertools.combinations(NAMES, 2)
    ]
    dry = run(km, arun, ns, "centrality", dry_run=True)
    assert dry.step("centrality").changes == {"centrality_updated": len(ids)}
    first = run(km, arun, ns, "centrality")
    assert first.step("centrality").changes == {"centrality_updated": len(ids)}
    for mid in ids:
        value = arun(repository.get_memory(km.graph, namespace=ns, memory_id=mid))
        assert value is not None
        c = value["memory"]["centrality"]
        assert c > 0 and abs(c - round(c, 6)) < 1e-12

    # PageRank runs once per run; the namespace version (recall's projection) moves only when a
    # score was written, so the rerun that writes nothing leaves recall's projection valid
    def version() -> int:
        row = arun(repository.get_namespace_version(km.graph, namespace=ns, graph_prefix="x-"))
        return int(row["version"])

    before = version()
    assert run(km, arun, ns, "centrality").step("centrality").changes == {}
    assert version() == before
    plant(km, arun, ns, f"{NAMES[0]} met {NAMES[1]} in Braga.", entities=NAMES[:2])
    after_plant = version()
    moved = run(km, arun, ns, "centrality").step("centrality").changes["centrality_updated"]
    assert moved > 0 and version() == after_plant + 1


def test_lifecycle_redundancy_compares_a_bounded_window_per_run_and_in_time_everything(
    km: Kgmem, arun: Any, namespace: str
) -> None:
    ns = namespace
    pairs = []
    for i in range(3):
        v = direction(300 + i)
        keep = plant(km, arun, ns, f"Sam drinks tea number {i}.", utility=0.7, embedding=v)
        dup = plant(km, arun, ns, f"Sam drinks tea, number {i}.", embedding=at_cosine(v, 0.95, i))
        pairs.append((keep, dup))
    merged, runs = 0, 0
    while runs < 10:  # two of the six memories per run: bounded runs that cover them all
        step = run(km, arun, ns, "redundancy", caps={"redundancy_window": 2}).step("redundancy")
        runs += 1
        assert step.stats["window"] <= 2
        merged += step.changes.get("merged", 0)
        if not step.capped:
            break
    assert merged == 3 and runs >= 2
    assert all(mem(km, arun, ns, dup)["status"] == "merged" for _keep, dup in pairs)
    again = run(km, arun, ns, "redundancy").step("redundancy")
    assert again.changes == {} and again.stats["window"] == 0  # everything compared: no work
    # a memory written later is compared with the ones already checked
    late = plant(
        km,
        arun,
        ns,
        "Sam drinks tea, number 0, again.",
        embedding=at_cosine(direction(300), 0.95, 9),
    )
    step = run(km, arun, ns, "redundancy").step("redundancy")
    assert step.stats["window"] == 1 and step.changes == {"merged": 1}
    assert mem(km, arun, ns, late)["status"] == "merged"


def test_lifecycle_redundancy_stops_reading_the_window_once_it_has_more_pairs_than_its_cap(
    km: Kgmem, arun: Any, namespace: str, monkeypatch: Any
) -> None:
    """The 50 comparisons per cycle: a window is read in chunks and reading stops as soon
    as the pairs found exceed the cap (the rest could only be left over); a capped run marks
    nothing checked, so bounded runs still merge every pair in time, and a run with the pairs
    under its cap reads its whole window."""
    monkeypatch.setattr(merge_steps, "READ_CHUNK", 2)
    ns = namespace
    dups = []
    for i in range(4):
        v = direction(720 + i)
        plant(km, arun, ns, f"Ivo paints boat number {i}.", utility=0.7, embedding=v)
        dups.append(
            plant(km, arun, ns, f"Ivo paints boat, no. {i}.", embedding=at_cosine(v, 0.96, 730 + i))
        )
    for i in range(6):  # loners: nothing above the threshold
        plant(km, arun, ns, f"loner {i}", embedding=direction(740 + i))
    caps = {"redundancy": 1}
    first = run(km, arun, ns, "redundancy", caps=caps).step("redundancy")
    assert first.stats["window"] == 14 and first.capped
    assert first.stats["compared"] < 14  # stopped once two pairs were in hand
    assert first.stats["similar_pairs"] >= 2 and first.changes == {"merged": 1}
    merged, runs = 1, 1
    while runs < 10:
        step = run(km, arun, ns, "redundancy", caps=caps).step("redundancy")
        runs += 1
        merged += step.changes.get("merged", 0)
        if not step.capped:
            break
    assert merged == 4 and step.stats["compared"] == step.stats["window"]  # the last read all
    assert all(mem(km, arun, ns, d)["status"] == "merged" for d in dups)
    again = run(km, arun, ns, "redundancy").step("redundancy")
    assert again.changes == {} and again.stats["window"] == 0


def test_lifecycle_transition_candidates_hold_every_memory_a_transition_rule_changes(
    km: Kgmem, arun: Any, namespace: str
) -> None:
    """Every memory the pure transition rules change (decay chain, expiries, archival, purge) is
    among the server's candidates, on a store around every threshold and under each policy;
    ACTIVE memories no rule touches are not shipped."""
    ns = namespace
    rnd = random.Random(19)
    memories, _mentions = _edge_rows(ns, 500, 19)
    for row in memories:  # the transition rules' own edges on top of the shared ones
        props = row["props"]
        props["status"] = rnd.choice(
            ["active"] * 4 + ["stale", "archived", "deleted", "challenged", "superseded"]
        )
        props["confidence"] = rnd.choice([0.39, 0.4, 0.41, 0.8, None])
        props["verification_state"] = rnd.choice(["unverified", "user_confirmed"])
        props["category"] = rnd.choice([props["category"], "commitment", "fact"])
        props["importance"] = rnd.choice([props["importance"], 0.29, 0.3, 0.1])
        if rnd.random() < 0.2:
            props["valid_until"] = NOW + rnd.choice([-DAY, -MIN, timedelta(0), MIN, DAY])
        if rnd.random() < 0.2:
            props["deleted_at"] = NOW - rnd.choice([89.99 * DAY, 90 * DAY, 91 * DAY])
        if rnd.random() < 0.1:
            props["resolved_at"] = NOW - rnd.choice([89 * DAY, 90 * DAY, 120 * DAY])
        if rnd.random() < 0.2:
            props["created_at"] = props["recorded_at"] = NOW - rnd.choice(
                [90 * DAY - MIN, 90 * DAY, 90 * DAY + MIN, 90 * DAY + 2 * MIN]
            )
            props["last_accessed"] = None
    arun(km.graph.write_batch([repository.create_memories(namespace=ns, memories=memories)]))
    records = _all_records(km, arun, ns)
    assert len(records) == 500
    changed_rules = set()
    for policy in (
        Policy(),
        Policy(retention_model="exp"),
        Policy(regularisation="huber"),
        Policy(fact_archival=False),
    ):
        decided = {m.id: decide_status(m, NOW, policy) for m in records}
        changed = {mid for mid, d in decided.items() if d is not None}
        changed_rules |= {d.rule for d in decided.values() if d is not None}
        page = arun(
            retention_repository.find_transition_candidates(
                km.graph,
                namespace=ns,
                statuses=ALL_STATUSES,
                after="",
                limit=100_000,
                **transition_filters(policy, NOW),
            )
        )
        candidates = {str(r["id"]) for r in page}
        assert changed and changed <= candidates
        untouched = {m.id for m in records if m.status.value == "active"} - changed
        assert untouched - candidates  # some ACTIVE memories no rule changes stay on the server
    assert changed_rules >= {
        "purge", "commitment_decay", "speculative_expiry", "foresight_expiry", "decay",
        "fact_archival",
    }  # fmt: skip
