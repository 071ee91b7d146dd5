"""Pure mapping between a framework store's terms and kgmem's: namespaces, item text, filters.

Contract. A LangGraph namespace is a tuple of labels that LangGraph forbids to contain ``.``; its
kgmem namespace is the labels joined by ``.`` (``("users", "alice")`` → ``users.alice``), so the
mapping is reversible and a tuple prefix is a dotted-name prefix. The joined name must be a
kgmem namespace (1-64 letters, digits, ``_ . -``, starting alphanumeric), else ``InvalidInput``.
``item_text`` is what an item is remembered as: its ``index`` fields (or, by default, the first
of ``text``, ``content``, ``memory`` present) as text. ``matches`` is a store filter: equality
per top-level field, or an operator map (``$eq $ne $gt $gte $lt $lte $in $nin``).
``match_namespaces`` applies a ``list_namespaces`` request (prefix/suffix conditions with ``*``
wildcards, ``max_depth``, ``offset``, ``limit``) to the namespaces that hold items.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import Any

from kgmem.core.validation import check_namespace
from kgmem.errors import InvalidInput

SEPARATOR = "."
DEFAULT_TEXT_FIELDS = ("text", "content", "memory")


def to_kgmem(namespace: Sequence[str]) -> str:
    """The kgmem namespace of a store namespace tuple, checked."""
    if not namespace:
        raise InvalidInput("a store namespace needs at least one label")
    for label in namespace:
        if not isinstance(label, str) or not label or SEPARATOR in label:
            raise InvalidInput(f"store namespace label {label!r} is empty or contains '.'")
    return check_namespace(SEPARATOR.join(namespace))


def to_prefix(namespace_prefix: Sequence[str]) -> str:
    """The dotted prefix of a search's namespace prefix; ``""`` (every namespace) when empty."""
    return to_kgmem(namespace_prefix) if namespace_prefix else ""


def from_kgmem(namespace: str) -> tuple[str, ...]:
    return tuple(namespace.split(SEPARATOR))


def item_text(value: Mapping[str, Any], fields: Sequence[str] | None = None) -> str:
    """The text an item is remembered as: its ``fields`` joined by new lines, or by default
    the first of ``DEFAULT_TEXT_FIELDS`` present."""
    if fields is None:
        chosen = next((f for f in DEFAULT_TEXT_FIELDS if isinstance(value.get(f), str)), None)
        if chosen is None:
            raise InvalidInput(
                "an item value needs a text field to remember: one of "
                f"{', '.join(DEFAULT_TEXT_FIELDS)} (or pass index=[field, ...])"
            )
        fields = (chosen,)
    parts = []
    for name in fields:
        if name not in value:
            raise InvalidInput(f"the item value has no field {name!r} to index")
        part = value[name]
        parts.append(part if isinstance(part, str) else str(part))
    return "\n".join(parts)


_OPS: dict[str, Callable[[Any, Any], bool]] = {
    "$eq": lambda a, b: bool(a == b),
    "$ne": lambda a, b: bool(a != b),
    "$gt": lambda a, b: bool(a > b),
    "$gte": lambda a, b: bool(a >= b),
    "$lt": lambda a, b: bool(a < b),
    "$lte": lambda a, b: bool(a <= b),
    "$in": lambda a, b: a in b,
    "$nin": lambda a, b: a not in b,
}


def check_filter(where: Mapping[str, Any] | None) -> None:
    """Refuse an operator this filter does not know, before any I/O."""
    for condition in (where or {}).values():
        if isinstance(condition, Mapping):
            unknown = sorted(k for k in map(str, condition) if k.startswith("$") and k not in _OPS)
            if unknown:
                raise InvalidInput(f"unknown filter operator(s): {', '.join(unknown)}")


def _holds(actual: Any, condition: Any) -> bool:
    if isinstance(condition, Mapping) and condition and all(str(k) in _OPS for k in condition):
        try:
            return all(_OPS[op](actual, want) for op, want in condition.items())
        except TypeError:  # comparing unlike types (a string with a number) does not match
            return False
    return bool(actual == condition)


def matches(value: Mapping[str, Any], where: Mapping[str, Any] | None) -> bool:
    """Whether an item value passes a filter (every field's condition holds)."""
    return all(_holds(value.get(k), c) for k, c in (where or {}).items())


def _fits(path: tuple[str, ...], pattern: Sequence[str]) -> bool:
    return len(path) >= len(pattern) and all(
        want == "*" or got == want for got, want in zip(path, pattern, strict=False)
    )


def match_namespaces(
    held: Iterable[str],
    conditions: Iterable[tuple[str, Sequence[str]]],
    *,
    max_depth: int | None,
    offset: int,
    limit: int,
) -> list[tuple[str, ...]]:
    """The namespaces of a ``list_namespaces`` request, sorted, from the namespaces holding
    items; ``conditions`` are (``"prefix"`` | ``"suffix"``, labels) pairs, ``*`` any label."""
    found: set[tuple[str, ...]] = set()
    for name in held:
        path = from_kgmem(name)
        ok = all(
            _fits(path, labels) if kind == "prefix" else _fits(path[::-1], list(labels)[::-1])
            for kind, labels in conditions
        )
        if ok:
            found.add(path[:max_depth] if max_depth is not None else path)
    return sorted(found)[offset : offset + limit]
