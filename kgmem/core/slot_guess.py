"""Nearest-prototype slot guess: which attribute slot a memory asserts, by embedding similarity.

``PrototypeTable`` holds the unit vectors of :data:`kgmem.taxonomy.slot_prototypes.PROTOTYPES`
with their labels (slot and polarity, or no slot); ``build_table(embed)`` makes it with the
embedder's batch function (the caller embeds once and keeps the table: ``prototype_table``
caches one per embedder, built on first use, never at import). ``guess_slot(vector, table)``
scores every label by the mean of its two most similar prototypes (one lucky phrasing does not
decide), takes each slot's best label, and returns a :class:`SlotGuess` for the best slot, or
None when the best is "no slot" or its similarity is below ``MIN_SIMILARITY``. The polarity is
"ended" only when the slot's ended prototypes beat its holding ones by ``ENDED_MARGIN``. The
confidence grows with the **margin** over the next slot (a memory halfway between residence and
employer is sure of neither) and, up to a point, with the similarity: ``confidence =
clip(BASE + SIM_GAIN * min(sim - MIN_SIMILARITY, SIM_SPAN) + MARGIN_GAIN * margin, 0,
MAX_CONFIDENCE)``. Below the gate's claim threshold a guess never retires anything, so the
margin is what keeps near-misses harmless. MiniLM similarities of a memory to these short
prototypes are low (0.2-0.6), so the margin, not the similarity, carries the decision.
Pure given the table.
"""

from __future__ import annotations

import threading
import weakref
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass

import numpy as np

from kgmem.taxonomy.question_prototypes import QUESTION_PROTOTYPES
from kgmem.taxonomy.slot_prototypes import ENDED, NONE, PROTOTYPES
from kgmem.taxonomy.slots import Polarity, Slot

# Calibrated on the tune half of the truth corpus (benchmarks/truth_claims.py).
MIN_SIMILARITY = 0.2  # below this the memory is like no prototype: no slot
BASE = 0.3
SIM_GAIN = 0.5
SIM_SPAN = 0.3  # similarity adds at most SIM_GAIN * SIM_SPAN: without a margin it is not sure
MARGIN_GAIN = 2.5
ENDED_MARGIN = 0.03
MAX_CONFIDENCE = 0.75  # a guess is never as sure as a wording that names the slot outright
TOP = 2  # prototypes averaged per label


@dataclass(frozen=True)
class Label:
    slot: Slot | None  # None: a fact that asserts no attribute
    polarity: Polarity = Polarity.HOLDS


@dataclass(frozen=True)
class PrototypeTable:
    labels: tuple[Label, ...]  # one per row of ``vectors``
    vectors: np.ndarray  # (n, d), unit rows


@dataclass(frozen=True)
class SlotGuess:
    slot: Slot
    polarity: Polarity
    similarity: float  # of the best label
    margin: float  # over the best label of another slot (or of no slot)
    confidence: float


def parse_label(key: str) -> Label:
    if key == NONE:
        return Label(None)
    name = key.removesuffix(ENDED)
    return Label(Slot(name), Polarity.ENDED if key.endswith(ENDED) else Polarity.HOLDS)


def build_table(
    embed: Callable[[list[str]], Sequence[Sequence[float]]],
    prototypes: Mapping[str, Sequence[str]] = PROTOTYPES,
) -> PrototypeTable:
    labels: list[Label] = []
    texts: list[str] = []
    for key, phrasings in prototypes.items():
        label = parse_label(key)
        labels += [label] * len(phrasings)
        texts += list(phrasings)
    vectors = unit_rows(np.asarray(embed(texts), dtype=np.float32))
    return PrototypeTable(tuple(labels), vectors)


def guess_slot(vector: Sequence[float], table: PrototypeTable) -> SlotGuess | None:
    v = np.asarray(vector, dtype=np.float32)
    norm = float(np.linalg.norm(v))
    if norm == 0.0 or not table.labels:
        return None
    scores = label_scores(table.vectors @ (v / norm), table.labels)
    per_slot: dict[Slot | None, float] = {}
    for lab, s in scores.items():
        per_slot[lab.slot] = max(per_slot.get(lab.slot, -1.0), s)
    ranked = sorted(per_slot.items(), key=lambda kv: (-kv[1], kv[0].value if kv[0] else ""))
    best, sim = ranked[0]
    if best is None or sim < MIN_SIMILARITY:
        return None
    margin = sim - (ranked[1][1] if len(ranked) > 1 else 0.0)
    conf = BASE + SIM_GAIN * min(sim - MIN_SIMILARITY, SIM_SPAN) + MARGIN_GAIN * margin
    conf = float(min(MAX_CONFIDENCE, max(0.0, conf)))
    # the slot's "ended" prototypes must clearly beat its "holds" ones to say the value ended
    holds = scores.get(Label(best, Polarity.HOLDS), -1.0)
    ended = scores.get(Label(best, Polarity.ENDED), -1.0)
    polarity = Polarity.ENDED if ended > holds + ENDED_MARGIN else Polarity.HOLDS
    return SlotGuess(best, polarity, float(sim), float(margin), round(conf, 3))


def label_scores(sims: np.ndarray, labels: Sequence[Label]) -> dict[Label, float]:
    """Per label, the mean of its ``TOP`` highest prototype similarities."""
    by_label: dict[Label, list[float]] = {}
    for lab, s in zip(labels, sims.tolist(), strict=True):
        by_label.setdefault(lab, []).append(float(s))
    return {lab: float(np.mean(sorted(v, reverse=True)[:TOP])) for lab, v in by_label.items()}


def unit_rows(m: np.ndarray) -> np.ndarray:
    norms = np.linalg.norm(m, axis=1, keepdims=True)
    return m / np.where(norms == 0, 1.0, norms)


# the statement table (memories) and the question table (recall's claim channel)
_KINDS: dict[str, Mapping[str, Sequence[str]]] = {
    "statement": PROTOTYPES,
    "question": QUESTION_PROTOTYPES,
}
_TABLES: weakref.WeakKeyDictionary[object, dict[str, PrototypeTable]] = weakref.WeakKeyDictionary()
_LOCK = threading.Lock()


def prototype_table(
    owner: object,
    embed: Callable[[list[str]], Sequence[Sequence[float]]],
    kind: str = "statement",
) -> PrototypeTable:
    """The ``kind`` table for ``owner`` (an embedder), built with ``embed`` on first use, kept."""
    with _LOCK:
        tables = _TABLES.setdefault(owner, {})
        table = tables.get(kind)
        if table is None:
            table = build_table(embed, _KINDS[kind])
            tables[kind] = table
        return table
