"""Hydrating part of the pool early (while the embedding runs) gives what one read gave.

``hydrate`` with a ``Prefetch`` reads only the pool ids not read early and merges the early rows
into the final statement's order, with the final statement's co-activation. Each test compares
it with the one-statement read on the real stack: candidates (fields, order, co-activation among
the whole pool, embeddings), turn order and ``recorded_at``; early rows outside the pool must
leave no trace, and the channel hook must hand over exactly the text searches' lists.
"""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from typing import Any

import numpy as np
import pytest

from kgmem.graph import repository
from kgmem.graph.client import Row
from kgmem.recall import channels as searches
from kgmem.recall import request
from kgmem.recall.filters import Evidence
from kgmem.recall.hydration import Hydrated, Prefetch, hydrate
from kgmem.recall.query import decompose
from kgmem.records import Turn
from kgmem.service import Kgmem

T0 = datetime(2024, 5, 1, 9, tzinfo=UTC)
FACTS = [
    "Lena keeps bees on the roof of her flat in Vienna.",
    "Tomas fixed Lena's bicycle and rode it to the lake.",
    "Lena sells the honey at the Saturday market.",
    "Tomas bakes rye bread on Sundays for the market.",
    "The market moved to the old tram depot in June.",
    "Lena's bees swarmed during the thunderstorm.",
]


@pytest.fixture
def store(km: Kgmem, arun: Any, namespace: str) -> str:
    for i, fact in enumerate(FACTS):
        arun(km.remember(fact, namespace=namespace, now=T0 + timedelta(hours=i)))
    turns = [
        Turn("The bees made forty jars of honey this year.", speaker="Lena", at=T0, turn_id="t1"),
        Turn("Tomas, the market stall needs a new awning.", speaker="Lena", at=T0, turn_id="t2"),
    ]
    arun(km.observe(turns, namespace=namespace, flush=True))
    for q in ("Lena and Tomas at the market", "bees honey market"):  # co-activation edges
        arun(km.recall(q, namespace=namespace))
    return namespace


def _read(km: Kgmem, arun: Any, ns: str, ids: list[str], early: list[str] | None) -> Hydrated:
    prefetch = None
    if early is not None:
        prefetch = Prefetch(km.graph, ns, depth=len(early))
        arun(prefetch.read([[{"id": i, "score": 1.0} for i in early]]))
    ev = {i: Evidence(vector=0.7) for i in ids}
    return arun(
        hydrate(
            km.graph,
            query="Who sells honey at the market?",
            namespace=ns,
            ids=ids,
            ev=ev,
            rrf_of={i: 0.01 for i in ids},
            q_entities=frozenset({"lena"}),
            early=prefetch,
        )
    )


def test_an_early_part_hydrates_as_one_read(km: Kgmem, arun: Any, store: str) -> None:
    memories = arun(repository.find_memories(km.graph, namespace=store, statuses=None, limit=100))
    ids = [m["id"] for m in memories]
    assert len(ids) >= 6
    whole = _read(km, arun, store, ids, None)
    assert max(c.co_activation for c in whole.cands) > 0, "the store must hold co-activation"
    outside = ids[-1]  # read early, then left out of the pool
    pool = ids[:-1]
    alone = _read(km, arun, store, pool, None)
    splits = [ids[::2], ids[1::2], ids[:2], ids, [], [outside, "no-such-id"]]
    for early in splits:
        got = _read(km, arun, store, pool, early)
        assert got.cands == alone.cands  # fields, order, co-activation among the pool
        for a, b in zip(got.cands, alone.cands, strict=True):
            assert np.array_equal(np.asarray(a.embedding), np.asarray(b.embedding))
        assert got.turns == alone.turns and list(got.turns) == list(alone.turns)
        assert got.recorded == alone.recorded
        assert outside not in got.turns and outside not in {c.id for c in got.cands}


def test_the_channel_hook_gets_the_text_lists(km: Kgmem, arun: Any, store: str) -> None:
    req = request.build_request("Where does Lena sell honey?", store, channels=request.CHANNELS)
    subs = decompose(req.query)
    seen: list[list[list[Row]]] = []

    async def early(lists: list[list[Row]]) -> None:
        seen.append(lists)

    run = searches.StageClock()
    _, rankings, _, _ = arun(
        searches.run_channels(km.graph, km.embedder, km.nlp, req, subs, run, early)
    )
    assert len(seen) == 1
    texts = [ids for name, ids in rankings if name.startswith(("fulltext", "episode"))]
    assert [[r["id"] for r in rows] for rows in seen[0]] == texts and texts[0]
