"""Relevance first on the real stack (Neo4j, spaCy, the embedder): the memory that answers the
question wins, whatever was stored first or recalled most, and hits show the score they were
ranked by.

The two cases a new user met: five remembered lines where "What is Bob's phone number?" put
Alice's number first (stored first, so "novel", so important), and an unrelated memory ("Leo
moved to Seattle") that rose for a question about milk after a few non-dry recalls returned it.
"""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from typing import Any

from kgmem.graph import repository
from kgmem.recall.profiles import get_profile
from kgmem.recall.scoring import history_bound
from kgmem.recall.xray import check_additive
from kgmem.records import Turn
from kgmem.service import Kgmem

FIVE_LINES = (
    "Alice's phone number is 555-1234.",
    "Bob's phone number is 555-9876.",
    "Maya prefers oat milk.",
    "Leo moved to Seattle.",
    "The team meeting is on Tuesdays.",
)


def _remember_all(km: Kgmem, arun: Any, namespace: str) -> dict[str, str]:
    ids = {}
    for line in FIVE_LINES:  # one at a time, in this order: Alice's number is stored first
        receipt = arun(km.remember(line, namespace=namespace))
        assert receipt.action == "created", (line, receipt.action)
        ids[line] = receipt.memory_id
    return ids


def _importance(km: Kgmem, arun: Any, namespace: str, memory_id: str) -> float:
    mem = arun(repository.get_memory(km.graph, namespace=namespace, memory_id=memory_id))
    assert mem is not None
    return float(mem["memory"]["importance"])


def test_bobs_phone_number_comes_first_for_bob(km: Kgmem, arun: Any, namespace: str) -> None:
    ids = _remember_all(km, arun, namespace)
    alice, bob = ids[FIVE_LINES[0]], ids[FIVE_LINES[1]]
    for query, first in (
        ("What is Bob's phone number?", bob),
        ("What is Alice's phone number?", alice),
    ):
        result = arun(km.recall(query, namespace=namespace))  # the default: balanced, not dry
        assert result.hits[0].memory_id == first, [h.content for h in result.hits]
    # two parallel facts about two people: equally novel, so equally important
    assert _importance(km, arun, namespace, bob) == _importance(km, arun, namespace, alice)
    # what is shown is what is ranked: scores fall in hit order, and the X-ray adds up to them
    result = arun(km.recall("What is Bob's phone number?", namespace=namespace, dry=True))
    scores = [h.score for h in result.hits]
    assert scores == sorted(scores, reverse=True) and len(scores) >= 2
    for hit, explain in zip(result.hits, result.xray.hits, strict=True):
        assert explain.memory_id == hit.memory_id and explain.final_score == hit.score
        assert check_additive(explain) and "redundancy" in explain.contributions


def _composite(result: Any, memory_id: str) -> tuple[int, float]:
    """A hit's rank and its score before MMR's redundancy penalty (the X-ray's components)."""
    for rank, explain in enumerate(result.xray.hits):
        if explain.memory_id == memory_id:
            return rank, explain.final_score - explain.contributions["redundancy"]
    raise AssertionError(f"{memory_id} is not among the hits")


def test_recalling_leo_does_not_lift_him_for_a_question_about_milk(
    km: Kgmem, arun: Any, namespace: str
) -> None:
    ids = _remember_all(km, arun, namespace)
    leo, milk = ids["Leo moved to Seattle."], ids["Maya prefers oat milk."]
    question = "What milk does Maya like?"
    before = arun(km.recall(question, namespace=namespace, dry=True))
    assert before.hits[0].memory_id == milk
    leo_rank, leo_score = _composite(before, leo)
    for query in ("Where did Leo move?", "Who moved to Seattle?", "Where does Leo live now?") * 2:
        result = arun(km.recall(query, namespace=namespace, limit=1))  # not dry: Leo is touched
        assert result.hits[0].memory_id == leo
    mem = arun(repository.get_memory(km.graph, namespace=namespace, memory_id=leo))
    assert mem is not None and mem["memory"]["access_count"] == 6
    after = arun(km.recall(question, namespace=namespace, dry=True))
    assert after.hits[0].memory_id == milk
    rank_after, score_after = _composite(after, leo)
    assert rank_after >= leo_rank  # Leo does not rise
    # six accesses moved Leo's score by no more than what recalls can change (history_bound)
    assert score_after <= leo_score * history_bound(get_profile())
    assert score_after < _composite(after, milk)[1]


def test_the_users_own_name_does_not_answer_what_is_asked_about_them(
    km: Kgmem, arun: Any, namespace: str
) -> None:
    # an agent's user, sent with no name, introduces themselves: "User is Tomas." shares the
    # subject with every question about the user, and being short it won every channel
    at = datetime(2025, 3, 1, 10, tzinfo=UTC)
    turns = [
        "Hi! I'm Tomas. I work as a data analyst at a logistics company.",
        "Big news: I moved to Lisbon last week, the new flat is near the river.",
    ]
    arun(km.observe(
        [Turn(text=t, role="user", at=at + timedelta(days=i)) for i, t in enumerate(turns)],
        namespace=namespace, flush=True,
    ))  # fmt: skip
    result = arun(km.recall("Where does the user live?", namespace=namespace, dry=True))
    assert "Lisbon" in result.hits[0].content, [h.content for h in result.hits]
    named = [x for x in result.xray.hits if x.contributions.get("names_only", 0.0) < 0.0]
    assert named and all("Tomas" in x.content for x in named)
    # asked about the name, the same memory answers
    for asked in ("Who is the user?", "What is the user's name?"):
        who = arun(km.recall(asked, namespace=namespace, dry=True))
        assert "Tomas" in who.hits[0].content, (asked, [h.content for h in who.hits])
        assert "names_only" not in who.xray.hits[0].contributions
