"""The graph-structure rules of the consolidation job: near-duplicate clusters and theme memories
, entity merges, edge-confidence decay and relation pruning,
and topic planning and naming (docs/lifecycle.md)."""

from __future__ import annotations

import itertools
import math
from dataclasses import replace
from datetime import UTC, datetime, timedelta

from hypothesis import given
from hypothesis import strategies as st

from kgmem.lifecycle.consolidation.policy import Policy
from kgmem.lifecycle.hygiene.rules import (
    EdgeState,
    EntityRecord,
    LinkRow,
    compatible_types,
    decay_edge,
    plan_entity_merges,
    prune_victims,
)
from kgmem.lifecycle.redundancy.rules import (
    DupMember,
    SimilarPair,
    ThemeSource,
    cosine_from_gds,
    covering_member,
    gds_cutoff,
    mean_embedding,
    plan_clusters,
    theme_category,
    theme_content,
)
from kgmem.lifecycle.topics.rules import (
    CommunityNode,
    TopicPlan,
    diff_topics,
    plan_parents,
    plan_topics,
    plan_tree,
    topic_id,
)
from kgmem.taxonomy import MemoryRelation

NOW = datetime(2025, 6, 1, 12, tzinfo=UTC)
DAY = timedelta(days=1)
POLICY = Policy()


# --- redundancy -------------------------------------------------------------------------------


def member(mid: str, utility: float = 0.5, **kw: object) -> DupMember:
    return DupMember(mid, utility, 0.5, 0, NOW, **kw)  # type: ignore[arg-type]


def test_gds_similarity_converts_to_and_from_cosine() -> None:
    assert gds_cutoff(0.9) == 0.95 and math.isclose(cosine_from_gds(0.95), 0.9)
    assert cosine_from_gds(0.5) == 0.0 and cosine_from_gds(1.0) == 1.0


def test_a_pair_above_the_threshold_keeps_the_higher_utility() -> None:
    members = {"a": member("a", 0.4), "b": member("b", 0.8), "c": member("c"), "d": member("d")}
    pairs = [SimilarPair("a", "b", 0.95), SimilarPair("b", "a", 0.95), SimilarPair("c", "d", 0.9)]
    clusters, due = plan_clusters(pairs, members, threshold=0.9, cap=50, theme_min=5)
    assert due == 1  # the pair seen both ways counts once; exactly 0.9 is not "> 0.9"
    assert [(c.survivor, c.losers) for c in clusters] == [("b", ("a",))]


def test_an_anchored_member_survives_and_is_never_merged() -> None:
    members = {"a": member("a", 0.1, pinned=True), "b": member("b", 0.9),
               "c": member("c", 0.9, immutable=True)}  # fmt: skip
    pairs = [SimilarPair("a", "b", 0.97), SimilarPair("b", "c", 0.96)]
    clusters, _ = plan_clusters(pairs, members, threshold=0.9, cap=50, theme_min=5)
    assert [(c.survivor, c.losers) for c in clusters] == [("c", ("b",))]
    only_anchored = {"a": member("a", pinned=True), "c": member("c", immutable=True)}
    assert plan_clusters([SimilarPair("a", "c", 0.99)], only_anchored, threshold=0.9, cap=50,
                         theme_min=5)[0] == []  # fmt: skip


def test_five_mergeable_members_make_a_theme_and_the_cap_bounds_pairs() -> None:
    ids = [f"m{i}" for i in range(6)]
    members = {i: member(i) for i in ids}
    chain = [SimilarPair(a, b, 0.95 + k / 1000) for k, (a, b) in enumerate(itertools.pairwise(ids))]
    clusters, due = plan_clusters(chain, members, threshold=0.9, cap=50, theme_min=5)
    assert due == 5 and len(clusters) == 1 and clusters[0].theme
    assert sorted(clusters[0].losers) == ids
    capped, due = plan_clusters(chain, members, threshold=0.9, cap=3, theme_min=5)
    assert due == 5 and not any(c.theme for c in capped)
    assert sum(len(c.losers) for c in capped) <= 3


def source(mid: str, text: str, days: int, category: str = "fact") -> ThemeSource:
    return ThemeSource(mid, text, category, NOW - days * DAY, [1.0, 0.0])


def test_theme_content_keeps_every_specific_detail_oldest_first() -> None:
    srcs = [
        source("b", "Alice has seat 12C on flight AA100.", 1),
        source("a", "Alice booked flight AA100 to Paris.", 3),
        source("c", "Alice's flight leaves JFK at 9am.", 2, "event"),
    ]
    text = theme_content(srcs)
    assert text.startswith("Alice booked flight AA100 to Paris")
    for detail in ("12C", "AA100", "Paris", "JFK", "9am"):
        assert detail in text
    assert covering_member(srcs, text) is None
    assert covering_member(srcs[:1], theme_content(srcs[:1])) == "b"
    assert theme_category(srcs) == "fact"


