"""The gate compares two facts with their subject's name taken out: ``said_similarity`` equals the
cosine of the two vectors after the subject's direction is projected out (computed from three
cosines alone), the windows use it when both sides' cosines to the name are known and the raw
cosine otherwise, and a fact's subject text is the speaker's name where the fact says it."""

from __future__ import annotations

from datetime import UTC, datetime

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from kgmem.core.said_similarity import said_similarity
from kgmem.core.text import content_hash
from kgmem.ingest.gate.records import GateAction, Neighbour
from kgmem.ingest.gate.subject_match import subject_text
from kgmem.ingest.gate.windows import CONTRADICTION, REPLACEMENT, within, without_name
from kgmem.ingest.gate.write_gate import decide
from kgmem.records import ExtractedFact
from kgmem.taxonomy import ConflictStrategy

NOW = datetime(2026, 6, 1, tzinfo=UTC)
DIM = 8
_vectors = st.lists(
    st.floats(min_value=-1.0, max_value=1.0, allow_nan=False), min_size=DIM, max_size=DIM
).filter(lambda v: float(np.linalg.norm(v)) > 0.1)


def _unit(v: list[float]) -> np.ndarray:
    a = np.asarray(v, dtype=np.float64)
    return a / np.linalg.norm(a)


def _projected(a: np.ndarray, b: np.ndarray, s: np.ndarray) -> float | None:
    pa, pb = a - (a @ s) * s, b - (b @ s) * s
    na, nb = np.linalg.norm(pa), np.linalg.norm(pb)
    # a text (nearly) all subject: the three-cosine form loses the digits the rest needs
    if na < 1e-2 or nb < 1e-2:
        return None
    return float(pa @ pb / (na * nb))


@settings(max_examples=300, deadline=None)
@given(_vectors, _vectors, _vectors)
def test_equals_the_cosine_after_projecting_the_subject_out(
    x: list[float], y: list[float], z: list[float]
) -> None:
    a, b, s = _unit(x), _unit(y), _unit(z)
    expected = _projected(a, b, s)
    got = said_similarity(float(a @ b), float(a @ s), float(b @ s))
    assert -1.0 <= got <= 1.0
    assert got == pytest.approx(said_similarity(float(a @ b), float(b @ s), float(a @ s)))
    if expected is not None:
        assert got == pytest.approx(expected, abs=1e-6)


def test_a_subject_neither_text_leans_on_changes_nothing() -> None:
    assert said_similarity(0.42, 0.0, 0.0) == pytest.approx(0.42)


def test_a_shared_name_no_longer_lifts_two_unrelated_facts() -> None:
    # both lean on the name (0.6 each) and are 0.5 alike only through it
    assert said_similarity(0.5, 0.6, 0.6) == pytest.approx((0.5 - 0.36) / 0.64)
    assert said_similarity(0.36, 0.6, 0.6) == pytest.approx(0.0)


def test_a_text_that_is_all_subject_keeps_the_raw_cosine() -> None:
    assert said_similarity(0.7, 1.0, 0.7) == pytest.approx(0.7)


def nb(sim: float, to_subject: float | None, content: str = "The user studies at the Sorbonne."):
    return Neighbour(
        "m1",
        content,
        content_hash(content),
        sim,
        entities=(),
        valid_from=datetime(2026, 1, 1, tzinfo=UTC),
        subject_similarity=to_subject,
    )


def test_windows_use_the_said_cosine_when_both_sides_know_the_name() -> None:
    n = nb(0.45, 0.3)
    value = without_name(n, 0.3)
    assert value is not None and value > CONTRADICTION.said
    assert within(n, 0.3, CONTRADICTION)
    # the same pair with no subject to take out is judged by its raw cosine
    assert without_name(n, None) is None and not within(n, None, CONTRADICTION)
    assert within(nb(0.45, None), 0.3, REPLACEMENT) is False
    assert within(nb(0.55, None), None, REPLACEMENT)


def test_two_facts_alike_only_through_the_name_are_outside_every_window() -> None:
    n = nb(0.55, 0.7)
    assert not within(n, 0.7, CONTRADICTION)
    assert not within(n, 0.7, REPLACEMENT)


def _gate(text: str, n: Neighbour, own: float | None) -> GateAction:
    f = ExtractedFact(text, "fact", 0.8, valid_from=datetime(2026, 5, 1, tzinfo=UTC))
    d = decide(
        f, content_hash(text), frozenset(), [n], ConflictStrategy.TEMPORAL, NOW,
        subject_similarity=own,
    )  # fmt: skip
    return d.action


def test_an_unnamed_user_s_change_is_judged_like_a_named_one() -> None:
    old = "The user's favourite colour is blue."
    new = "The user's favourite colour is green."
    # raw cosine below the raw window (no name lifts it), alike once "the user" is taken out
    assert _gate(new, nb(0.5, 0.4, old), 0.4) == GateAction.SUPERSEDE
    assert _gate(new, nb(0.5, None, old), None) == GateAction.CREATE


@pytest.mark.parametrize(
    ("content", "speaker", "expected"),
    [
        ("The user studies at the Sorbonne.", "The user", "the user"),
        ("Since switching to Sciences Po, the user's reading list has tripled.", "The user",
         "the user"),
        ("Fatima studies at the Sorbonne.", "Fatima", "fatima"),
        ("Alice's phone number is 555-1234.", "The user", "alice"),
        ("Melanie went camping with her kids.", "Caroline", "melanie"),
        ("the weather was fine", None, None),
        ("The username is taken.", "The user", None),
    ],
)  # fmt: skip
def test_subject_text(content: str, speaker: str | None, expected: str | None) -> None:
    assert subject_text(content, speaker) == expected
