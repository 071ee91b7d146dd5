"""The nearest-prototype slot guess on hand-made tables, and the prototype data itself."""

from __future__ import annotations

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from kgmem.core.slot_guess import (
    MAX_CONFIDENCE,
    Label,
    PrototypeTable,
    build_table,
    guess_slot,
    parse_label,
)
from kgmem.taxonomy.slot_prototypes import ENDED, NONE, PROTOTYPES
from kgmem.taxonomy.slots import Polarity, Slot


def _table(rows: list[tuple[Label, list[float]]]) -> PrototypeTable:
    m = np.asarray([v for _, v in rows], dtype=np.float32)
    m /= np.linalg.norm(m, axis=1, keepdims=True)
    return PrototypeTable(tuple(lab for lab, _ in rows), m)


RES, EMP = Label(Slot.RESIDENCE), Label(Slot.EMPLOYER)
EMP_END, NO = Label(Slot.EMPLOYER, Polarity.ENDED), Label(None)
TABLE = _table(
    [
        (RES, [1, 0, 0, 0]),
        (RES, [0.9, 0.1, 0, 0]),
        (EMP, [0, 1, 0, 0]),
        (EMP, [0.1, 0.9, 0, 0]),
        (EMP_END, [0, 0.6, 0.8, 0]),
        (EMP_END, [0, 0.5, 0.85, 0]),
        (NO, [0, 0, 0, 1]),
        (NO, [0, 0, 0.1, 0.9]),
    ]
)


def test_every_prototype_key_is_a_slot_or_none() -> None:
    for key, phrasings in PROTOTYPES.items():
        label = parse_label(key)
        assert (label.slot is None) == (key == NONE)
        assert (label.polarity is Polarity.ENDED) == key.endswith(ENDED)
        assert len(phrasings) >= 2, key  # the guess averages a label's two nearest
        assert len(set(phrasings)) == len(phrasings), key


def test_every_slot_but_the_deadline_has_prototypes() -> None:
    covered = {parse_label(k).slot for k in PROTOTYPES}
    # a deadline is read from its wording ("deadline is moved to"), never guessed
    assert set(Slot) - covered == {Slot.DEADLINE}


def test_nearest_label_wins_with_its_polarity() -> None:
    g = guess_slot([1, 0.05, 0, 0], TABLE)
    assert g is not None and (g.slot, g.polarity) == (Slot.RESIDENCE, Polarity.HOLDS)
    g = guess_slot([0, 0.55, 0.83, 0], TABLE)
    assert g is not None and (g.slot, g.polarity) == (Slot.EMPLOYER, Polarity.ENDED)


def test_no_slot_when_the_nearest_is_none_or_nothing_is_near() -> None:
    assert guess_slot([0, 0, 0.05, 1], TABLE) is None
    assert guess_slot([0, 0, 0, 0], TABLE) is None
    far = _table([(RES, [1, 0, 0, 0]), (RES, [1, 0.01, 0, 0]), (NO, [0, 1, 0, 0])])
    assert guess_slot([0.1, 0, 1, 0], far) is None  # cosine ~0.1: like no prototype


def test_confidence_falls_with_the_margin() -> None:
    clear = guess_slot([1, 0.05, 0, 0], TABLE)
    torn = guess_slot([1, 0.9, 0, 0], TABLE)  # halfway between residence and employer
    assert clear is not None and torn is not None
    assert torn.margin < clear.margin
    assert torn.confidence < clear.confidence
    near = guess_slot([0.3, 0.28, 0, 0.9], TABLE)  # a little residence, as much employer
    assert near is None or near.confidence < 0.5  # below the gate's threshold: retires nothing


@settings(max_examples=200, deadline=None)
@given(st.lists(st.floats(-1, 1, allow_nan=False), min_size=4, max_size=4))
def test_guess_is_bounded_and_scale_free(vec: list[float]) -> None:
    g = guess_slot(vec, TABLE)
    scaled = guess_slot([3.0 * x for x in vec], TABLE)
    if g is None:
        assert scaled is None
        return
    assert scaled is not None and (scaled.slot, scaled.polarity) == (g.slot, g.polarity)
    assert 0.0 <= g.confidence <= MAX_CONFIDENCE
    assert g.margin >= 0.0


def test_build_table_embeds_every_phrasing_once_in_order() -> None:
    seen: list[list[str]] = []

    def embed(texts: list[str]) -> list[list[float]]:
        seen.append(list(texts))
        return [[float(len(t)), 1.0] for t in texts]

    table = build_table(embed)
    assert len(seen) == 1
    assert len(table.labels) == sum(len(v) for v in PROTOTYPES.values()) == len(seen[0])
    assert np.allclose(np.linalg.norm(table.vectors, axis=1), 1.0)
