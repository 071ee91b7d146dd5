"""The scale benchmarks' store builder on the real stack: every memory derives from an episode
holding its turn, so the episode channel and the hydration of turns have work to do, and the
turns are marked extracted, as an extraction commits them."""

from __future__ import annotations

from typing import Any

from benchmarks.common.synth import build_store
from kgmem.graph import repository
from kgmem.service import Kgmem

TEXTS = [
    "Melanie ran a charity race for mental health last Saturday.",
    "Caroline went to an LGBTQ support group in Boston.",
    "Melanie is painting a sunset over the lake.",
]


def test_built_memories_derive_from_episodes_the_episode_channel_finds(
    km: Kgmem, arun: Any, namespace: str
) -> None:
    arun(build_store(km, namespace, 7, TEXTS))
    rows = arun(repository.find_memories(km.graph, namespace=namespace, statuses=None, limit=20))
    assert len(rows) == 7
    ids = [r["id"] for r in rows]
    cands = arun(repository.get_recall_candidates(km.graph, namespace=namespace, ids=ids))
    assert len(cands) == 7
    for c in cands:  # one source turn each, its own text (variants carry their number)
        assert [t.turn.startswith(f"{namespace}:t") for t in c.turns] == [True]
    hits = arun(
        km.recall("charity race", namespace=namespace, dry=True, channels=["episode"], limit=5)
    )
    assert hits.hits and all("charity race" in h.content for h in hits.hits)
    assert {c.channel for h in hits.hits for c in h.channels} == {"episode"}


def test_built_turns_are_extracted_so_no_worker_takes_the_store_for_a_backlog(
    km: Kgmem, arun: Any, namespace: str
) -> None:
    arun(build_store(km, namespace, 5, TEXTS))
    pending = arun(repository.get_pending_summary(km.graph, namespace=namespace))
    assert int(pending["pending"]) == 0
    assert arun(km.extract_pending(namespace=namespace)).episodes == 0
