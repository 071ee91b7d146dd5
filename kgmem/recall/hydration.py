"""Candidate hydration: the fused pool's ids read back as scoring candidates, with their turns.

``Prefetch.read`` runs as soon as a recall's text searches have answered (``run_channels``'s
``early`` hook), while the query embedding and the vector search are still under way: it reads
the top ``depth`` ids of each text list (``get_recall_candidates``), which make ~99 % of the rows
read and ~70 % of the final pool at 100k (measured: benchmarks/RESULTS.md, "Recall latency").
``hydrate`` then reads, in one statement, the fields of the fused pool's ids not read early and,
for the whole pool, its order (the server's, as if the pool had been read at once) and each
candidate's co-activation among the whole pool; it merges the early rows into that order, and
drops the early rows that did not make the pool, so they reach no hit, X-ray or turn statistic.
It turns each row and its channel evidence into a ``Candidate`` (the embeddings converted once,
as rows of one matrix: ``diversity.embedding_rows``), orders each memory's source turns by
relevance to the query (word rarity and shared entity words are counted over the whole pool),
and keeps each memory's ``recorded_at`` for the bi-temporal filter.

The early rows are read a few milliseconds before the rest, by another statement, so a recall is
no longer one snapshot of its candidates. That is acceptable: each statement already read its
own instant (the searches too), recall's only write (the touch of its hits) comes after both
reads, and a write that lands between them is one that a recall started a few ms later would
have seen in full; co-activation, the one field that relates candidates, is read whole in the
final statement.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from kgmem.graph import repository
from kgmem.graph.client import GraphClient, Row
from kgmem.ingest.episodes import as_utc
from kgmem.recall.candidates import Candidate
from kgmem.recall.diversity import embedding_rows
from kgmem.recall.filters import Evidence, to_candidate
from kgmem.recall.turns import common_entity_words, turn_word_rarity, turns_by_relevance


@dataclass
class Prefetch:
    """The rows read while the embedding runs: ``asked`` the ids sent, ``rows`` those found."""

    graph: GraphClient
    namespace: str
    depth: int
    asked: set[str] = field(default_factory=set)
    rows: dict[str, Row] = field(default_factory=dict)

    async def read(self, lists: Sequence[Sequence[Row]]) -> None:
        ids = list(dict.fromkeys(r["id"] for rows in lists for r in rows[: self.depth]))
        if not ids:
            return
        self.asked = set(ids)
        rows = await repository.get_recall_candidates(self.graph, namespace=self.namespace, ids=ids)
        self.rows = {r["memory"]["id"]: r for r in rows}


@dataclass(frozen=True)
class Hydrated:
    cands: list[Candidate]
    turns: dict[str, tuple[str, ...]]
    recorded: dict[str, datetime | None]


async def hydrate(
    graph: GraphClient,
    *,
    query: str,
    namespace: str,
    ids: Sequence[str],
    ev: Mapping[str, Evidence],
    rrf_of: Mapping[str, float],
    q_entities: frozenset[str],
    early: Prefetch | None = None,
) -> Hydrated:
    asked = early.asked if early is not None else set()
    rest = [i for i in ids if i not in asked]
    read = await repository.get_recall_candidates(
        graph, namespace=namespace, ids=rest, scope=list(ids)
    )
    rows = [r for r in (_merged(r, early) for r in read) if r is not None]
    vectors = embedding_rows([r["memory"].get("embedding") for r in rows])
    cands = [
        to_candidate(r, ev[r["memory"]["id"]], rrf_of[r["memory"]["id"]], q_entities, vec)
        for r, vec in zip(rows, vectors, strict=True)
    ]
    rarity = turn_word_rarity([t for r in rows for t in r.get("turns") or ()])
    common = common_entity_words([r.get("entities") or () for r in rows])
    turns = {
        r["memory"]["id"]: turns_by_relevance(query, r.get("turns") or (), rarity, common)
        for r in rows
    }
    recorded = {r["memory"]["id"]: _opt(r["memory"].get("recorded_at")) for r in rows}
    return Hydrated(cands, turns, recorded)


def _merged(row: Row, early: Prefetch | None) -> Row | None:
    """A final row as is, or a pool member read early: its early row with the final statement's
    co-activation (among the whole pool; the early statement saw only the early ids)."""
    if "content" in row["memory"]:
        return row
    found = early.rows.get(row["memory"]["id"]) if early is not None else None
    return None if found is None else {**found, "coactive": row["coactive"]}


def _opt(value: Any) -> datetime | None:
    return as_utc(value) if value is not None else None
