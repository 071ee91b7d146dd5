"""A turn that also gave a retired fact matches for its other memories at a share of its score
(the episode channel, on the real stack): the words that matched may be the retired ones."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from typing import Any

from kgmem.graph import index_search, repository
from kgmem.graph.index_search import RETIRED_TURN_SHARE
from kgmem.recall.lucene import QUESTION_WORDS, to_lucene
from kgmem.records import Turn
from kgmem.service import Kgmem

T0 = datetime(2024, 3, 1, 9, tzinfo=UTC)


def test_a_turn_that_gave_a_retired_fact_lends_its_siblings_a_share(
    km: Kgmem, arun: Any, namespace: str
) -> None:
    turns = [
        Turn(
            "Our API's p95 latency is 340 ms. I'm a backend engineer at Shopify.",
            speaker="Noah",
            at=T0,
            turn_id="t1",
        ),
        Turn(
            "We got p95 down to 180 ms after the caching work.",
            speaker="Noah",
            at=T0 + timedelta(days=20),
            turn_id="t2",
        ),
    ]
    arun(km.observe(turns, namespace=namespace, flush=True, now=turns[-1].at))
    rows = arun(repository.find_memories(km.graph, namespace=namespace, statuses=None, limit=50))
    status = {r["content"]: r["status"] for r in rows}
    assert any("340" in c and s == "superseded" for c, s in status.items()), status
    sibling = next(r["id"] for r in rows if "Shopify" in r["content"])

    lucene = to_lucene("p95 latency at Shopify", frozenset(), 1.0, QUESTION_WORDS)
    assert lucene is not None
    kw: dict[str, Any] = {"namespace": namespace, "query": lucene, "k": 50, "limit": 50}

    def score(share: float) -> float:
        _, episode = arun(
            index_search.search_text_memories(
                km.graph, memory=False, retired_turn_share=share, **kw
            )
        )
        return next(h.score for h in episode or [] if getattr(h, "id", None) == sibling)

    full = score(1.0)
    assert score(RETIRED_TURN_SHARE) == RETIRED_TURN_SHARE * full < full
