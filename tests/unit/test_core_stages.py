"""Pure stages of the walking skeleton: normalisation, hashing, RRF, Lucene escaping, validation."""

from __future__ import annotations

import re

import pytest
from hypothesis import given
from hypothesis import strategies as st

from kgmem.core.text import content_hash, normalize_name, normalize_text
from kgmem.core.validation import check_limit, check_namespace, check_text
from kgmem.errors import InvalidInput
from kgmem.recall.fusion import rrf
from kgmem.recall.lucene import to_lucene
from kgmem.settings import Settings

ids = st.text(alphabet="abcdefgh", min_size=1, max_size=3)
rankings = st.lists(st.lists(ids, max_size=8, unique=True), max_size=5)


@given(st.text())
def test_normalisation_is_idempotent(text: str) -> None:
    assert normalize_text(normalize_text(text)) == normalize_text(text)
    assert normalize_name(normalize_name(text)) == normalize_name(text)
    assert content_hash(normalize_text(text)) == content_hash(text)


def test_hash_ignores_case_space_and_trailing_punctuation() -> None:
    assert content_hash("Carol lives in Lisbon.") == content_hash("  carol   lives in lisbon ")
    assert content_hash("Carol lives in Lisbon") != content_hash("Carol lives in Porto")
    assert normalize_name("The Acme Corp.") == normalize_name("acme corp")


@given(rankings, st.randoms())
def test_rrf_is_order_invariant_and_has_no_duplicates(lists: list[list[str]], rnd: object) -> None:
    shuffled = list(lists)
    rnd.shuffle(shuffled)  # type: ignore[attr-defined]
    assert rrf(lists) == rrf(shuffled)
    fused = [i for i, _ in rrf(lists)]
    assert len(fused) == len(set(fused))
    assert set(fused) == {i for lst in lists for i in lst}


def test_rrf_rewards_agreement() -> None:
    fused = dict(rrf([["a", "b"], ["b", "c"]]))
    assert fused["b"] > fused["a"] > fused["c"]
    assert fused["b"] == pytest.approx(1 / 62 + 1 / 61)


@given(st.text())
def test_lucene_query_never_carries_syntax(text: str) -> None:
    q = to_lucene(text)
    if q is not None:
        for term in q.split(" OR "):
            assert term not in {"AND", "OR", "NOT", "TO"}
            # once escaped pairs are removed, no Lucene special character is left
            assert not re.search(r'[+&|!(){}\[\]^"~*?:/\\-]', re.sub(r"\\.", "", term))


def test_lucene_escapes_operators() -> None:
    assert to_lucene('title:"x" AND (y* OR z~)') == "title OR x OR and OR y OR or OR z"
    assert to_lucene("!!! ???") is None


@pytest.mark.parametrize("bad", ["", "-x", "a b", "x" * 65, "ns/1", 3, None])
def test_bad_namespaces(bad: object) -> None:
    with pytest.raises(InvalidInput):
        check_namespace(bad)


def test_text_and_limit_checks() -> None:
    assert check_text("  hi ") == "hi"
    for bad in ["", " ", "x" * 8193, b"bytes", "a\x00b"]:
        with pytest.raises(InvalidInput):
            check_text(bad)
    with pytest.raises(InvalidInput):
        check_limit(0)
    with pytest.raises(InvalidInput):
        check_limit(True)


def test_settings_keep_secrets_out_of_repr(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("KGMEM_NEO4J_PASSWORD", "super-secret-pw")
    monkeypatch.setenv("KGMEM_BOLT_PORT", "7777")
    s = Settings()
    assert s.bolt_port == 7777
    assert "super-secret-pw" not in repr(s)
    assert s.neo4j_password_value() == "super-secret-pw"
    monkeypatch.setenv("KGMEM_NAMESPACE", "bad namespace")
    with pytest.raises(Exception, match="namespace"):
        Settings()
