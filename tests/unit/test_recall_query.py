"""Query understanding: the pre-retrieval gate (EN + TR), intent router and its strategy
table, multi-query decomposition, template HyDE, and the auto-expansion and namespaces."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from kgmem.core.namespaces import recall_namespaces
from kgmem.errors import InvalidInput
from kgmem.recall.hyde import HydeIntent, classify_hyde_intent, hyde_variants
from kgmem.recall.options import RecallOptions
from kgmem.recall.query import (
    AUTO_EXPAND_THRESHOLD,
    GRAPH,
    HYBRID,
    MAX_SUB_QUERIES,
    STRATEGIES,
    Intent,
    classify_intent,
    decompose,
    should_expand,
    should_skip,
    strategy_for,
)
from kgmem.recall.request import CHANNELS, build_request
from kgmem.taxonomy import Category, MemoryRelation

# --- pre-retrieval gate ------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "reason"),
    [
        ("hi", "greeting"),
        ("Hello!", "greeting"),
        ("hey there", "greeting"),
        ("good morning Claude", "greeting"),
        ("merhaba", "greeting"),  # the TR examples
        ("Selam", "greeting"),
        ("ok", "acknowledgement"),
        ("Sure.", "acknowledgement"),
        ("tamam", "acknowledgement"),
        ("evet", "acknowledgement"),
        ("ok thanks", "acknowledgement"),
        ("sounds good", "acknowledgement"),
        ("got it, thank you", "acknowledgement"),
        ("/help", "slash_command"),
        ("/status", "slash_command"),
        ("/dream now", "slash_command"),
        ("thanks!", "single_word_ack"),
        ("cool", "single_word_ack"),
        ("teşekkürler", "single_word_ack"),
        ("👍", "single_word_ack"),
        ("   ", "empty"),
    ],
)
def test_gate_skips_trivial_messages(text: str, reason: str) -> None:
    assert should_skip(text) == reason


@pytest.mark.parametrize(
    "text",
    [
        "hi, where does my sister work?",
        "What is my favourite colour?",
        "Docker?",
        "ok so what did Ann say about the launch?",
        "/etc/hosts is where the alias lives?",
        "thanks for the tip about Postgres indexes, which one was it?",
    ],
)
def test_gate_lets_real_queries_through(text: str) -> None:
    assert should_skip(text) is None


# --- intent router -----------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("query", "intent"),
    [
        ("Why did the deploy fail?", Intent.CAUSAL),
        ("What caused the outage last week?", Intent.CAUSAL),
        ("When did I move to Oslo?", Intent.TEMPORAL),
        ("Where did Ann work before 2020?", Intent.TEMPORAL),
        ("What food do I like?", Intent.PREFERENCE),
        ("Which editor do I prefer?", Intent.PREFERENCE),
        ("Who is Ann?", Intent.ENTITY_PROFILE),
        ("Tell me about Project Atlas", Intent.ENTITY_PROFILE),
        ("Where does Bob work?", Intent.FACTUAL),
        ("How many kids does Ann have?", Intent.FACTUAL),
        ("deployment notes", Intent.GENERAL),
    ],
)
def test_classify_intent(query: str, intent: Intent) -> None:
    assert classify_intent(query) is intent


def test_strategy_table_is_seed_004s() -> None:
    assert set(STRATEGIES) == set(Intent)
    rows = {i.value: (s.vector_weight, s.fts_weight, s.limit) for i, s in STRATEGIES.items()}
    assert rows == {
        "factual": (0.6, 0.4, 10),
        "temporal": (0.4, 0.6, 15),
        "causal": (0.3, 0.3, 20),
        "entity_profile": (0.5, 0.5, 15),
        "preference": (0.5, 0.5, 10),
        "general": (0.5, 0.5, 10),
    }
    assert STRATEGIES[Intent.FACTUAL].utility_boost == 0.2
    assert STRATEGIES[Intent.ENTITY_PROFILE].utility_boost == 0.3
    assert STRATEGIES[Intent.ENTITY_PROFILE].sort == "utility_desc"
    temporal = STRATEGIES[Intent.TEMPORAL]
    assert temporal.sort == "valid_from_desc" and temporal.include_superseded
    causal = STRATEGIES[Intent.CAUSAL]
    assert causal.graph_hops == 2
    assert causal.relations == {MemoryRelation.CAUSES, MemoryRelation.ELABORATES}
    assert STRATEGIES[Intent.PREFERENCE].categories == frozenset(
        {Category.PREFERENCE, Category.CORRECTION}
    )
    others = [s for i, s in STRATEGIES.items() if i is not Intent.TEMPORAL]
    assert not any(s.include_superseded for s in others)


@pytest.mark.parametrize(
    ("query", "history"),
    [
        ("What time does Leila go to bed?", False),  # a habit held now
        ("When is Mirela's birthday?", False),
        ("When was Dmitri born?", False),  # a date that holds now: a corrected one answers
        ("What time is the meeting scheduled?", False),
        ("When did Caroline go to the support group?", True),
        ("When was the launch moved?", True),
        ("What time did Ravi use to get up before the new job?", True),
    ],
)
def test_a_temporal_question_reads_history_only_about_the_past(query: str, history: bool) -> None:
    strategy = strategy_for(query)
    assert strategy.intent is Intent.TEMPORAL
    assert strategy.include_superseded is history


@pytest.mark.parametrize(
    ("query", "history"),
    [
        ("In what order did I bring up the parts of my budget tracker?", True),
        (
            "Can you list the order in which I brought up my deadlines across our conversations?",
            True,
        ),
        ("What did I tell you about my sister's job?", True),
        ("Which frameworks have we discussed so far?", True),
        ("What topics did I mention throughout our conversations?", True),
        ("Where do I live?", False),  # the present: what holds now
        ("What is my current budget for groceries?", False),
        ("Which restaurant did you recommend?", False),  # not what the user said
    ],
)
def test_a_question_about_what_was_said_reads_history(query: str, history: bool) -> None:
    strategy = strategy_for(query)
    assert strategy.include_superseded is history
    assert strategy.include_expired is history or strategy.intent is Intent.TEMPORAL


def test_each_intent_searches_its_primary_methods_channels() -> None:
    # hybrid = vector + BM25 over memories and turns, the claim holders and the period named;
    # the graph intents add entity + activation
    for intent, strategy in STRATEGIES.items():
        assert set(strategy.channels) <= set(CHANNELS), intent
        if strategy.primary in {"hybrid", "hybrid_filter"}:
            hybrid = ("vector", "fulltext", "episode", "claim", "period")
            assert strategy.channels == HYBRID == hybrid, intent
        else:
            assert strategy.channels == GRAPH, intent
    assert set(GRAPH) == set(CHANNELS)
    assert {i for i, s in STRATEGIES.items() if "entity" in s.channels} == {
        Intent.CAUSAL,
        Intent.ENTITY_PROFILE,
    }


def test_a_request_names_channels_or_leaves_them_to_the_router() -> None:
    assert build_request("where does Ann work?", "ns").channels == ()
    picked = build_request(
        "q", "ns", RecallOptions.parse(channels=["entity", "vector", "entity"])
    ).channels
    assert picked == ("entity", "vector")  # in the caller's order, once each
    for bad in ([], ["telepathy"], "vector", 3, [1]):
        with pytest.raises(InvalidInput, match="channels"):
            RecallOptions.parse(channels=bad)


# --- decomposition -----------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("query", "parts"),
    [
        (
            "Where does Ann work? What does Bob like?",
            ["Where does Ann work?", "What does Bob like?"],
        ),
        (
            "What is my address and also my phone number?",
            ["What is my address", "my phone number?"],
        ),
        ("Where do Ann and Bob work?", ["Where do Ann work?", "Where do Bob work?"]),
        (
            "Where does Ann work and what does Bob like?",
            ["Where does Ann work", "what does Bob like?"],
        ),
    ],
)
def test_decompose_compound_queries(query: str, parts: list[str]) -> None:
    assert decompose(query) == parts


@pytest.mark.parametrize(
    "query",
    [
        "What is the capital of France?",
        "Where does Ann work and where does she live?",  # one entity: not two questions
        "and?",
    ],
)
def test_decompose_leaves_simple_queries_whole(query: str) -> None:
    assert decompose(query) == [query]


def test_decompose_caps_at_four_and_keeps_every_question() -> None:
    query = "Where is Ann? Where is Bob? Where is Cat? Where is Dan? Where is Eve? Where is Fay?"
    parts = decompose(query)
    assert len(parts) == MAX_SUB_QUERIES
    assert all(name in " ".join(parts) for name in ("Ann", "Bob", "Cat", "Dan", "Eve", "Fay"))


@given(st.text(max_size=200))
def test_decompose_always_returns_one_to_four_non_empty_queries(query: str) -> None:
    parts = decompose(query)
    assert 1 <= len(parts) <= MAX_SUB_QUERIES
    assert len({p.lower() for p in parts}) == len(parts)
    if len(parts) == 1:
        assert parts == [query]


# --- HyDE --------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("query", "intent"),
    [
        ("What is Kubernetes?", HydeIntent.DEFINITION),
        ("Kubernetes nedir?", HydeIntent.DEFINITION),
        ("How do I deploy the app?", HydeIntent.HOWTO),
        ("Docker nasıl kurulur?", HydeIntent.HOWTO),
        ("Why did the build fail?", HydeIntent.REASONING),
        ("Where is the config file?", HydeIntent.LOOKUP),
        ("how do I fix this stack trace", HydeIntent.TECHNICAL),
        ("What is my favourite colour?", HydeIntent.PREFERENCE),
        ("my sister", HydeIntent.GENERAL),
    ],
)
def test_classify_hyde_intent(query: str, intent: HydeIntent) -> None:
    assert classify_hyde_intent(query) is intent


def test_hyde_templates_speak_about_the_topic_in_the_third_person() -> None:
    assert hyde_variants("What is Kubernetes?") == [
        "Kubernetes is",
        "Kubernetes refers to",
        "The meaning of Kubernetes is",
    ]
    assert hyde_variants("What food do I like?")[0] == "The user prefers food"
    assert "the user's sister" in hyde_variants("my sister")[0].lower()


@given(st.text(min_size=1, max_size=120), st.sampled_from(list(HydeIntent)))
def test_hyde_gives_two_or_three_distinct_variants(query: str, intent: HydeIntent) -> None:
    variants = hyde_variants(query, intent)
    assert 2 <= len(variants) <= 3
    assert len({v.lower() for v in variants}) == len(variants)
    assert all(v.strip() for v in variants)


def test_hyde_of_a_blank_query_has_no_empty_variant() -> None:
    # found by the property above: the bare "{t}" template of a blank topic used to crash
    variants = hyde_variants(" ", HydeIntent.GENERAL)
    assert 2 <= len(variants) <= 3 and all(v.strip() for v in variants)


# --- expansion and namespaces --------------------------------------------------------


def test_auto_expand_below_a_quarter() -> None:
    assert AUTO_EXPAND_THRESHOLD == 0.25
    assert should_expand(None) and should_expand(0.0) and should_expand(0.2499)
    assert not should_expand(0.25) and not should_expand(0.9)


def test_recall_reads_the_namespace_and_default() -> None:
    assert recall_namespaces("proj") == ("proj", "default")
    assert recall_namespaces("default") == ("default",)
