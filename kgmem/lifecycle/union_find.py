"""Disjoint sets over string ids, for grouping duplicates (entity merges, memory clusters).

Contract: ``UnionFind`` is a pure, in-memory structure with no I/O. ``find(x)`` returns the root
of ``x``'s set and adds ``x`` as a set of its own when it is new; ``union(a, b)`` joins two sets
and always keeps the smaller root id as the root, so the groups and their roots depend only on
which pairs were joined, never on the order they came in (lifecycle plans must be deterministic
across runs). ``roots()`` lists every id seen with its root.
"""

from __future__ import annotations


class UnionFind:
    """Union-find with path halving; the smallest id of a set is its root."""

    def __init__(self) -> None:
        self._parent: dict[str, str] = {}

    def find(self, x: str) -> str:
        parent = self._parent
        parent.setdefault(x, x)
        while parent[x] != x:
            parent[x] = parent[parent[x]]
            x = parent[x]
        return x

    def union(self, a: str, b: str) -> None:
        ra, rb = self.find(a), self.find(b)
        if ra != rb:
            self._parent[max(ra, rb)] = min(ra, rb)

    def roots(self) -> dict[str, str]:
        """Every id seen, in the order first seen, with the root of its set."""
        return {x: self.find(x) for x in list(self._parent)}
