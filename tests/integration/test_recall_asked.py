"""What a question asks, on the real embedder and Neo4j. A question that names a day: the memories
said that day come first although other days' talk matches its words as well or better, the
period channel reads that day's memories, and a question that names no date is ranked as before.
A question that asks when, or how many: the memory that states a date, or a number, comes before
the ones that only share its topic, and a question that asks for neither is ranked as before."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from kgmem.records import Turn
from kgmem.service import Kgmem


def _turn(text: str, turn_id: str, at: str) -> Turn:
    return Turn(text, speaker="Caroline", turn_id=turn_id, at=datetime.fromisoformat(at))


PAINTING = [
    _turn("I painted a sunset over the lake with bright orange paint.", "1", "2023-08-20T10:00"),
    _turn("I painted a big abstract painting for the art show.", "2", "2023-09-02T11:00"),
    _turn("Today I finished a small picture of my dog in the garden.", "3", "2023-10-13T09:30"),
    _turn("I painted another sunset painting, this time over the sea.", "4", "2023-11-05T16:00"),
]


def test_the_day_asked_about_comes_first(km: Kgmem, arun: Any, namespace: str) -> None:
    arun(km.observe(PAINTING, namespace=namespace, flush=True))
    asked = "What did Caroline paint on 13 October, 2023?"
    result = arun(km.recall(asked, namespace=namespace, dry=True))
    assert "search_period_memories" in result.xray.queries_run
    assert "period" in result.xray.channels
    first = result.hits[0]
    assert "dog" in first.content, [h.content for h in result.hits]
    assert any(c.channel == "period" for c in first.channels)
    explain = result.xray.hits[0]
    assert explain.factors["time_boost"] == 1.0 and explain.contributions["time_boost"] == 0.2
    others = [x for x in result.xray.hits[1:] if "dog" not in x.content]
    assert others and all(x.factors["time_boost"] == 0.0 for x in others)
    # the same question without its date: the day is no evidence, and nothing is read by time
    undated = arun(km.recall("What did Caroline paint?", namespace=namespace, dry=True))
    assert "search_period_memories" not in undated.xray.queries_run
    assert all(x.factors["time_boost"] == 0.0 for x in undated.xray.hits)
    assert "dog" not in undated.hits[0].content


def test_a_month_is_boosted_but_not_read_in_full(km: Kgmem, arun: Any, namespace: str) -> None:
    arun(km.observe(PAINTING, namespace=namespace, flush=True))
    result = arun(
        km.recall("What did Caroline paint in November 2023?", namespace=namespace, dry=True)
    )
    assert "search_period_memories" not in result.xray.queries_run
    assert "sea" in result.hits[0].content, [h.content for h in result.hits]
    assert result.xray.hits[0].factors["time_boost"] == 1.0


GROUP = [
    _turn("The support group has made me feel so accepted and welcome.", "1", "2023-05-20T10:00"),
    _turn("I went to the LGBTQ support group yesterday.", "2", "2023-05-08T11:00"),
    _turn("The support group people are the kindest I know.", "3", "2023-06-02T09:30"),
    _turn("I have two cats and a rescue dog at home.", "4", "2023-06-03T09:30"),
    _turn("My cats love sleeping on the sofa all day.", "5", "2023-06-04T09:30"),
]


def test_a_when_question_finds_the_dated_memory(km: Kgmem, arun: Any, namespace: str) -> None:
    arun(km.observe(GROUP, namespace=namespace, flush=True))
    asked = "When did Caroline go to the support group?"
    result = arun(km.recall(asked, namespace=namespace, dry=True))
    first = result.xray.hits[0]
    assert "(2023-05-07)" in first.content, [h.content for h in result.hits]
    assert first.factors["answer_boost"] == 1.0 and first.contributions["answer_boost"] == 0.15
    undated = [
        x for x in result.xray.hits if "support group" in x.content and "2023" not in x.content
    ]
    assert undated and all(x.factors["answer_boost"] == 0.0 for x in undated)
    other = arun(
        km.recall("What does Caroline think of the support group?", namespace=namespace, dry=True)
    )
    assert all(x.factors["answer_boost"] == 0.0 for x in other.xray.hits)


def test_a_how_many_question_finds_the_number(km: Kgmem, arun: Any, namespace: str) -> None:
    arun(km.observe(GROUP, namespace=namespace, flush=True))
    result = arun(km.recall("How many cats does Caroline have?", namespace=namespace, dry=True))
    assert "two cats" in result.hits[0].content, [h.content for h in result.hits]
    assert result.xray.hits[0].factors["answer_boost"] == 1.0