def test_mean_embedding_is_a_unit_vector_or_none() -> None:
    v = mean_embedding([[1.0, 0.0], [0.0, 1.0], None])
    assert v is not None and math.isclose(v[0], v[1]) and math.isclose(math.hypot(*v), 1.0)
    assert mean_embedding([None]) is None and mean_embedding([[1.0], [1.0, 2.0]]) is None


# --- entity merges ------------------------------------------------------------------------------


def ent(eid: str, name: str, etype: str = "organization", aliases: tuple[str, ...] = (),
        mentions: int = 1, days: int = 1) -> EntityRecord:  # fmt: skip
    norm = name.lower()
    return EntityRecord(eid, name, norm, etype, (norm, *aliases), mentions, NOW - days * DAY)


def test_fragments_merge_into_the_most_mentioned_with_compatible_types() -> None:
    acme = ent("e1", "Acme", mentions=3)
    corp = ent("e2", "Acme Corp", aliases=("acme",), mentions=1)
    inc = ent("e3", "Acme", etype="product", mentions=1, days=9)  # loose types merge
    paris_p = ent("p1", "Paris", etype="person")
    paris_l = ent("p2", "Paris", etype="location")
    merges, due = plan_entity_merges(
        [(acme, corp), (corp, acme), (acme, inc), (paris_p, paris_l)], cap=10
    )
    assert due == 2 and {(m.canonical, m.loser) for m in merges} == {("e1", "e2"), ("e1", "e3")}
    assert not compatible_types("person", "location") and compatible_types("product", "other")
    assert len(plan_entity_merges([(acme, corp), (acme, inc)], cap=1)[0]) == 1


def test_unrelated_names_do_not_merge() -> None:
    assert plan_entity_merges([(ent("a", "Acme"), ent("b", "Apex"))], cap=5) == ([], 0)


# --- edge decay -----------------------------------------------------------------------------------


def edge(days: float, conf: float = 0.6, **kw: object) -> EdgeState:
    return EdgeState("r", conf, NOW - timedelta(days=days), **kw)  # type: ignore[arg-type]


def test_edges_decay_per_whole_window_after_the_grace_period() -> None:
    assert decay_edge(edge(60 - 1e-6), NOW, POLICY) is None  # grace 30 + first window 30
    first = decay_edge(edge(60), NOW, POLICY)
    assert first is not None and math.isclose(first.confidence, 0.55) and first.windows == 1
    second = decay_edge(edge(119), NOW, POLICY)
    assert second is not None and math.isclose(second.confidence, 0.5) and second.windows == 2


def test_edge_decay_stops_at_the_floor_and_never_applies_a_window_twice() -> None:
    floor = decay_edge(edge(3000, 0.3), NOW, POLICY)
    assert floor is not None and floor.confidence == POLICY.edge_decay_floor
    assert decay_edge(edge(3000, 0.1), NOW, POLICY) is None
    assert decay_edge(edge(3000, 0.05), NOW, POLICY) is None  # below the floor: left alone
    anchor = NOW - 90 * DAY
    done = EdgeState("r", 0.5, anchor, anchor, 2)
    assert decay_edge(done, NOW, POLICY) is None
    assert decay_edge(done, NOW + 30 * DAY, POLICY) is not None
    reinforced = EdgeState("r", 0.5, NOW - 10 * DAY, anchor, 2)  # a newer anchor: count afresh
    assert decay_edge(reinforced, NOW, POLICY) is None


@given(days=st.floats(0, 2000), conf=st.floats(0, 1), later=st.floats(0, 500))
def test_edge_decay_is_monotone_floored_and_idempotent(
    days: float, conf: float, later: float
) -> None:
    e = edge(days, conf)
    d = decay_edge(e, NOW, POLICY)
    if d is None:
        return
    assert POLICY.edge_decay_floor <= d.confidence < conf
    applied = EdgeState("r", d.confidence, e.anchor, d.anchor, d.windows)
    assert decay_edge(applied, NOW, POLICY) is None
    nxt = decay_edge(applied, NOW + timedelta(days=later), POLICY)
    assert nxt is None or nxt.confidence < d.confidence


# --- relation pruning ------------------------------------------------------------------------


