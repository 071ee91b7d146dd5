"""Every query with a declared shape (``kgmem.graph.rows.SHAPES``) returns exactly the fields of
its record: its final ``RETURN`` is parsed (columns, or the keys of the one collected map and of
its nested map projections), and a nested record built before the ``RETURN`` must match a map
literal of the query. A query edited without its record, or the reverse, fails here."""

from __future__ import annotations

import re
from dataclasses import fields
from pathlib import Path

import pytest

from kgmem.graph.rows import SHAPES, RecallCandidate

CYPHER = Path(__file__).resolve().parents[2] / "kgmem" / "cypher"
_OPEN, _CLOSE = "([{", ")]}"


def _split(text: str, sep: str = ",") -> list[str]:
    """``text`` split at ``sep`` outside brackets and strings."""
    parts, depth, quote, start = [], 0, "", 0
    for i, ch in enumerate(text):
        if quote:
            quote = "" if ch == quote else quote
        elif ch in "'\"":
            quote = ch
        elif ch in _OPEN:
            depth += 1
        elif ch in _CLOSE:
            depth -= 1
        elif ch == sep and depth == 0:
            parts.append(text[start:i].strip())
            start = i + 1
    parts.append(text[start:].strip())
    return [p for p in parts if p]


def _top_level_return(text: str) -> str:
    """The text after the query's last ``RETURN`` outside any ``CALL { ... }``."""
    depth, last = 0, -1
    for m in re.finditer(r"[{}]|\bRETURN\b", text):
        token = m.group()
        depth += token == "{"
        depth -= token == "}"
        if token == "RETURN" and depth == 0:
            last = m.end()
    assert last >= 0, "no top-level RETURN"
    return re.split(r"\b(?:ORDER BY|SKIP|LIMIT)\b", text[last:])[0].strip()


def _alias(item: str) -> tuple[str, str]:
    """(expression, column name) of one RETURN item."""
    m = re.match(r"(?s)(.*)\s+AS\s+(\w+)$", item)
    if m:
        return m.group(1).strip(), m.group(2)
    return item, item.split(".")[-1]


def _braced(expr: str) -> str:
    """The text inside ``expr``'s first ``{ ... }`` group."""
    start = expr.index("{")
    depth = 0
    for i in range(start, len(expr)):
        depth += expr[i] == "{"
        depth -= expr[i] == "}"
        if depth == 0:
            return expr[start + 1 : i]
    raise AssertionError(f"unbalanced braces in {expr!r}")


def _keys(body: str) -> dict[str, str]:
    """Map literal or projection keys (``.id``, ``key: expr``, ``var``) -> their expressions."""
    out = {}
    for item in _split(body):
        if item.startswith("."):
            out[item[1:]] = item
        else:
            key, _, value = item.partition(":")
            out[key.strip()] = value.strip() or key.strip()
    return out


def _map_literals(text: str) -> list[set[str]]:
    return [set(_keys(_braced(text[m.start() :]))) for m in re.finditer(r"\{", text)]


def _names(record: type) -> set[str]:
    return {f.name for f in fields(record)}


def _query(name: str) -> str:
    raw = (CYPHER / f"{name}.cypher").read_text()
    return "\n".join(line.split("//")[0] for line in raw.splitlines())


@pytest.mark.parametrize("name", sorted(SHAPES))
def test_the_query_returns_its_records_fields(name: str) -> None:
    shape, text = SHAPES[name], _query(name)
    columns = dict(_alias(item)[::-1] for item in _split(_top_level_return(text)))
    if shape.collected is not None:  # one row: a list of maps
        assert list(columns) == [shape.collected]
        expr = columns[shape.collected]
        assert expr.startswith("collect({"), f"{shape.collected} is not a collected map"
        entries = _keys(_braced(expr))
    elif shape.column is not None:  # rows of one map projection
        assert list(columns) == [shape.column]
        entries = _keys(_braced(columns[shape.column]))
    else:  # one field a column
        entries = columns
    assert set(entries) == _names(shape.record)
    for field_name, record in shape.nested.items():
        value = entries[field_name]
        if "{" in value:  # a map projection in the RETURN itself
            assert set(_keys(_braced(value))) == _names(record), field_name
        else:  # a list of maps built before the RETURN: one of its literals is the record
            assert _names(record) in _map_literals(text), field_name


def test_the_parser_reads_nested_projections() -> None:
    entries = _keys("memory: m {.id, .content, created_at: f(m.x, 'a,b')}, turns: turns")
    assert set(entries) == {"memory", "turns"}
    assert set(_keys(_braced(entries["memory"]))) == {"id", "content", "created_at"}
    assert set(_keys("a, b: [x IN y | {c: 1}]")) == {"a", "b"}
    assert _names(RecallCandidate) == {
        "memory", "entities", "people", "turns", "coactive", "superseded_by"
    }  # fmt: skip
