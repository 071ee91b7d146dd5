"""Candidate hydration: the fused pool's ids read back as scoring candidates, with their turns.

``hydrate`` reads every field scoring and the filters need for the candidate ids of one
namespace (``get_recall_candidates``, one statement), turns each row and its channel evidence
into a ``Candidate`` in the order the rows came (the embeddings converted once, as rows of one
matrix: ``diversity.embedding_rows``), marks a memory that says nothing but names for a question
that asks more, or only a question someone asked for a question about an attribute
(``coverage``), marks a memory said or dated in a period the question names (``asked_time``) and
one that states the kind of answer the question asks for, a date or a number (``answer_type``),
orders each memory's source turns by relevance to the query (word
rarity and shared entity words are counted over the whole candidate set), and
keeps each memory's ``recorded_at`` for the bi-temporal filter and the ids of the memories that
superseded it (its ``SUPERSEDES`` edges), which the X-ray names for a superseded candidate.
Everything after the one statement is CPU only and runs in a worker thread.
"""

from __future__ import annotations

import asyncio
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from datetime import datetime

from kgmem.graph import repository
from kgmem.graph.client import GraphClient
from kgmem.graph.rows import RecallCandidate
from kgmem.recall.answer_type import asked_type, states
from kgmem.recall.asked_time import AskedPeriod, in_period
from kgmem.recall.candidates import Candidate
from kgmem.recall.coverage import records_a_question, says_only_names
from kgmem.recall.diversity import embedding_rows
from kgmem.recall.filters import Evidence, to_candidate
from kgmem.recall.turns import common_entity_words, turn_word_rarity, turns_by_relevance


@dataclass(frozen=True)
class Hydrated:
    cands: list[Candidate]
    turns: dict[str, tuple[str, ...]]
    recorded: dict[str, datetime | None]
    successors: dict[str, tuple[str, ...]]  # memory id -> ids of the memories superseding it


async def hydrate(
    graph: GraphClient,
    *,
    query: str,
    namespace: str,
    ids: Sequence[str],
    ev: Mapping[str, Evidence],
    rrf_of: Mapping[str, float],
    q_entities: frozenset[str],
    asks_attribute: bool = False,
    periods: Sequence[AskedPeriod] = (),
) -> Hydrated:
    rows = await repository.get_recall_candidates(graph, namespace=namespace, ids=list(ids))
    # The conversions below are CPU only (embedding rows, turn relevance): a worker thread.
    return await asyncio.to_thread(
        _hydrated, rows, query, ev, rrf_of, q_entities, asks_attribute, periods
    )


def _hydrated(
    rows: Sequence[RecallCandidate],
    query: str,
    ev: Mapping[str, Evidence],
    rrf_of: Mapping[str, float],
    q_entities: frozenset[str],
    asks_attribute: bool,
    periods: Sequence[AskedPeriod] = (),
) -> Hydrated:
    vectors = embedding_rows([r.memory.embedding for r in rows])
    cands = [
        _covered(
            to_candidate(r, ev[r.memory.id], rrf_of[r.memory.id], q_entities, vec),
            r.people,
            query,
            q_entities,
            asks_attribute,
        )
        for r, vec in zip(rows, vectors, strict=True)
    ]
    kind = asked_type(query)
    if kind is not None:
        cands = [
            replace(c, states_asked_type=True)
            if states(kind, c.content, c.created_at, c.valid_from)
            else c
            for c in cands
        ]
    if periods:
        cands = [
            replace(c, in_asked_period=True)
            if in_period(periods, (c.created_at, c.valid_from))
            else c
            for c in cands
        ]
    rarity = turn_word_rarity([t for r in rows for t in r.turns])
    common = common_entity_words([r.entities for r in rows])
    turns = {r.memory.id: turns_by_relevance(query, r.turns, rarity, common) for r in rows}
    recorded = {r.memory.id: r.memory.recorded_at for r in rows}
    successors = {r.memory.id: tuple(sorted(r.superseded_by)) for r in rows}
    return Hydrated(cands, turns, recorded, successors)


def _covered(
    c: Candidate,
    people: Sequence[str],
    query: str,
    q_entities: frozenset[str],
    asks_attribute: bool,
) -> Candidate:
    """``c`` marked ``names_only`` when it says nothing the question asks: nothing but the names
    of people (its own ``people``, the query's names) for a question that asks more, or only a
    question someone asked for a question about an attribute ("How much coffee does Sofia
    drink?" is not answered by "Sofia asked: how do I get a coffee stain out?"); never a memory
    the claim channel found holding the attribute asked about."""
    if c.holds_asked_slot:
        return c
    if (asks_attribute and records_a_question(c.content)) or says_only_names(
        c.content, people, query, q_entities
    ):
        return replace(c, names_only=True)
    return c
