"""Build large memory stores from real text for scale benchmarks (1k, 10k, 100k memories).

Memories reuse the LoCoMo turn texts (a variant number appended so hashes differ) with their
real embeddings lightly perturbed (Gaussian noise, re-normalised), mention entities drawn from
the names spaCy finds in those texts, and derive from an episode (the turn, as observed) holding
the same text, so every channel — vector, memory and episode fulltext, entity, activation — and
the hydration of a memory's turns have realistic work to do (one episode per memory: a little
more than an observed conversation's ~1.5 memories per turn), marked extracted as an extraction
commits them, so no worker or observe takes the store for a backlog. Rows go in through kgmem's
own write queries, 2,000 per transaction.
"""

from __future__ import annotations

import random
import uuid
from collections.abc import Callable
from datetime import UTC, datetime, timedelta
from typing import Any

from kgmem.core.text import content_hash, normalize_name
from kgmem.graph import repository
from kgmem.ingest.turns.episodes import episode_properties
from kgmem.records import Turn
from kgmem.service import Kgmem

BATCH = 2000
_PARSED: dict[tuple[str, ...], tuple[list[list[float]], list[Any]]] = {}


async def build_store(
    km: Kgmem, namespace: str, size: int, texts: list[str], *, seed: int = 7
) -> float:
    """Write ``size`` memories into ``namespace``; returns the seconds it took."""
    import time

    t0 = time.perf_counter()
    rng = random.Random(seed)
    key = tuple(texts)
    if key not in _PARSED:  # the same texts for every size: embed and parse them once
        _PARSED.clear()
        _PARSED[key] = (km.embedder.embed(texts), list(km.nlp.pipeline().pipe(texts)))
    base, docs = _PARSED[key]
    names = sorted(
        {
            (e.text, e.label_)
            for d in docs
            for e in d.ents
            if e.label_ in ("PERSON", "ORG", "GPE", "LOC", "PRODUCT", "EVENT")
        }
    )
    entity_ids = {n: str(uuid.uuid4()) for n in names}
    now = datetime.now(UTC)
    written_entities: set[str] = set()
    for start in range(0, size, BATCH):
        memories: list[dict[str, Any]] = []
        entities: list[dict[str, Any]] = []
        mentions: list[dict[str, Any]] = []
        episodes: list[dict[str, Any]] = []
        for j in range(start, min(size, start + BATCH)):
            k = j % len(texts)
            vec = [x + rng.gauss(0, 0.015) for x in base[k]]
            norm = sum(x * x for x in vec) ** 0.5
            text = texts[k] if j < len(texts) else f"{texts[k]} (#{j})"
            mid = str(uuid.uuid4())
            at = now - timedelta(days=rng.uniform(0, 365))
            turn = Turn(text, speaker=f"speaker-{k % 2}", at=at, turn_id=f"{namespace}:t{j}")
            episodes.append(episode_properties(namespace, turn, j, now=at))
            memories.append(
                {
                    "key": j,
                    "episode_ids": [episodes[-1]["id"]],
                    "props": {
                        "id": mid,
                        "content": text,
                        "content_hash": content_hash(text),
                        "status": "active",
                        "category": "fact",
                        "type": "fact",
                        "tier": "episodic",
                        "importance": rng.random(),
                        "utility": 0.5,
                        "confidence": 0.8,
                        "source": "human",
                        "source_trust": 1.0,
                        "access_count": rng.randint(0, 5),
                        "stability": 1.0,
                        "created_at": at,
                        "last_accessed": at,
                        "valid_from": at,
                        "recorded_at": at,
                        "embedding": [x / norm for x in vec],
                    },
                }
            )
            for ent in docs[k].ents:
                key = (ent.text, ent.label_)
                if key not in entity_ids:
                    continue
                eid = entity_ids[key]
                if eid not in written_entities:
                    written_entities.add(eid)
                    norm_name = normalize_name(ent.text)
                    entities.append(
                        {
                            "id": eid,
                            "name": ent.text,
                            "normalized_name": norm_name,
                            "type": "person" if ent.label_ == "PERSON" else "other",
                            "first_token": norm_name.split(" ")[0],
                            "at": at,
                            "embedding": None,
                        }
                    )
                mentions.append(
                    {
                        "memory_id": mid,
                        "entity_id": eid,
                        "confidence": 0.8,
                        "at": at,
                        "surface": ent.text,
                        "resolved_by": "exact",
                    }
                )
        # the turns first, as observe stores them, then the memories derived from them, with
        # the turns marked extracted in the same transaction, as an extraction commits them (a
        # worker or an inline observe would otherwise extract the whole store again)
        await repository.create_episodes(km.graph, namespace=namespace, episodes=episodes, now=now)
        await km.graph.write_batch(
            [
                repository.create_memories(namespace=namespace, memories=memories),
                repository.merge_entities(
                    namespace=namespace, entities=entities, mentions=mentions
                ),
                repository.claim_episodes(
                    namespace=namespace,
                    ids=[e["id"] for e in episodes],
                    now=now,
                    engine="synthetic",
                    check=_claimed_all(len(episodes)),
                ),
            ]
        )
    return time.perf_counter() - t0


def _claimed_all(count: int) -> Callable[[list[dict[str, Any]]], None]:
    def check(rows: list[dict[str, Any]]) -> None:
        claimed = int(rows[0]["claimed"]) if rows else 0
        if claimed != count:
            raise RuntimeError(f"synthetic store: {claimed} of {count} turns marked extracted")

    return check
