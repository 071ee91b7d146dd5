"""Pseudo-relevance feedback on the real stack: the second text search finds what the first
pass's top memories say beyond the question's words, in this namespace only."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from typing import Any

from kgmem.graph import repository
from kgmem.recall import request
from kgmem.recall.channels import StageClock, run_channels
from kgmem.recall.feedback import refine
from kgmem.recall.options import RecallOptions
from kgmem.recall.profiles import get_profile
from kgmem.service import Kgmem

T0 = datetime(2024, 5, 1, 9, tzinfo=UTC)
FACTS = [
    "Priya adopted a greyhound called Biscuit from the Hayward rescue.",
    "Biscuit the greyhound chews slippers every morning.",
    "Marco repaired the old bicycle in the garage.",
    "Anika studies medicine in Munich.",
]


def test_feedback_search_replaces_the_text_lists_with_the_expanded_query(
    km: Kgmem, arun: Any, namespace: str
) -> None:
    for i, fact in enumerate(FACTS):
        arun(km.remember(fact, namespace=namespace, now=T0 + timedelta(hours=i)))
    other = f"{namespace}-other"
    arun(km.remember(FACTS[1], namespace=other, now=T0))
    rows = arun(repository.find_memories(km.graph, namespace=namespace, statuses=None, limit=10))
    chews = next(r["id"] for r in rows if "slippers" in r["content"])
    req = request.build_request(
        "Which dog did Priya adopt from the rescue?",
        namespace,
        RecallOptions.parse(
            profile="precise",
            channels=["vector", "fulltext", "episode"],  # the factual intent's (engine routes)
        ),
    )
    ev, rankings, _, _ = arun(
        run_channels(km.graph, km.embedder, km.nlp, req, [req.query], StageClock())
    )
    before = dict(rankings)
    assert chews not in before["fulltext"]  # it shares no word with the question
    run = StageClock()
    arun(refine(km.graph, req, get_profile("precise"), ev, rankings, run))
    after = dict(rankings)
    assert sorted(after) == sorted(before)  # one list per channel, as before
    assert chews in after["fulltext"]  # found through "greyhound" / "Biscuit"
    assert ev[chews].ranks["fulltext"][0] == after["fulltext"].index(chews) + 1
    assert ev[chews].bm25 is not None
    assert "find_memory_contents" in run.queries
    mine = {r["id"] for r in rows}
    assert set(after["fulltext"]) <= mine and set(after["episode"]) <= mine
    arun(km.wipe_namespace(other))
