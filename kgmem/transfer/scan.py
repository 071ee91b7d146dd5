"""Reading an export file: its lines, its records, and the validation pass over all of it.

Contract. :func:`read_lines` yields (line number, text), refusing a byte that is not UTF-8 by its
line; :func:`records` yields the parsed records of the non-blank lines; :func:`scan_file` is
import's first pass — every line checked, nothing written — and raises ``InvalidInput`` on the
first bad line, on a file that does not start with its header, on nodes after edges, on a node
twice, and on an end record that is missing (a truncated file) or disagrees with what was read.
Its :class:`Scan` holds the counts, the namespaces, and how often each edge key occurs. Reads the
file only.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path

from kgmem.errors import InvalidInput
from kgmem.transfer.lines import parse_record
from kgmem.transfer.records import EdgeRecord, EndRecord, Header, NodeRecord, Record


@dataclass
class Scan:
    """The validation pass's findings: counts, namespaces, and how often each edge key occurs."""

    header: Header
    nodes: int = 0
    edges: int = 0
    namespaces: set[str] = field(default_factory=set)
    copies: Counter[str] = field(default_factory=Counter)


def read_lines(path: Path) -> Iterator[tuple[int, str]]:
    """(line number, text) of a file, decoding each line so a bad byte names its line."""
    try:
        handle = path.open("rb")
    except OSError as exc:
        raise InvalidInput(f"cannot read {path}: {exc.strerror or exc}") from None
    with handle:
        for number, raw in enumerate(handle, start=1):
            try:
                yield number, raw.decode("utf-8")
            except UnicodeDecodeError:
                raise InvalidInput(f"{path}:{number}: not UTF-8 text") from None


def records(path: Path) -> Iterator[Record]:
    for number, text in read_lines(path):
        if text.strip():
            yield parse_record(text, number, f"{path}:{number}")


def scan_file(path: Path) -> Scan:
    """The validation pass: every line checked, nothing written; raises on the first bad line."""
    scan: Scan | None = None
    end: EndRecord | None = None
    seen_edge = False
    first_line: dict[tuple[str, str], int] = {}
    for rec in records(path):
        where = f"{path}:{rec.line}"
        if end is not None:
            raise InvalidInput(f"{where}: content after the end record")
        if scan is None:
            if not isinstance(rec, Header):
                raise InvalidInput(
                    f"{where}: not a kgmem export (the first line must be its header)"
                )
            scan = Scan(rec)
        elif isinstance(rec, Header):
            raise InvalidInput(f"{where}: a second header")
        elif isinstance(rec, NodeRecord):
            if seen_edge:
                raise InvalidInput(f"{where}: a node after the edges (nodes must come first)")
            node_key = (rec.label, rec.id)
            if node_key in first_line:
                raise InvalidInput(
                    f"{where}: {rec.label} {rec.id!r} appears twice (first on line "
                    f"{first_line[node_key]})"
                )
            first_line[node_key] = rec.line
            scan.nodes += 1
            scan.namespaces.add(rec.namespace)
        elif isinstance(rec, EdgeRecord):
            seen_edge = True
            scan.edges += 1
            scan.copies[rec.key] += 1
        else:
            end = rec
    if scan is None:
        raise InvalidInput(f"{path}: the file is empty, not a kgmem export")
    if end is None:
        raise InvalidInput(f"{path}: no end record: the file is truncated (export it again)")
    if (end.nodes, end.edges) != (scan.nodes, scan.edges):
        raise InvalidInput(
            f"{path}:{end.line}: the end record counts {end.nodes} nodes and {end.edges} edges "
            f"but the file holds {scan.nodes} and {scan.edges}"
        )
    return scan
