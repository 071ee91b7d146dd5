"""Recall on the real stack: known orders, bi-temporal as_of, PageRank hops, profiles, the X-ray."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from typing import Any

import pytest

from kgmem.errors import InvalidInput
from kgmem.graph import gds, repository
from kgmem.recall.xray import check_additive
from kgmem.records import Turn
from kgmem.service import Kgmem

T0 = datetime(2024, 2, 1, 9, tzinfo=UTC)


# two turns whose memories share only the entity Oskar Lindqvist: a hop the graph channels make
OSKAR = [
    Turn("Oskar Lindqvist plays the cello in a quartet.", speaker="Eva", at=T0),
    Turn("Oskar Lindqvist grew up in Uppsala.", speaker="Eva", at=T0 + timedelta(minutes=1)),
]


def _ids(result: Any) -> list[str]:
    return [h.memory_id for h in result.hits]


def test_superseded_fact_is_hidden_now_but_returned_as_of_before(
    km: Kgmem, arun: Any, namespace: str
) -> None:
    old = arun(km.remember("Priya lives in Berlin.", namespace=namespace, now=T0))
    new = arun(
        km.remember(
            "Actually, Priya lives in Madrid now.",
            namespace=namespace,
            category="correction",
            now=T0 + timedelta(days=30),
        )
    )
    assert new.action == "superseded" and old.memory_id in new.related_ids
    now = arun(km.recall("Where does Priya live?", namespace=namespace, dry=True))
    assert old.memory_id not in _ids(now) and new.memory_id in _ids(now)
    reasons = {d.memory_id: d.reason for d in now.xray.dropped}
    assert reasons.get(old.memory_id) == "superseded"
    then = arun(
        km.recall(
            "Where does Priya live?", namespace=namespace, dry=True, as_of=T0 + timedelta(days=10)
        )
    )
    assert _ids(then)[0] == old.memory_id and new.memory_id not in _ids(then)


def test_recalled_often_outranks_never_recalled(km: Kgmem, arun: Any, namespace: str) -> None:
    a = arun(
        km.remember(
            "Marco recommended the ramen place on Fifth Street.", namespace=namespace, now=T0
        )
    )
    b = arun(
        km.remember("Marco recommended the taco truck on Main Street.", namespace=namespace, now=T0)
    )
    assert b.action == "created"
    for _ in range(6):  # recall a's wording so that only a gets touched
        result = arun(km.recall("ramen place Fifth Street", namespace=namespace, limit=1))
        assert _ids(result) == [a.memory_id]
    ranked = arun(km.recall("What did Marco recommend?", namespace=namespace, dry=True))
    order = _ids(ranked)
    assert order.index(a.memory_id) < order.index(b.memory_id)
    mem = arun(repository.get_memory(km.graph, namespace=namespace, memory_id=a.memory_id))
    assert mem is not None and mem["memory"]["access_count"] == 6


def test_dry_recall_touches_nothing(km: Kgmem, arun: Any, namespace: str) -> None:
    a = arun(km.remember("Lena's bike is a red Cannondale.", namespace=namespace))
    arun(km.recall("What bike does Lena ride?", namespace=namespace, dry=True))
    mem = arun(repository.get_memory(km.graph, namespace=namespace, memory_id=a.memory_id))
    assert mem is not None and mem["memory"]["access_count"] == 0


def test_pagerank_surfaces_a_memory_reachable_only_through_an_entity(
    km: Kgmem, arun: Any, namespace: str
) -> None:
    turns = [
        Turn("Oskar Lindqvist plays the cello in a quartet.", speaker="Eva", at=T0),
        Turn("Oskar Lindqvist grew up in Uppsala.", speaker="Eva", at=T0 + timedelta(minutes=1)),
        Turn(
            "The harbour ferry was late again this morning.",
            speaker="Eva",
            at=T0 + timedelta(minutes=2),
        ),
    ]
    arun(km.observe(turns, namespace=namespace, flush=True))
    query = "Which instrument does the cellist play in the quartet?"
    plain = arun(
        km.recall(query, namespace=namespace, dry=True, limit=1, channels=("vector", "fulltext"))
    )
    assert "cello" in plain.hits[0].content
    ppr = arun(
        km.recall(
            query,
            namespace=namespace,
            dry=True,
            limit=5,
            # fulltext alone finds only the cello memory: the seed PageRank walks from
            channels=("fulltext", "activation"),
            activation="pagerank",
        )
    )
    # GDS ran, not the Cypher spreading activation in its place
    assert "find_pagerank_memories" in ppr.xray.queries_run
    assert "search_memory_activation" not in ppr.xray.queries_run
    uppsala = next(h for h in ppr.hits if "Uppsala" in h.content)
    assert any(c.channel == "activation" for c in uppsala.channels)
    ferry = [h for h in ppr.hits if "ferry" in h.content]
    assert not ferry or ppr.hits.index(ferry[0]) > ppr.hits.index(uppsala)
    # the projection is reused until the namespace changes
    name = arun(gds.ensure_projection(km.graph, namespace))
    assert arun(gds.ensure_projection(km.graph, namespace)) == name
    arun(repository.drop_graph(km.graph, name=name))


def test_the_intent_picks_the_channels_a_request_leaves_open(
    km: Kgmem, arun: Any, namespace: str
) -> None:
    arun(km.observe(OSKAR, namespace=namespace, flush=True))
    factual = arun(km.recall("Which instrument does Oskar play?", namespace=namespace, dry=True))
    assert factual.xray.intent == "factual"
    assert factual.xray.channels == ("vector", "fulltext", "episode", "claim", "period")
    assert "search_entity_memories" not in factual.xray.queries_run
    assert "search_memory_activation" not in factual.xray.queries_run
    found = {c.channel for h in factual.hits for c in h.channels}
    assert found <= {"vector", "fulltext", "episode", "claim"}  # no date asked: no period read
    assert "search_period_memories" not in factual.xray.queries_run
    profile = arun(km.recall("Who is Oskar Lindqvist?", namespace=namespace, dry=True))
    assert profile.xray.intent == "entity_profile"
    assert profile.xray.channels == (
        "vector",
        "fulltext",
        "episode",
        "claim",
        "period",
        "entity",
        "activation",
    )
    assert "search_entity_memories" in profile.xray.queries_run
    assert any(c.channel == "entity" for h in profile.hits for c in h.channels)
    named = arun(
        km.recall("Who is Oskar Lindqvist?", namespace=namespace, dry=True, channels=["vector"])
    )
    assert named.xray.channels == ("vector",)  # a request's own channels win over the router
    assert {c.channel for h in named.hits for c in h.channels} == {"vector"}


def test_spreading_activation_explains_its_path(km: Kgmem, arun: Any, namespace: str) -> None:
    arun(km.observe(OSKAR, namespace=namespace, flush=True))
    res = arun(
        km.recall(
            "Which instrument does the cellist play?",
            namespace=namespace,
            dry=True,
            channels=("vector", "activation"),
        )
    )
    explain = {h.memory_id: h for h in res.xray.hits}
    hop = next(h for h in res.hits if "Uppsala" in h.content)
    steps = explain[hop.memory_id].path
    cello = next(h for h in res.hits if "cello" in h.content)
    assert steps[0].node_id == cello.memory_id and steps[-1].node_id == hop.memory_id
    # either through the shared entity, or along the memory link the write path created
    edges = [s.edge_type for s in steps[1:]]
    assert edges in (["MENTIONS", "MENTIONS"], ["SAME_ENTITY"], ["ELABORATES"], ["RELATED_TO"])
    assert all(s.edge_confidence is not None and 0 < s.edge_confidence <= 1 for s in steps[1:])


def test_profiles_reorder_near_ties_but_never_a_clearly_more_relevant_memory(
    km: Kgmem, arun: Any, namespace: str
) -> None:
    """A profile's priors (here recency) decide between memories of similar relevance; a memory
    clearly more relevant to the question stays first under every profile, however old."""
    now = datetime.now(UTC)
    relevant = arun(
        km.remember(
            "Team offsite planning notes: venue shortlist for the offsite.",
            namespace=namespace,
            now=now - timedelta(days=200),
        )
    )
    aside = arun(
        km.remember(
            "Team offsite update: catering was booked.",
            namespace=namespace,
            now=now - timedelta(hours=1),
        )
    )
    q = "team offsite planning venue"
    for profile in ("deep", "recent", "balanced", "important"):
        order = _ids(arun(km.recall(q, namespace=namespace, dry=True, profile=profile)))
        assert order.index(relevant.memory_id) < order.index(aside.memory_id), profile
    tie = f"{namespace}-tie"
    try:
        near = arun(
            km.remember(
                "The offsite venue options are a lake house and a barn.",
                namespace=tie,
                now=now - timedelta(days=200),
            )
        )
        fresh = arun(
            km.remember(
                "The offsite venue will probably be the old mill.",
                namespace=tie,
                now=now - timedelta(hours=1),
            )
        )
        result = arun(km.recall(q, namespace=tie, dry=True, profile="recent"))
    finally:
        arun(km.wipe_namespace(tie))
    relevance = {h.memory_id: h.factors["relevance"] for h in result.xray.hits}
    assert relevance[near.memory_id] == pytest.approx(relevance[fresh.memory_id], rel=0.05)
    assert _ids(result).index(fresh.memory_id) < _ids(result).index(near.memory_id)


def test_xray_contributions_add_up_and_every_drop_has_a_reason(
    km: Kgmem, arun: Any, namespace: str
) -> None:
    facts = [
        "Project Falcon kicked off in March with four engineers.",
        "Project Falcon uses Kafka for its event pipeline.",
        "The Falcon review board meets every second Thursday.",
        "Project Falcon's budget was approved by finance in April.",
        "Falcon's first milestone review found two blocking bugs.",
        "The Falcon team moved its standup to 9:30.",
        "Project Falcon will ship the beta to three pilot customers.",
        "Falcon's design doc lives in the shared drive under Specs.",
    ]
    for i, fact in enumerate(facts):
        arun(km.remember(fact, namespace=namespace, now=T0 + timedelta(hours=i)))
    res = arun(km.recall("Falcon milestone review", namespace=namespace, limit=3, dry=True))
    assert len(res.hits) == 3
    for hit in res.xray.hits:
        assert check_additive(hit)
        assert sum(hit.contributions.values()) == pytest.approx(hit.final_score, rel=1e-9)
        assert hit.channels and hit.episodes
    assert res.xray.dropped and all(d.reason for d in res.xray.dropped)
    assert set(res.xray.timings) >= {"channels", "score", "mmr"}
    assert "search_memory_vector" in res.xray.queries_run


def test_other_namespace_never_appears_in_hits_or_xray(
    km: Kgmem, arun: Any, namespace: str
) -> None:
    other = namespace + "-x"
    try:
        secret = arun(km.remember("Vault combination is 31-7-12.", namespace=other))
        arun(km.remember("The vault is in the basement.", namespace=namespace))
        res = arun(km.recall("vault combination", namespace=namespace, dry=True))
        seen = {h.memory_id for h in res.xray.hits} | {d.memory_id for d in res.xray.dropped}
        assert secret.memory_id not in seen
        assert all("31-7-12" not in h.content for h in res.hits)
    finally:
        arun(km.wipe_namespace(other))


def test_greeting_is_gated(km: Kgmem, arun: Any, namespace: str) -> None:
    res = arun(km.recall("hello!", namespace=namespace))
    assert res.skipped == "greeting" and res.hits == ()


@pytest.mark.parametrize(
    "opts",
    [
        {"profile": "fastest"},
        {"mode": "everything"},
        {"categories": ["gossip"]},
        {"as_of": "last tuesday"},
        {"limit": 0},
        {"limit": 1000},
        {"channels": ["telepathy"]},
        {"min_confidence": 2},
        {"activation": "magic"},
    ],
)
def test_bad_recall_options_are_typed_errors(
    km: Kgmem, arun: Any, namespace: str, opts: dict[str, Any]
) -> None:
    with pytest.raises(InvalidInput):
        arun(km.recall("anything about the vault", namespace=namespace, **opts))


@pytest.mark.parametrize("query", ["", "   ", "x" * 2049])
def test_bad_queries_are_typed_errors(km: Kgmem, arun: Any, namespace: str, query: str) -> None:
    with pytest.raises(InvalidInput):
        arun(km.recall(query, namespace=namespace))


def test_episode_channel_finds_memories_through_their_turns_words(
    km: Kgmem, arun: Any, namespace: str
) -> None:
    turn = Turn(
        "I adopted a kitten from the Hayward shelter, the paperwork took forever.",
        speaker="Eva",
        at=T0,
        turn_id="t-hayward",
    )
    arun(km.observe([turn], namespace=namespace, flush=True))
    other = f"{namespace}-other"
    arun(km.observe([turn], namespace=other, flush=True))
    result = arun(
        km.recall("Hayward paperwork", namespace=namespace, dry=True, channels=("episode",))
    )
    assert result.hits, "the turn's own words must find the memories derived from it"
    for hit in result.hits:
        assert "t-hayward" in hit.turn_ids
        assert [c.channel for c in hit.channels] == ["episode"]
    mine = {
        row["id"]
        for row in arun(
            repository.find_memory_turns(km.graph, namespace=namespace, ids=_ids(result))
        )
    }
    assert mine == set(_ids(result))  # nothing from the other namespace's identical turn
    arun(km.wipe_namespace(other))


def test_hub_names_are_the_entities_most_memories_of_the_namespace_mention(
    km: Kgmem, arun: Any, namespace: str
) -> None:
    texts = [
        "Priya adopted two turtles named Shelly and Bolt.",
        "Priya ran a marathon in Lisbon last spring.",
        "Priya bakes sourdough bread every Sunday.",
        "Priya started learning the cello in March.",
        "Omar fixed the old bicycle in the garage.",
    ]
    turns = [
        Turn(text, speaker="Eva", at=T0 + timedelta(minutes=i)) for i, text in enumerate(texts)
    ]
    arun(km.observe(turns, namespace=namespace, flush=True))
    entities = arun(repository.find_entities(km.graph, namespace=namespace, limit=100))
    assert entities, "NER found no entity to weigh"
    top = entities[0]["mention_count"]
    memories = arun(km.stats(namespace=namespace))["labels"]["Memory"]
    # an entity is a hub when its mentions reach the share of the namespace's memories
    hubs = arun(
        repository.find_hub_names(km.graph, namespace=namespace, share=top / memories, limit=20)
    )
    assert entities[0]["name"] in hubs
    assert not any(e["name"] in hubs for e in entities if e["mention_count"] < top)
    assert arun(repository.find_hub_names(km.graph, namespace=namespace, share=1.1, limit=20)) == []
    other = arun(
        repository.find_hub_names(km.graph, namespace=namespace + "-x", share=0.0, limit=20)
    )
    assert other == []  # an empty (or another) namespace has no hubs of this one
    # precise searches Priya's name at a lower weight, and still finds the turtles by their word
    hit = arun(km.recall("Priya turtles", namespace=namespace, profile="precise", dry=True))
    assert hit.hits and "turtles" in hit.hits[0].content
