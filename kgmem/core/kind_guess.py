"""Nearest-word kind guess: which kind of favourite a value is, by embedding similarity.

A favourite said without its kind ("Fleetwood Mac is Zainab's absolute favourite", "Ethiopian food
has become Diego's favourite") is keyed by the kind of :data:`FAVOURITE_KINDS` whose words are
nearest to the value's embedding ("Fleetwood Mac" is near "band", "Ethiopian food" near "food").
``KindTable`` holds the unit vectors of every kind word; ``kind_table(owner, embed)`` builds one
per embedder on first use (never at import) and keeps it. ``nearest_kind(vector, table)`` scores
each kind by its nearest word and returns the best kind, or None when it is not clearly the
nearest: a bare value is often ambiguous ("Thai" is a cuisine and a place, "Dune" a book and a
film), and a wrong kind would make the favourite replace another one the person keeps. Pure given
the table.
"""

from __future__ import annotations

import threading
import weakref
from collections.abc import Callable, Sequence
from dataclasses import dataclass

import numpy as np

from kgmem.core.slot_guess import unit_rows
from kgmem.taxonomy.favourite_kinds import FAVOURITE_KINDS

# Calibrated on hand-written values of known kind (bands, dishes, colours, teams, places ...): a
# value of one kind is 0.4-0.7 from its kind's words; ambiguous ones have two kinds within 0.03.
MIN_SIMILARITY = 0.40
MIN_LEAD = 0.05


@dataclass(frozen=True)
class KindTable:
    kinds: tuple[str, ...]  # one per row of ``vectors``
    vectors: np.ndarray  # (n, d), unit rows


def build_kind_table(embed: Callable[[list[str]], Sequence[Sequence[float]]]) -> KindTable:
    kinds = [kind for kind, words in FAVOURITE_KINDS.items() for _ in words]
    words = [word for ws in FAVOURITE_KINDS.values() for word in ws]
    return KindTable(tuple(kinds), unit_rows(np.asarray(embed(words), dtype=np.float32)))


def nearest_kind(vector: Sequence[float], table: KindTable) -> str | None:
    v = np.asarray(vector, dtype=np.float32)
    norm = float(np.linalg.norm(v))
    if norm == 0.0 or not table.kinds:
        return None
    best: dict[str, float] = {}
    for kind, sim in zip(table.kinds, (table.vectors @ (v / norm)).tolist(), strict=True):
        best[kind] = max(best.get(kind, -1.0), float(sim))
    ranked = sorted(best.items(), key=lambda kv: (-kv[1], kv[0]))
    top_kind, top = ranked[0]
    lead = top - (ranked[1][1] if len(ranked) > 1 else 0.0)
    return top_kind if top >= MIN_SIMILARITY and lead >= MIN_LEAD else None


_TABLES: weakref.WeakKeyDictionary[object, KindTable] = weakref.WeakKeyDictionary()
_LOCK = threading.Lock()


def kind_table(owner: object, embed: Callable[[list[str]], Sequence[Sequence[float]]]) -> KindTable:
    """The kind table for ``owner`` (an embedder), built with ``embed`` on first use, kept."""
    with _LOCK:
        table = _TABLES.get(owner)
        if table is None:
            table = build_kind_table(embed)
            _TABLES[owner] = table
        return table
