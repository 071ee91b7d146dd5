"""The consolidation steps that build knowledge on the real Neo4j + GDS and the real embedder:
entity merges by name embedding (reversible), the topic tree and its names (local and from the
LLM, with the fake OpenAI server), entity profiles and category summaries (debounced) and
session distillation.

Memories are planted with the helpers of ``test_consolidation`` (chosen timestamps, every run at
a fixed ``now``), so each rule is checked at its threshold and every step's second run is a no-op.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from typing import Any

import pytest
from support.fake_openai import FakeOpenAI
from test_consolidation import DAY, NOW, _entity_state, mem, plant, run

from kgmem.core.text import normalize_name
from kgmem.errors import NotFound
from kgmem.graph import api_repository, repository, topic_repository
from kgmem.service import Kgmem


@pytest.fixture
def fake_llm() -> Iterator[FakeOpenAI]:
    with FakeOpenAI() as fake:
        yield fake


def embedded_entity(
    km: Kgmem, arun: Any, ns: str, memory: str, name: str, etype: str, vector: Sequence[float]
) -> str:
    """An entity named ``name`` with a name embedding, mentioned by ``memory``."""
    norm = normalize_name(name)
    eid = f"{ns}:{norm}:{etype}"
    entity = {"id": eid, "name": name, "normalized_name": norm, "type": etype,
              "first_token": norm.split()[0], "at": NOW, "embedding": list(vector)}  # fmt: skip
    mention = {"memory_id": memory, "entity_id": eid, "confidence": 0.9, "at": NOW,
               "surface": name, "resolved_by": "new"}  # fmt: skip
    arun(
        km.graph.write_batch(
            [repository.merge_entities(namespace=ns, entities=[entity], mentions=[mention])]
        )
    )
    return eid


# --- entity merges by name embedding ------------------------------------------------------------


def test_lifecycle_entities_the_name_rule_misses_merge_by_embedding_and_the_merge_undoes(
    km: Kgmem, arun: Any, namespace: str
) -> None:
    ns = namespace
    names = ["Mount Everest", "Mt. Everest", "North Korea", "South Korea"]
    vectors = dict(zip(names, km.embedder.embed(names), strict=True))
    memories = {
        "climb": plant(km, arun, ns, "We climbed Mount Everest in May."),
        "base": plant(km, arun, ns, "Mount Everest base camp was crowded."),
        "cold": plant(km, arun, ns, "Mt. Everest was bitterly cold."),
        "north": plant(km, arun, ns, "North Korea closed the border."),
        "south": plant(km, arun, ns, "South Korea won the match."),
    }
    for key, name in (("climb", "Mount Everest"), ("base", "Mount Everest"),
                      ("cold", "Mt. Everest"), ("north", "North Korea"),
                      ("south", "South Korea")):  # fmt: skip
        embedded_entity(km, arun, ns, memories[key], name, "location", vectors[name])
    before = _entity_state(km, arun, ns, list(memories.values()))
    report = run(km, arun, ns, "entities")
    step = report.step("entities")
    # "mount everest" and "mt everest" share no name or alias: only the embeddings (0.92 > 0.9)
    # join them; North and South Korea (0.87) stay two places
    assert step.changes == {"entities_merged": 1}
    assert step.stats["merged_by:embedding"] == 1
    after = _entity_state(km, arun, ns, list(memories.values()))
    assert sorted(e["name"] for e in after["entities"]) == [
        "Mount Everest", "North Korea", "South Korea"
    ]  # fmt: skip
    everest = next(e for e in after["entities"] if e["name"] == "Mount Everest")
    assert "Mt. Everest" in everest["aliases"] and everest["mention_count"] == 3
    assert after["mentions"][memories["cold"]] == ["Mount Everest"]
    assert run(km, arun, ns, "entities").changed == 0
    undone = arun(km.undo_entity_merge(step.ids["entity_merges"][0], namespace=ns, now=NOW))
    assert undone["restored"] == 1 and undone["mentions"] == 1
    assert _entity_state(km, arun, ns, list(memories.values())) == before
    with pytest.raises(NotFound):
        arun(km.undo_entity_merge(step.ids["entity_merges"][0], namespace=ns, now=NOW))
    # the undo is remembered: the next run does not merge them again
    assert run(km, arun, ns, "entities").changed == 0


def test_lifecycle_entity_embedding_merges_can_be_switched_off(
    km: Kgmem, arun: Any, namespace: str, tuned: Any
) -> None:
    ns = namespace
    off = tuned(entity_merge_similarity=1.0)
    names = ["Saint Petersburg", "St. Petersburg"]
    for name, vector in zip(names, km.embedder.embed(names), strict=True):
        m = plant(km, arun, ns, f"{name} in winter.")
        embedded_entity(km, arun, ns, m, name, "location", vector)
    assert run(off, arun, ns, "entities").changed == 0
    assert run(km, arun, ns, "entities").step("entities").changes == {"entities_merged": 1}


# --- entity profiles and category summaries -----------------------------------------------------


def _dana(km: Kgmem, arun: Any, ns: str) -> dict[str, Any] | None:
    return arun(
        api_repository.get_entity(km.graph, namespace=ns, id=f"{ns}:dana:person", normalized=None)
    )


def test_lifecycle_summaries_are_built_once_and_rebuilt_only_after_their_memories_change(
    km: Kgmem, arun: Any, namespace: str
) -> None:
    ns = namespace
    plant(km, arun, ns, "Dana prefers Python over Scala.", entities=["Dana"], centrality=0.2)
    plant(km, arun, ns, "Dana leads the data platform team.", entities=["Dana"], centrality=0.9,
          utility=0.8)  # fmt: skip
    plant(km, arun, ns, "Dana moved to Lisbon in 2021.", entities=["Dana"], centrality=0.5)
    plant(km, arun, ns, "Eli likes chess.", entities=["Eli"])  # two memories: no profile
    plant(km, arun, ns, "Eli plays on Sundays.", entities=["Eli"])
    for i in range(10):
        plant(km, arun, ns, f"The user prefers setting {i} for tool {i}.", category="preference")
    report = run(km, arun, ns, "summaries")
    step = report.step("summaries")
    assert step.changes == {"profiles": 1, "category_summaries_created": 1}
    dana = _dana(km, arun, ns)
    assert dana is not None
    # most central (then most useful) first, every sentence whole
    assert dana["summary"] == (
        "Dana leads the data platform team. Dana moved to Lisbon in 2021. "
        "Dana prefers Python over Scala."
    )
    eli = arun(api_repository.get_entity(km.graph, namespace=ns, id=None, normalized="eli"))
    assert eli is not None and eli["summary"] is None
    summary_id = step.ids["category_summaries"][0]
    summary = mem(km, arun, ns, summary_id)
    assert summary["content"].startswith("Summary of 10 preference memories: The user prefers")
    assert (summary["category"], summary["tier"], summary["importance"]) == (
        "preference", "semantic", 0.8
    )  # fmt: skip
    assert summary["tags"] == ["category-summary", "auto-distilled"]
    assert summary["summary_method"] == "local" and len(summary["summary_sources"]) == 8
    # debounced: nothing changed, nothing is rebuilt
    assert run(km, arun, ns, "summaries").changed == 0
    plant(km, arun, ns, "Dana adopted a cat named Miso.", entities=["Dana"], centrality=0.7)
    plant(km, arun, ns, "The user prefers green tea.", category="preference", centrality=1.0)
    report = run(km, arun, ns, "summaries")
    assert report.step("summaries").changes == {"profiles": 1, "category_summaries_updated": 1}
    dana = _dana(km, arun, ns)
    assert dana is not None and "Miso" in dana["summary"]
    summary = mem(km, arun, ns, summary_id)  # updated in place, not duplicated
    assert summary["content"].startswith(
        "Summary of 11 preference memories: The user prefers green"
    )
    assert run(km, arun, ns, "summaries").changed == 0


def test_lifecycle_summaries_ask_the_llm_when_configured_and_fall_back_when_it_fails(
    km: Kgmem, arun: Any, namespace: str, tuned: Any, fake_llm: FakeOpenAI
) -> None:
    ns = namespace
    svc = tuned(llm_level="always", llm_base_url=fake_llm.base_url, llm_max_retries=0)
    for text in ("Dana leads the data team.", "Dana moved to Lisbon in 2021.", "Dana likes tea."):
        plant(km, arun, ns, text, entities=["Dana"])
    fake_llm.payload = {"summary": "Dana leads the data team, moved to Lisbon in 2021, likes tea."}
    run(svc, arun, ns, "summaries")
    dana = _dana(km, arun, ns)
    assert dana is not None and dana["summary"] == fake_llm.payload["summary"]
    assert "Dana moved to Lisbon in 2021." in fake_llm.requests[0].message("user")
    plant(km, arun, ns, "Dana visited Oslo.", entities=["Dana"])
    fake_llm.script("error")  # the server fails: the local summary is written instead
    report = run(svc, arun, ns, "summaries")
    assert report.step("summaries").stats["summary_llm_failed"] == 1
    dana = _dana(km, arun, ns)
    assert dana is not None and "Dana visited Oslo." in dana["summary"]
    plant(km, arun, ns, "Dana bought a bike in 2024.", entities=["Dana"])
    fake_llm.payload = {"summary": "Dana leads a team."}  # drops specifics: refused
    report = run(svc, arun, ns, "summaries")
    assert report.step("summaries").stats["summary_llm_rejected"] == 1
    dana = _dana(km, arun, ns)
    assert dana is not None and "2024" in dana["summary"]


# --- session distillation ------------------------------------------------------------------------


HOUR = DAY / 24


def test_lifecycle_three_session_notes_distil_into_a_snapshot_that_keeps_the_specifics(
    km: Kgmem, arun: Any, namespace: str
) -> None:
    ns = namespace
    note = {"tags": ["session"], "session_id": "s-42"}
    notes = [
        plant(km, arun, ns, "Migrated the ingest service to Postgres 16.", **note,
              created_at=NOW - 3 * HOUR, entities=[("Postgres", "product")]),
        plant(km, arun, ns, "Fixed bug 1182 in the recall ranker.", **note,
              created_at=NOW - 2 * HOUR),
        plant(km, arun, ns, "Staging deploy is planned for 2025-06-03.", source="session",
              session_id="s-42", created_at=NOW - HOUR),
    ]  # fmt: skip
    plant(km, arun, ns, "An ordinary memory of the same session.", session_id="s-42")
    for i in range(2):  # two notes are not enough (3+)
        plant(km, arun, ns, f"Short session note {i}.", tags=["session"], session_id="s-7")
    before = {n: mem(km, arun, ns, n) for n in notes}
    report = run(km, arun, ns, "distillation")
    step = report.step("distillation")
    assert step.changes == {"snapshots": 1, "notes_distilled": 3}
    snapshot = mem(km, arun, ns, step.ids["snapshots"][0])
    for specific in ("Postgres 16", "1182", "2025-06-03", "recall ranker"):
        assert specific in snapshot["content"], snapshot["content"]
    assert snapshot["content"].startswith("Status snapshot of session s-42: Migrated")
    assert snapshot["tags"] == ["project-status", "auto-distilled"]
    assert (snapshot["session_id"], snapshot["tier"], snapshot["category"]) == (
        "s-42", "semantic", "context"
    )  # fmt: skip
    assert snapshot["distilled_from"] == notes
    row = arun(repository.get_memory(km.graph, namespace=ns, memory_id=snapshot["id"]))
    assert row is not None and row["entities"] == ["Postgres"]  # the notes' entities
    assert {n: mem(km, arun, ns, n) for n in notes} == before  # the notes are left as they were
    assert run(km, arun, ns, "distillation").changed == 0  # they are distilled now
    for i in range(3):  # three new notes: a new snapshot of those
        plant(km, arun, ns, f"Later note {i} on release 2.{i}.", **note,
              created_at=NOW + (i + 1) * HOUR)  # fmt: skip
    report = run(km, arun, ns, "distillation", now=NOW + 5 * HOUR)
    assert report.step("distillation").changes == {"snapshots": 1, "notes_distilled": 3}
    assert run(km, arun, ns, "distillation", now=NOW + 5 * HOUR).changed == 0


def test_lifecycle_distillation_uses_a_faithful_llm_snapshot_and_falls_back_otherwise(
    km: Kgmem, arun: Any, namespace: str, tuned: Any, fake_llm: FakeOpenAI
) -> None:
    ns = namespace
    svc = tuned(llm_level="auto", llm_base_url=fake_llm.base_url, llm_max_retries=0)
    texts = ["Shipped v2.3 to production.", "Rolled back v2.3 at 14:00.", "Opened ticket 77."]
    for i, text in enumerate(texts):
        plant(km, arun, ns, text, tags=["session"], session_id="a", created_at=NOW - (3 - i) * HOUR)
    fake_llm.payload = {"snapshot": "Shipped v2.3, rolled back at 14:00; ticket 77 opened."}
    step = run(svc, arun, ns, "distillation").step("distillation")
    snapshot = mem(km, arun, ns, step.ids["snapshots"][0])
    assert snapshot["content"] == "Status snapshot of session a: " + fake_llm.payload["snapshot"]
    assert snapshot["distill_method"] == "llm"
    for i, text in enumerate(texts):
        plant(km, arun, ns, f"Again: {text}", tags=["session"], session_id="b",
              created_at=NOW - (3 - i) * HOUR)  # fmt: skip
    fake_llm.payload = {"snapshot": "Shipped and rolled back."}  # lost the specifics
    step = run(svc, arun, ns, "distillation").step("distillation")
    snapshot = mem(km, arun, ns, step.ids["snapshots"][0])
    assert snapshot["distill_method"] == "local" and "ticket 77" in snapshot["content"]
    assert step.stats["snapshot_llm_rejected"] == 1


# --- the topic tree and its names -----------------------------------------------------------------


TREE = {
    "garden": ["Rosa", "Tulip", "Compost"],
    "cooking": ["Basil", "Pasta", "Oven"],
    "music": ["Piano", "Chopin", "Recital"],
    "opera": ["Verdi", "Tenor", "Aria"],
    "travel": ["Kyoto", "Shinkansen", "Ryokan"],
}
# two memories bridge garden and cooking, two music and opera; travel stands alone
BRIDGES = [("Basil", "Tulip"), ("Tulip", "Pasta"), ("Verdi", "Chopin"), ("Piano", "Tenor")]


def _plant_tree(km: Kgmem, arun: Any, ns: str) -> dict[str, set[str]]:
    planted: dict[str, set[str]] = {}
    for topic, names in TREE.items():
        planted[topic] = set()
        for i in range(4):
            pair = [(names[i % 3], "concept"), (names[(i + 1) % 3], "concept")]
            text = f"Note {i} on {topic}: {pair[0][0]} and {pair[1][0]}."
            planted[topic].add(plant(km, arun, ns, text, entities=pair))
    for a, b in BRIDGES:
        plant(km, arun, ns, f"{a} meets {b}.", entities=[(a, "concept"), (b, "concept")])
    return planted


def test_lifecycle_topics_form_a_tree_whose_parents_group_linked_topics(
    km: Kgmem, arun: Any, namespace: str
) -> None:
    ns = namespace
    planted = _plant_tree(km, arun, ns)
    report = run(km, arun, ns, "topics")
    step = report.step("topics")
    assert step.stats["topics"] == 5 and step.stats["parent_topics"] == 2
    assert step.changes == {"topics_created": 7}
    topics = arun(topic_repository.find_topics(km.graph, namespaces=[ns], limit=20))
    leaves = [t for t in topics if t.level == 0]
    parents = {t.id: t for t in topics if t.level == 1}

    def members(topic_id: str) -> set[str]:
        rows = arun(
            topic_repository.find_topic_members(km.graph, namespace=ns, topic_id=topic_id, limit=50)
        )
        return {m["id"] for m in rows}

    # every planted topic is recovered as one leaf (a bridge memory joins one side)
    leaf_of = {}
    for name, ids in planted.items():
        leaf_of[name] = next(t for t in leaves if ids <= members(t.id))
        assert len(members(leaf_of[name].id)) - len(ids) <= 1
    assert len({t.id for t in leaf_of.values()}) == 5
    # the parents group the linked topics; travel has none
    assert leaf_of["garden"].parent == leaf_of["cooking"].parent in parents
    assert leaf_of["music"].parent == leaf_of["opera"].parent in parents
    assert leaf_of["garden"].parent != leaf_of["music"].parent
    assert leaf_of["travel"].parent is None
    for pid, parent in parents.items():
        assert parent.members == 10 and len(members(pid)) == 10
        assert parent.name == ", ".join(parent.terms) and parent.name_method == "local"
    assert run(km, arun, ns, "topics").changed == 0
    ctx = arun(km.resume(ns, token_budget=4000, now=NOW))
    lines = ctx.text.splitlines()
    first = lines.index(next(x for x in lines if x.startswith("=== Topics")))
    tree = lines[first + 1 : first + 8]
    assert [x.startswith("  kb") for x in tree] == [False, True, True, False, True, True, False]
    assert tree[0].endswith("[10]") and tree[-1].endswith("[4]") and len(ctx.topics) == 7
    small = arun(km.resume(ns, token_budget=120, now=NOW))
    shown = {t["id"] for t in small.topics}
    assert all(t["parent"] is None or t["parent"] in shown for t in small.topics)


def test_lifecycle_new_topics_are_named_by_the_llm_and_locally_when_it_fails(
    km: Kgmem, arun: Any, namespace: str, tuned: Any, fake_llm: FakeOpenAI
) -> None:
    ns = namespace
    svc = tuned(llm_level="auto", llm_base_url=fake_llm.base_url, llm_max_retries=0)
    planted = _plant_tree(km, arun, ns)
    fake_llm.script("error")
    report = run(svc, arun, ns, "topics")
    assert report.step("topics").stats["naming_llm_failed"] == 1
    topics = arun(topic_repository.find_topics(km.graph, namespaces=[ns], limit=20))
    assert len(topics) == 7 and {t.name_method for t in topics} == {"local"}
    # a new travel memory changes the travel leaf: only that new topic is named, by the LLM
    plant(km, arun, ns, "Kyoto in autumn.", entities=[("Kyoto", "concept")])
    fake_llm.payload = {"names": ["Trips to Japan"]}
    report = run(svc, arun, ns, "topics")
    assert report.step("topics").changes == {"topics_created": 1, "topics_removed": 1}
    named = [t for t in arun(topic_repository.find_topics(km.graph, namespaces=[ns], limit=20))
             if t.name_method == "llm"]  # fmt: skip
    assert [(t.name, t.members) for t in named] == [("Trips to Japan", 5)]
    assert "on travel: " in fake_llm.requests[-1].message("user")
    assert run(svc, arun, ns, "topics").changed == 0  # the LLM's name stays
    assert planted
