"""The hub-name memo (kgmem/graph/hub_names.py): entries live for the TTL, per key, and a
namespace can be forgotten. The read itself is tested against Neo4j in test_recall.py."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from kgmem.graph.hub_names import HubNames


class Clock:
    def __init__(self) -> None:
        self.t = 0.0

    def __call__(self) -> float:
        return self.t


def test_an_entry_lives_for_the_ttl_and_no_longer() -> None:
    clock = Clock()
    memo = HubNames(ttl=60.0, clock=clock)
    key = ("ns", 0.1, 20)
    assert memo.get(key) is None
    memo.put(key, ["caroline", "melanie"])
    clock.t = 59.9
    assert memo.get(key) == ["caroline", "melanie"]
    assert memo.get(("ns", 0.1, 10)) is None  # another limit is another question
    assert memo.get(("other", 0.1, 20)) is None  # another namespace never sees these names
    clock.t = 60.0
    assert memo.get(key) is None


def test_forget_drops_only_that_namespace() -> None:
    memo = HubNames(ttl=60.0, clock=Clock())
    memo.put(("a", 0.1, 20), ["x"])
    memo.put(("a", 0.2, 20), ["y"])
    memo.put(("b", 0.1, 20), ["z"])
    memo.forget("a")
    assert memo.get(("a", 0.1, 20)) is None and memo.get(("a", 0.2, 20)) is None
    assert memo.get(("b", 0.1, 20)) == ["z"]


@given(st.lists(st.tuples(st.sampled_from("abc"), st.lists(st.text(max_size=3), max_size=3))))
def test_the_last_put_wins_and_the_memo_holds_a_copy(puts: list[tuple[str, list[str]]]) -> None:
    memo = HubNames(ttl=60.0, clock=Clock())
    last: dict[str, list[str]] = {}
    for ns, names in puts:
        memo.put((ns, 0.1, 20), names)
        last[ns] = list(names)
        names.append("changed later")  # the caller's list is not the memo's
    for ns, names in last.items():
        assert memo.get((ns, 0.1, 20)) == names
