"""Property: re-observing any batch of turns changes nothing (real Neo4j, real models)."""

from __future__ import annotations

import uuid
from datetime import UTC, datetime, timedelta
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from kgmem.graph import repository
from kgmem.records import Turn
from kgmem.service import Kgmem

T0 = datetime(2024, 1, 15, 10, tzinfo=UTC)
POOL = [
    Turn("I started learning the violin last month.", speaker="Ana", at=T0),
    Turn("My cousin Pedro works at Globex in Lisbon.", speaker="Ana", at=T0),
    Turn("Actually, Pedro moved to Porto in March.", speaker="Ana", at=T0 + timedelta(days=2)),
    Turn("I prefer trains over planes for short trips.", speaker="Ben", at=T0),
    Turn("We decided to host the reunion on June 3rd.", speaker="Ben", at=T0),
    Turn("Wow, that's great!", speaker="Ana", at=T0),
    Turn("My dog Luna turned 4 yesterday!", speaker="Ben", at=T0 + timedelta(days=1)),
]


@settings(
    max_examples=6,
    deadline=None,
    derandomize=True,
    suppress_health_check=[HealthCheck.function_scoped_fixture],
)
@given(st.lists(st.sampled_from(range(len(POOL))), min_size=1, max_size=5, unique=True))
def test_reobserving_a_batch_changes_nothing(km: Kgmem, arun: Any, picks: list[int]) -> None:
    ns = f"p-{uuid.uuid4().hex[:10]}"
    batch = [POOL[i] for i in picks]
    try:
        arun(km.observe(batch, namespace=ns, flush=True))
        before = arun(km.stats(namespace=ns))
        mems = arun(repository.find_memories(km.graph, namespace=ns, statuses=None, limit=100))
        arun(km.observe(batch, namespace=ns, flush=True))
        assert arun(km.stats(namespace=ns)) == before
        again = arun(repository.find_memories(km.graph, namespace=ns, statuses=None, limit=100))
        assert again == mems
    finally:
        arun(km.wipe_namespace(ns))
