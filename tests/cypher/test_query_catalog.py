"""Lint of every query file: named <verb>_<noun>, header matches body, every file used by exactly
one repository function of the same name that passes exactly its parameters, reads write nothing."""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest

from kgmem.graph.catalog import CatalogError, load_catalog, load_schema, parse_query

ROOT = Path(__file__).resolve().parents[2]
GRAPH = ROOT / "kgmem" / "graph"
WRITE_CLAUSES = re.compile(
    r"\b(CREATE|MERGE|SET|DELETE|DETACH|REMOVE|FOREACH|LOAD\s+CSV)\b|IN\s+TRANSACTIONS"
    r"|gds\.[\w.]*\.(write|mutate)\b|gds\.graph\.(project|drop)",
    re.IGNORECASE,
)


def _strip(text: str) -> str:
    body = "\n".join(line for line in text.splitlines() if not line.lstrip().startswith("//"))
    return re.sub(r"'[^']*'|\"[^\"]*\"", "''", body)


def _repository_calls() -> dict[str, set[str]]:
    """query name → keyword names each gateway function (kgmem/graph/*.py) passes to
    graph.run(...) or Step(...)."""
    calls: dict[str, set[str]] = {}
    body = [fn for path in sorted(GRAPH.glob("*.py")) for fn in ast.parse(path.read_text()).body]
    # A parameter record (a dataclass of kgmem/graph) passed as ``**record.params()`` gives its
    # field names: class name → fields.
    records = {
        c.name: {s.target.id for s in c.body if isinstance(s, ast.AnnAssign)}
        for c in body
        if isinstance(c, ast.ClassDef)
        and all(isinstance(s.target, ast.Name) for s in c.body if isinstance(s, ast.AnnAssign))
    }
    for fn in body:
        if not isinstance(fn, ast.AsyncFunctionDef | ast.FunctionDef):
            continue
        typed = {
            a.arg: records.get(a.annotation.id, set())
            for a in fn.args.args + fn.args.kwonlyargs
            if isinstance(a.annotation, ast.Name)
        }
        for node in ast.walk(fn):
            if not isinstance(node, ast.Call) or not node.args:
                continue
            first = node.args[0]
            if not isinstance(first, ast.Constant):
                continue
            if isinstance(node.func, ast.Attribute) and node.func.attr == "run":
                given = {kw.arg for kw in node.keywords if kw.arg}  # graph.run("q", a=..)
                for kw in node.keywords:  # graph.run("q", **record.params())
                    value = kw.value
                    if (
                        kw.arg is None
                        and isinstance(value, ast.Call)
                        and isinstance(value.func, ast.Attribute)
                        and value.func.attr == "params"
                        and isinstance(value.func.value, ast.Name)
                    ):
                        fields = typed.get(value.func.value.id)
                        assert fields, f"{fn.name}: **{value.func.value.id}.params() is no record"
                        given |= fields
            elif isinstance(node.func, ast.Name) and node.func.id == "Step":
                params = node.args[1]  # Step("q", {"a": ...}) for a batched write
                assert isinstance(params, ast.Dict)
                given = {k.value for k in params.keys if isinstance(k, ast.Constant)}
            else:
                continue
            assert first.value == fn.name, f"{fn.name} runs query {first.value}: names must match"
            calls[first.value] = given
    return calls


def test_catalog_loads() -> None:
    assert len(load_catalog()) >= 5


def test_every_query_is_used_with_exactly_its_parameters() -> None:
    calls = _repository_calls()
    catalog = load_catalog()
    assert set(catalog) == set(calls), "unused query files or calls to missing queries"
    for name, query in catalog.items():
        assert calls[name] == set(query.params), name


@pytest.mark.parametrize("name", sorted(n for n, q in load_catalog().items() if q.is_read))
def test_read_queries_write_nothing(name: str) -> None:
    assert not WRITE_CLAUSES.search(_strip(load_catalog()[name].text)), name


# A node pattern that names a label, in a MATCH or MERGE: "(m:Memory {id: x.id, ...})".
NODE_ANCHOR = re.compile(r"\b(?:MATCH|MERGE)\s*\(\s*\w+\s*:\s*\w+\s*(\{[^}]*\})?\s*\)")


@pytest.mark.parametrize(
    "name", sorted(n for n, q in load_catalog().items() if "replan=skip" in q.text)
)
def test_a_query_planned_once_finds_every_node_by_its_unique_id(name: str) -> None:
    """replan=skip keeps a plan made when the store was small: only safe where the plan cannot
    depend on counts, i.e. every node a MATCH or MERGE starts from is looked up by ``id``."""
    body = _strip(load_catalog()[name].text)
    anchors = [m.group(1) or "" for m in NODE_ANCHOR.finditer(body)]
    assert anchors, name
    assert all(re.match(r"\{\s*id\s*:", a) for a in anchors), (name, anchors)


def test_the_planned_once_lint_catches_a_lookup_by_another_property() -> None:
    body = "MATCH (m:Memory {namespace: $namespace, content_hash: $h}) RETURN m"
    anchors = [m.group(1) or "" for m in NODE_ANCHOR.finditer(body)]
    assert anchors and not all(re.match(r"\{\s*id\s*:", a) for a in anchors)


def test_lint_catches_a_mismatched_header() -> None:
    with pytest.raises(CatalogError, match="header declares"):
        parse_query("get_thing", "// x\n// params: $a\nMATCH (n {id: $b}) RETURN n")
    with pytest.raises(CatalogError, match="verb"):
        parse_query("Thing", "// x\n// params: -\nRETURN 1")


def test_schema_statements_are_idempotent_ddl() -> None:
    statements = load_schema()
    assert statements
    for _file, stmt in statements:
        assert "IF NOT EXISTS" in stmt, stmt


def test_values_plain_is_read_from_the_header() -> None:
    assert parse_query("get_thing", "// x\n// params: -\n// values: plain\nRETURN 1 AS a").plain
    assert not parse_query("get_thing", "// x\n// params: -\nRETURN 1 AS a").plain
    # only reads may skip the conversion, and the recall hydration is one of them
    assert all(q.is_read for q in load_catalog().values() if q.plain)
    assert load_catalog()["get_recall_candidates"].plain
