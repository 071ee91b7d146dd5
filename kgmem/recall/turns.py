"""The order of a recall hit's source turns: the turns most about the query first.

Contract: pure functions over the gateway's ``CandidateTurn`` records (``text`` present only
when a memory has several turns) and entity-name lists. ``turns_by_relevance`` orders one hit's
turns by the query word stems they share, ties broken by how rare the shared words are among the
recall's candidate turns (``turn_word_rarity``), then by provenance order; the words of entities
that half the candidates mention (``common_entity_words``: in a conversation, the speakers) do
not count. No I/O; the engine calls these once per recall after hydration.
"""

from __future__ import annotations

import functools
import math
from collections import Counter
from collections.abc import Mapping, Sequence

from kgmem.core.text import content_words
from kgmem.graph.rows import CandidateTurn

STEM = 5  # letters of a word that order a hit's turns (a cheap stemmer; LoCoMo replay +0.004)


@functools.lru_cache(maxsize=4096)
def _turn_words(text: str) -> frozenset[str]:
    # A recall reads each turn's words twice (rarity over all turns, then each hit's order), and
    # recalls on one store see the same turns again: tokenise each text once.
    return frozenset(content_words(text))


def turns_by_relevance(
    query: str,
    turns: Sequence[CandidateTurn],
    rarity: Mapping[str, float] | None = None,
    common: frozenset[str] = frozenset(),
) -> tuple[str, ...]:
    """A memory's source turns, the ones that share the most query word stems first (a stem is a
    word's first ``STEM`` letters: "painting" asks for "paints"), equal counts broken by how rare
    the shared words are (``rarity``, see ``turn_word_rarity``; a shared speaker name is common,
    a shared "turtles" is not), then provenance order (the turn that created the memory, then
    its reinforcements). ``common`` words (``common_entity_words``: the speaker a question
    names) do not count: a turn that greets the speaker by name is not about the question."""
    asked = set(content_words(query)) - common
    stems = {w[:STEM] for w in asked}
    weight = rarity or {}

    def key(item: tuple[int, CandidateTurn]) -> tuple[int, float, int]:
        words = _turn_words(item[1].text or "")
        shared = len(stems & {w[:STEM] for w in words})
        return (-shared, -sum(weight.get(w, 0.0) for w in asked & words), item[0])

    ranked = sorted(enumerate(turns), key=key)
    return tuple(dict.fromkeys(t.turn for _, t in ranked))


def common_entity_words(entities: Sequence[Sequence[str]]) -> frozenset[str]:
    """The words of the entities that at least half of a recall's candidates mention (each
    candidate's list of normalised entity names)."""
    counts = Counter(n for names in entities for n in set(names))
    half = len(entities) / 2
    return frozenset(w for n, c in counts.items() if c >= half for w in content_words(n))


def turn_word_rarity(turns: Sequence[CandidateTurn]) -> dict[str, float]:
    """Inverse document frequency of each content word over ``turns`` (a recall's candidate
    turns): ``log(1 + n / df)``."""
    df: Counter[str] = Counter()
    for t in turns:
        df.update(_turn_words(t.text or ""))
    n = len(turns)
    return {w: math.log(1 + n / c) for w, c in df.items()}
