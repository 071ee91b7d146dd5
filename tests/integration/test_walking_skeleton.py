"""remember → recall on the real stack: right memory for a paraphrase, namespaces isolated."""

from __future__ import annotations

from typing import Any

import pytest

from kgmem.errors import InvalidInput
from kgmem.service import Kgmem


def test_paraphrased_query_finds_the_memory(km: Kgmem, arun: Any, namespace: str) -> None:
    facts = [
        "Alice Johnson works as a data engineer at Acme Corp in Berlin.",
        "The quarterly budget review is scheduled for the first Monday of March.",
        "Bob prefers green tea over coffee in the morning.",
        "Our team migrated the billing service from MySQL to PostgreSQL last year.",
    ]
    for fact in facts:
        receipt = arun(km.remember(fact, namespace=namespace))
        assert receipt.action == "created"
    hits = arun(km.recall("What does Bob like to drink?", namespace=namespace, limit=3)).hits
    assert hits[0].content == facts[2]
    hits = arun(
        km.recall("which database does billing run on now", namespace=namespace, limit=3)
    ).hits
    assert hits[0].content == facts[3]


def test_entities_are_linked(km: Kgmem, arun: Any, namespace: str) -> None:
    receipt = arun(km.remember("Alice Johnson joined Acme Corp in Paris.", namespace=namespace))
    assert set(receipt.entities) >= {"Alice Johnson", "Acme Corp", "Paris"}
    from kgmem.graph import repository

    row = arun(repository.get_memory(km.graph, namespace=namespace, memory_id=receipt.memory_id))
    assert row is not None
    assert set(row["entities"]) >= {"Alice Johnson", "Acme Corp", "Paris"}


def test_exact_duplicate_reinforces(km: Kgmem, arun: Any, namespace: str) -> None:
    first = arun(km.remember("Carol lives in Lisbon.", namespace=namespace))
    again = arun(km.remember("  carol lives in lisbon ", namespace=namespace))
    assert again.action == "reinforced"
    assert again.memory_id == first.memory_id


def test_other_namespace_sees_nothing(km: Kgmem, arun: Any, namespace: str) -> None:
    arun(km.remember("Dave's locker code is 4417.", namespace=namespace))
    other = namespace + "-other"
    try:
        arun(km.remember("Erin likes sailing.", namespace=other))
        hits = arun(km.recall("locker code", namespace=other, limit=10)).hits
        assert all("4417" not in h.content for h in hits)
        assert [h.content for h in hits] == ["Erin likes sailing."]
    finally:
        arun(km.wipe_namespace(other))


@pytest.mark.parametrize("bad", ["", "   ", "x" * 8193, 42, None])
def test_bad_text_writes_nothing(km: Kgmem, arun: Any, namespace: str, bad: object) -> None:
    with pytest.raises(InvalidInput):
        arun(km.remember(bad, namespace=namespace))  # type: ignore[arg-type]
    assert arun(km.recall("anything at all", namespace=namespace)).hits == ()
