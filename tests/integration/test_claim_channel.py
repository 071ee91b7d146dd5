"""Recall's claim channel on the real embedder and Neo4j: a question about an attribute reads its
slot from the question prototypes and finds who holds the slot now; a question about an event
reads no slot; a superseded value is never lifted by the channel."""

from __future__ import annotations

from datetime import datetime
from typing import Any

import pytest

from kgmem.ml.embedder import Embedder
from kgmem.recall.claim_channel import query_slot, table_for
from kgmem.records import Turn
from kgmem.service import Kgmem
from kgmem.settings import Settings
from kgmem.taxonomy.slots import Slot


@pytest.fixture(scope="module")
def embedder() -> Embedder:
    return Embedder(Settings())


@pytest.mark.parametrize(
    ("question", "slot"),
    [
        ("How old is Ana?", Slot.AGE),
        ("Where does Jon live?", Slot.RESIDENCE),
        ("What car does Ana drive?", Slot.POSSESSION),
        ("What pets does Melanie have?", Slot.PET),
        ("What languages does Tim speak?", Slot.LANGUAGE),
        ("How much have I set aside for the wedding?", Slot.BUDGET),
        # read by their wording: the names weigh the embedding's guess below the bar
        ("Where does Maya work?", Slot.EMPLOYER),
        ("Who does Priya Shah work for now?", Slot.EMPLOYER),
        ("What does Maya do for a living?", Slot.JOB_TITLE),
        ("What is Dmitri's role?", Slot.JOB_TITLE),
        ("What is Noor's position at the hospital?", Slot.JOB_TITLE),
        ("Where is Ethan based?", Slot.RESIDENCE),
        ("Which university does Pavel go to?", Slot.SCHOOL),
        ("Where is Emeka studying?", Slot.SCHOOL),
        ("What is Jamal studying?", Slot.FIELD_OF_STUDY),
        ("Is Chloé seeing anyone?", Slot.RELATIONSHIP_STATUS),
        ("Does Dmitri still smoke?", Slot.HABIT),
        ("What does Robert go by?", Slot.NICKNAME),
        ("What sport does Yuki play?", Slot.HOBBY),
    ],
)
def test_a_question_about_an_attribute_reads_its_slot(
    embedder: Embedder, question: str, slot: Slot
) -> None:
    guess = query_slot(question, embedder.embed_query([question])[0], table_for(embedder))
    assert guess is not None and guess.slot is slot, guess


@pytest.mark.parametrize(
    "question",
    [
        "When did Caroline go to the support group?",
        "What did Jon say about the movie?",
        "Why did Ana leave the party early?",
        "How did Maya feel after the race?",
        "Where did Maya work out this morning?",
        "What did Maya study for the exam last night?",
        "Who was Maya with at the concert?",
    ],
)
def test_a_question_about_an_event_reads_no_slot(embedder: Embedder, question: str) -> None:
    vector = embedder.embed_query([question])[0]
    assert query_slot(question, vector, table_for(embedder)) is None


def _turn(text: str, turn_id: str, at: str) -> Turn:
    return Turn(text, speaker="Ana", turn_id=turn_id, at=datetime.fromisoformat(at))


ANA = [
    _turn("I'm 28 and I live in Porto.", "1", "2024-01-05T10:00:00+00:00"),
    _turn("I drive an old Fiat Panda to work.", "2", "2024-01-05T10:01:00+00:00"),
    _turn("I'm 29.", "3", "2025-01-06T09:00:00+00:00"),
]


def test_the_channel_ranks_the_current_holder_first(km: Kgmem, arun: Any, namespace: str) -> None:
    arun(km.observe(ANA, namespace=namespace, flush=True))
    result = arun(km.recall("How old is Ana?", namespace=namespace, dry=True))
    assert "search_claim_holders" in result.xray.queries_run
    assert result.hits[0].content == "Ana is 29.", [h.content for h in result.hits]
    claim_hits = [h.content for h in result.hits if any(c.channel == "claim" for c in h.channels)]
    assert claim_hits == ["Ana is 29."]  # the superseded "28" is not read by the channel
    event = arun(km.recall("Why did Ana leave the party early?", namespace=namespace, dry=True))
    assert "search_claim_holders" not in event.xray.queries_run


def test_the_channel_reads_the_person_asked_about_not_their_kin(
    km: Kgmem, arun: Any, namespace: str
) -> None:
    turns = [
        _turn("I have a cat called Mochi.", "1", "2024-01-05T10:00:00+00:00"),
        _turn("My brother just adopted a puppy named Rocket.", "2", "2024-02-05T10:00:00+00:00"),
    ]
    arun(km.observe(turns, namespace=namespace, flush=True))
    result = arun(km.recall("What pet does Ana have?", namespace=namespace, dry=True))
    claim_hits = [h.content for h in result.hits if any(c.channel == "claim" for c in h.channels)]
    assert claim_hits == ["Ana has a cat called Mochi."], [h.content for h in result.hits]


def test_the_user_asked_about_is_the_unnamed_speaker_and_a_named_one_when_none_is(
    km: Kgmem, arun: Any, namespace: str
) -> None:
    turns = [
        Turn("I have a cat called Mochi.", at=datetime.fromisoformat("2024-01-05T10:00:00+00:00")),
        Turn(
            "My brother just adopted a puppy named Rocket.",
            at=datetime.fromisoformat("2024-02-05T10:00:00+00:00"),
        ),
    ]
    arun(km.observe(turns, namespace=namespace, flush=True))
    result = arun(km.recall("What pet does the user have?", namespace=namespace, dry=True))
    claim_hits = [h.content for h in result.hits if any(c.channel == "claim" for c in h.channels)]
    assert claim_hits == ["The user has a cat called Mochi."], [h.content for h in result.hits]
    named = f"{namespace}-named"
    try:
        arun(km.observe(ANA[:1], namespace=named, flush=True))
        result = arun(km.recall("How old is the user?", namespace=named, dry=True))
    finally:
        arun(km.wipe_namespace(named))
    claim_hits = [h.content for h in result.hits if any(c.channel == "claim" for c in h.channels)]
    assert claim_hits and all("Ana" in c for c in claim_hits), [h.content for h in result.hits]


def test_an_ending_said_with_a_new_value_leaves_the_new_value_to_answer(
    km: Kgmem, arun: Any, namespace: str
) -> None:
    turns = [
        _turn("I'm learning Spanish on Duolingo every evening.", "1", "2024-01-05T10:00:00+00:00"),
        _turn(
            "I dropped Spanish and switched to Japanese because of my trip to Tokyo.",
            "2",
            "2024-02-15T10:00:00+00:00",
        ),
    ]
    arun(km.observe(turns, namespace=namespace, flush=True))
    result = arun(km.recall("Which language is Ana learning?", namespace=namespace, dry=True))
    contents = [h.content for h in result.hits]
    claim_hits = [h.content for h in result.hits if any(c.channel == "claim" for c in h.channels)]
    assert claim_hits and all("Japanese" in c for c in claim_hits), contents
    assert "Japanese" in contents[0], contents