def test_pruning_starts_at_the_cap_and_never_touches_protected_types() -> None:
    rows = [
        LinkRow("e1", MemoryRelation.ELABORATES, 0.1, "a", "b"),
        LinkRow("e2", MemoryRelation.RELATED_TO, 0.9, "a", "c"),
        LinkRow("e3", MemoryRelation.SAME_ENTITY, 0.2, "a", "d"),
        LinkRow("e4", MemoryRelation.CO_ACTIVATED, 0.3, "a", "e"),
        LinkRow("e5", MemoryRelation.SUPERSEDES, 0.0, "a", "f"),
        LinkRow("e6", MemoryRelation.CONTRADICTS, 0.0, "a", "g"),
        LinkRow("e7", MemoryRelation.CAUSES, 0.0, "a", "h"),
    ]
    assert prune_victims(1000, rows, 1000, 900, 500) == ([], 0)
    victims, due = prune_victims(1003, rows, 1000, 900, 500)
    assert due == 103 and victims == ["e4", "e2", "e3", "e1"]
    assert prune_victims(1003, rows, 1000, 900, 2)[0] == ["e4", "e2"]
    assert prune_victims(5000, rows, 0, 0, 500) == ([], 0)


# --- topics --------------------------------------------------------------------------------------


def nodes(community: int, names: list[str], memories: int) -> list[CommunityNode]:
    out = [CommunityNode("entity", f"e-{n}", n, community, mentions=10 - i)
           for i, n in enumerate(names)]  # fmt: skip
    out += [
        CommunityNode("memory", f"m{community}-{i}", f"Notes about {names[0]} gardening", community)
        for i in range(memories)
    ]
    return out


def test_topics_keep_communities_of_three_named_by_their_top_terms() -> None:
    graph = nodes(1, ["Rosa", "Tulip"], 4) + nodes(2, ["Piano"], 3) + nodes(3, ["Kyoto"], 2)
    topics = plan_topics("ns", graph)
    assert [t.size for t in topics] == [4, 3]
    # entities by mentions, then content words by frequency (ties alphabetical); "rosa" is taken
    assert topics[0].terms == ("Rosa", "Tulip", "gardening")
    assert topics[0].name == "Rosa, Tulip, gardening"
    assert topics[1].terms[0] == "Piano" and "Piano" in topics[1].summary
    assert topics[0].id == topic_id("ns", reversed(topics[0].members))  # type: ignore[arg-type]
    assert topic_id("ns", ["a"]) != topic_id("other", ["a"])


def test_topic_diff_is_empty_when_nothing_changed() -> None:
    topics = plan_topics("ns", nodes(1, ["Rosa"], 3))
    same = diff_topics(topics, {t.id: t.name for t in topics})
    assert same.empty
    renamed = diff_topics(topics, {topics[0].id: "old name", "gone": "x"})
    assert renamed.rename == topics and renamed.remove == ["gone"] and not renamed.create


WORDS = ["roses", "compost", "tomatoes", "kayak", "river", "violin", "concert", "bread"]


@given(
    st.lists(  # communities: (memory texts, entity names)
        st.tuples(
            st.lists(
                st.lists(st.sampled_from(WORDS), min_size=1, max_size=4), min_size=1, max_size=6
            ),
            st.lists(st.sampled_from(["Ana", "Bo", "Cy", "Di", "Ed"]), max_size=4, unique=True),
        ),
        min_size=1,
        max_size=8,
    ),
    st.integers(0, 3),
    st.integers(1, 6),
)
def test_topics_planned_with_only_the_texts_naming_reads_equal_those_planned_with_all(
    communities: list[tuple[list[list[str]], list[str]]], groups: int, max_topics: int
) -> None:
    """The runner plans without texts, fetches the ones naming read and plans again until it
    reads none it lacks: the tree must be the one every text gives."""
    full: list[CommunityNode] = []
    coarse: dict[str, int] = {}
    for c, (texts, names) in enumerate(communities):
        for i, words in enumerate(texts):
            mid = f"m{c}-{i}"
            full.append(CommunityNode("memory", mid, " ".join(words), c))
            coarse[mid] = (c + i) % (groups + 1)
        full += [CommunityNode("entity", f"e{c}-{n}", n, c, mentions=3) for n in names]
    store = {n.id: n.text for n in full if n.kind == "memory"}

    def tree(nodes: list[CommunityNode], wanted: set[str] | None = None) -> list[TopicPlan]:
        leaves = plan_topics("ns", nodes, max_topics=max_topics, wanted=wanted)
        if len(leaves) >= 3:
            leaves += plan_parents("ns", leaves, nodes, coarse, wanted=wanted)
        return leaves

    assert plan_tree("ns", full, coarse) == plan_topics("ns", full) + (
        plan_parents("ns", plan_topics("ns", full), full, coarse)
        if len(plan_topics("ns", full)) >= 3
        else []
    )
    known: dict[str, str] = {}
    nodes = [replace(n, text="") if n.kind == "memory" else n for n in full]
    while True:
        wanted: set[str] = set()
        planned = tree(nodes, wanted)
        missing = wanted - known.keys()
        if not missing:
            break
        known |= {m: store[m] for m in missing}
        nodes = [replace(n, text=known[n.id]) if n.id in known else n for n in nodes]
    assert planned == tree(full)
    assert set(known) <= set(store)
