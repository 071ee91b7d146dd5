"""The adapters' pure mapping: namespace tuples, the text an item is remembered as, filters and
``list_namespaces`` matching."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from kgmem.adapters import mapping
from kgmem.errors import InvalidInput

LABEL = st.from_regex(r"[A-Za-z0-9][A-Za-z0-9_\-]{0,6}", fullmatch=True)


@given(st.lists(LABEL, min_size=1, max_size=6))
def test_namespace_tuple_round_trips(labels: list[str]) -> None:
    assert mapping.from_kgmem(mapping.to_kgmem(labels)) == tuple(labels)


@pytest.mark.parametrize("labels", [(), ("",), ("a.b",), ("has space",), ("x" * 65,), ("-lead",)])
def test_bad_namespaces_are_refused(labels: tuple[str, ...]) -> None:
    with pytest.raises(InvalidInput):
        mapping.to_kgmem(labels)


def test_prefix_of_nothing_is_every_namespace() -> None:
    assert mapping.to_prefix(()) == ""
    assert mapping.to_prefix(("users", "ada")) == "users.ada"


def test_item_text_picks_fields() -> None:
    assert mapping.item_text({"content": "c", "memory": "m"}) == "c"
    assert mapping.item_text({"text": "t", "content": "c"}) == "t"
    assert mapping.item_text({"a": "x", "b": 2}, ["a", "b"]) == "x\n2"
    with pytest.raises(InvalidInput):
        mapping.item_text({"title": "no text"})
    with pytest.raises(InvalidInput):
        mapping.item_text({"a": "x"}, ["missing"])


def test_filters() -> None:
    value = {"kind": "pref", "n": 3, "tags": "x"}
    assert mapping.matches(value, None)
    assert mapping.matches(value, {"kind": "pref"})
    assert not mapping.matches(value, {"kind": "fact"})
    assert mapping.matches(value, {"n": {"$gte": 3, "$lt": 4}})
    assert not mapping.matches(value, {"n": {"$gt": 3}})
    assert mapping.matches(value, {"kind": {"$in": ["pref", "fact"]}})
    assert not mapping.matches(value, {"n": {"$gt": "a"}})  # unlike types never match
    assert not mapping.matches(value, {"missing": 1})
    with pytest.raises(InvalidInput):
        mapping.check_filter({"n": {"$regex": "x"}})


@given(st.dictionaries(LABEL, st.integers(), max_size=4), st.dictionaries(LABEL, st.integers()))
def test_a_value_matches_every_filter_drawn_from_itself(
    value: dict[str, int], extra: dict[str, int]
) -> None:
    assert mapping.matches(value, value)
    assert mapping.matches(value, {k: {"$eq": v} for k, v in value.items()})
    differing = {k: v + 1 for k, v in extra.items() if k in value}
    if differing:
        assert not mapping.matches(value, {**value, **differing})


HELD = ["a", "a.b.c", "a.b.d.e", "a.c", "ab.x", "z.b"]


def test_match_namespaces() -> None:
    def run(
        conditions: list[tuple[str, tuple[str, ...]]], **kw: int | None
    ) -> list[tuple[str, ...]]:
        return mapping.match_namespaces(
            HELD, conditions, max_depth=kw.get("max_depth"), offset=0, limit=100
        )

    assert run([("prefix", ("a",))]) == [("a",), ("a", "b", "c"), ("a", "b", "d", "e"), ("a", "c")]
    assert run([("prefix", ("a", "b"))], max_depth=3) == [("a", "b", "c"), ("a", "b", "d")]
    assert run([("suffix", ("b",))]) == [("z", "b")]
    assert run([("suffix", ("b", "*"))]) == [("a", "b", "c")]
    assert run([("prefix", ("*", "b"))], max_depth=2) == [("a", "b"), ("z", "b")]
    assert mapping.match_namespaces(HELD, [], max_depth=1, offset=1, limit=2) == [("ab",), ("z",)]
