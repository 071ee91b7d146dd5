"""The query catalog: every Cypher statement kgmem runs, one operation per ``.cypher`` file.

Files live in ``kgmem/cypher/`` (shipped inside the installed package) and are named
``<verb>_<noun>.cypher``; the file name is the query's name, and the repository function that runs
it carries the same name. Each file opens with a header::

    // <one line saying what it does>
    // params: $namespace, $id
    // values: plain      (optional)

The catalog is loaded once, lazily, and checked as it loads: the header's parameters must be
exactly the ``$names`` the body uses. Queries whose verb is ``get``, ``find`` or ``search`` are
reads and run as auto-commit read statements; every other verb writes, in a transaction. A query
whose header says ``values: plain`` promises rows of maps, lists, strings, numbers, booleans and
nulls only (no nodes, relationships, paths or temporal values), so the client hands its rows on as
the driver decoded them instead of walking every value for types to convert.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import cache
from importlib import resources

from kgmem.errors import KgmemError

READ_VERBS = frozenset({"get", "find", "search"})
_NAME_RE = re.compile(r"^[a-z]+(_[a-z0-9]+)+$")
_PARAM_RE = re.compile(r"(?<![\w$`])\$([A-Za-z_][A-Za-z0-9_]*)")
_HEADER_PARAMS_RE = re.compile(r"^//\s*params:\s*(.*)$", re.MULTILINE)
_HEADER_PLAIN_RE = re.compile(r"^//\s*values:\s*plain\s*$", re.MULTILINE)


class CatalogError(KgmemError):
    """A query file is malformed, missing, or called with the wrong parameters (a bug)."""

    code = "catalog"


@dataclass(frozen=True)
class Query:
    """One named, parameterised Cypher statement."""

    name: str
    text: str
    params: frozenset[str]
    description: str
    plain: bool = False  # rows need no conversion (header ``values: plain``)

    @property
    def verb(self) -> str:
        return self.name.split("_", 1)[0]

    @property
    def is_read(self) -> bool:
        return self.verb in READ_VERBS

    def check_params(self, given: dict[str, object]) -> None:
        """Refuse a call that misses a parameter or passes one the query does not use."""
        missing = self.params - given.keys()
        extra = given.keys() - self.params
        if missing or extra:
            raise CatalogError(
                f"query {self.name}: missing parameters {sorted(missing)}, "
                f"unexpected {sorted(extra)}"
            )


def body_params(text: str) -> frozenset[str]:
    """The ``$name`` parameters a Cypher body uses (comments stripped first)."""
    body = "\n".join(line for line in text.splitlines() if not line.lstrip().startswith("//"))
    return frozenset(_PARAM_RE.findall(body))


def parse_query(name: str, text: str) -> Query:
    """Parse and check one query file's text."""
    if not _NAME_RE.match(name):
        raise CatalogError(f"query file {name!r} is not named <verb>_<noun>.cypher")
    lines = text.splitlines()
    if not lines or not lines[0].startswith("//"):
        raise CatalogError(f"query {name}: the first line must be a '//' description")
    header = _HEADER_PARAMS_RE.search(text)
    if header is None:
        raise CatalogError(f"query {name}: missing '// params:' header line")
    declared = frozenset(
        p.strip().lstrip("$") for p in header.group(1).split(",") if p.strip() and p.strip() != "-"
    )
    used = body_params(text)
    if declared != used:
        raise CatalogError(
            f"query {name}: header declares {sorted(declared)} but the body uses {sorted(used)}"
        )
    return Query(
        name=name,
        text=text,
        params=used,
        description=lines[0].lstrip("/ ").strip(),
        plain=_HEADER_PLAIN_RE.search(text) is not None,
    )


@cache
def load_catalog() -> dict[str, Query]:
    """All query files of the installed package, by name (loaded once per process)."""
    root = resources.files("kgmem") / "cypher"
    queries: dict[str, Query] = {}
    for entry in root.iterdir():
        if entry.name.endswith(".cypher"):
            name = entry.name.removesuffix(".cypher")
            queries[name] = parse_query(name, entry.read_text(encoding="utf-8"))
    return queries


@cache
def load_schema() -> tuple[tuple[str, str], ...]:
    """Schema DDL statements as ``(file name, statement)`` in file order."""
    root = resources.files("kgmem") / "cypher" / "schema"
    out: list[tuple[str, str]] = []
    for entry in sorted(root.iterdir(), key=lambda e: e.name):
        if not entry.name.endswith(".cypher"):
            continue
        text = "\n".join(
            line
            for line in entry.read_text(encoding="utf-8").splitlines()
            if not line.lstrip().startswith("//")
        )
        out.extend((entry.name, stmt.strip()) for stmt in text.split(";") if stmt.strip())
    return tuple(out)


def get_query(name: str) -> Query:
    try:
        return load_catalog()[name]
    except KeyError:
        raise CatalogError(f"no query named {name!r} in the catalog") from None
