"""The entity channel's bound: a hub entity contributes only its ``limit`` best memories as
candidates, yet every single-entity answer is the exhaustive one's and every score is exact."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from typing import Any

from kgmem.graph import repository
from kgmem.records import Turn
from kgmem.service import Kgmem

T0 = datetime(2024, 4, 1, 9, tzinfo=UTC)
HOBBIES = [
    "pottery", "rowing", "chess", "salsa", "birdwatching", "baking", "climbing", "knitting",
    "fencing", "sailing", "archery", "origami",
]  # fmt: skip


def _search(km: Kgmem, arun: Any, ns: str, names: list[str], limit: int) -> list[Any]:
    return list(
        arun(
            repository.search_entity_memories(
                km.graph, namespace=ns, names=names, query="", hops=2, limit=limit
            )
        )
    )


def test_a_hub_entity_is_bounded_without_changing_the_answer(
    km: Kgmem, arun: Any, namespace: str
) -> None:
    at = [T0 + timedelta(minutes=i) for i in range(len(HOBBIES))]
    turns = [
        Turn(f"Priya Raman took up {h} in Lisbon this spring.", speaker="Eva", at=t)
        for h, t in zip(HOBBIES, at, strict=True)
    ] + [
        Turn("Priya Raman and Marco Bellini opened a bakery together.", speaker="Eva",
             at=T0 + timedelta(hours=1)),
        Turn("Marco Bellini restores old motorbikes.", speaker="Eva", at=T0 + timedelta(hours=2)),
    ]  # fmt: skip
    arun(km.observe(turns, namespace=namespace, flush=True))
    everything = _search(km, arun, namespace, ["priya raman"], 1000)
    assert len(everything) >= 10  # a hub: more mentions than the bounded call's limit
    for limit in (1, 3, 5):
        assert _search(km, arun, namespace, ["priya raman"], limit) == everything[:limit]
    both = ["marco bellini", "priya raman"]
    exact = {r["id"]: r["score"] for r in _search(km, arun, namespace, both, 1000)}
    bounded = _search(km, arun, namespace, both, 3)
    assert len(bounded) == 3
    for row in bounded:  # scored over every matched entity, not only the list it came from
        assert abs(row["score"] - exact[row["id"]]) < 1e-9
    shared = max(exact, key=lambda i: exact[i])  # the memory naming both ranks first
    assert bounded[0]["id"] == shared and exact[shared] > min(exact.values())
