"""UnionFind (kgmem/lifecycle/union_find.py): sets are connected components, roots order-free."""

from __future__ import annotations

import random

from hypothesis import given
from hypothesis import strategies as st

from kgmem.lifecycle.union_find import UnionFind

ids = st.sampled_from([f"m{i}" for i in range(8)])


def _components(pairs: list[tuple[str, str]]) -> set[frozenset[str]]:
    """Connected components by repeated merging: the reference the structure must match."""
    groups: list[set[str]] = []
    for a, b in pairs:
        joined = {a, b}
        for g in [g for g in groups if g & joined]:
            joined |= g
            groups.remove(g)
        groups.append(joined)
    return {frozenset(g) for g in groups}


@given(st.lists(st.tuples(ids, ids), max_size=20))
def test_sets_are_the_connected_components_rooted_at_their_smallest_id(
    pairs: list[tuple[str, str]],
) -> None:
    sets = UnionFind()
    for a, b in pairs:
        sets.union(a, b)
    groups: dict[str, set[str]] = {}
    for x, root in sets.roots().items():
        groups.setdefault(root, set()).add(x)
    assert {frozenset(g) for g in groups.values()} == _components(pairs)
    assert all(root == min(g) for root, g in groups.items())


@given(st.lists(st.tuples(ids, ids), max_size=20), st.randoms())
def test_roots_do_not_depend_on_the_order_of_the_pairs(
    pairs: list[tuple[str, str]], rnd: random.Random
) -> None:
    first, second = UnionFind(), UnionFind()
    for a, b in pairs:
        first.union(a, b)
    shuffled = list(pairs)
    rnd.shuffle(shuffled)
    for a, b in shuffled:
        second.union(b, a)
    assert set(first.roots()) == set(second.roots())
    assert {x: first.find(x) for x in first.roots()} == {x: second.find(x) for x in first.roots()}


def test_find_adds_an_unseen_id_as_its_own_set() -> None:
    sets = UnionFind()
    assert sets.find("a") == "a"
    assert sets.roots() == {"a": "a"}
