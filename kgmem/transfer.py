"""Export and import of the memory graph as JSONL: a lossless, idempotent, batched round trip.

Contract. :func:`export_graph` writes every node of one namespace (or of every namespace) and
every relationship leaving those nodes, with all their properties — embeddings, timestamps,
lists — to a JSONL file; :func:`import_graph` reads such a file back, so that export → wipe →
import gives the same graph: the same nodes (keyed by label and ``id``), the same relationships
(keyed by type, start id, end id and properties; identical copies kept by count) and the same
property values with the same types.

File format (UTF-8, one JSON object per line, nodes before edges)::

    {"kind": "header", "format": "kgmem-export", "version": 1, "namespace": "demo", ...}
    {"kind": "node", "label": "Memory", "props": {"id": "...", "namespace": "demo", ...}}
    {"kind": "edge", "type": "MENTIONS", "start": {"label": "Memory", "id": "..."},
     "end": {"label": "Entity", "id": "..."}, "props": {...}}
    {"kind": "end", "nodes": 12, "edges": 30}

Strings, integers, booleans, finite floats and lists of them are plain JSON; floats are written
with Python's shortest round-trip form, so embeddings come back bit for bit. Values JSON has no
type for are typed objects — ``{"$type": "datetime", "value": "2024-05-01T10:00:00.5+00:00"}``,
and likewise ``localdatetime``, ``date``, ``time``, ``bytes`` (base64) and ``float`` (for nan and
±inf) — so they come back as the same types. Temporal values keep microsecond precision, which
is what kgmem writes.

Import reads the file twice. The validation pass parses and checks every line first: a bad line
raises ``InvalidInput`` naming it and nothing at all is written; the end record must agree with
what was read, so a truncated file is refused. The write pass then sends batches of
``batch_size`` records, each in one transaction: nodes are MERGEd on label + id with their
properties replaced, relationships get only their missing copies — so importing twice changes
nothing. A batch that cannot land whole (an id that belongs to another namespace, a relationship
whose endpoint does not exist) rolls back and raises naming the line. Labels and relationship
types are checked against closed lists before they reach Cypher. The record codec is pure; the
two orchestrators do their I/O through :mod:`kgmem.graph.transfer_repository`.
"""

from __future__ import annotations

import asyncio
import base64
import contextlib
import hashlib
import json
import math
import os
import time as clock
from collections import Counter
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from datetime import UTC, date, datetime, time
from pathlib import Path
from typing import Any

from kgmem.errors import InvalidInput, KgmemError
from kgmem.graph import repository
from kgmem.graph import transfer_repository as tr
from kgmem.graph.client import GraphClient, Row
from kgmem.graph.gds import PREFIX as PROJECTION_PREFIX
from kgmem.taxonomy import MEMORY_REL_TYPE, STRUCTURAL_REL_TYPES
from kgmem.validation import check_namespace

FORMAT = "kgmem-export"
VERSION = 1
# The node labels an export may hold; import_nodes.cypher / import_edges.cypher have one literal
# branch per label (a dynamic label would cost a full node scan per row: no index is used).
NODE_LABELS: tuple[str, ...] = (
    "Memory",
    "Episode",
    "Entity",
    "Box",
    "Trace",
    "Topic",
    "StatusChange",
    "TierChange",  # the lifecycle's tier audit
    "MergedEntity",  # an entity retired by a (reversible) merge
    "Lease",  # the consolidation lease: exported too, so a copy is the whole namespace
    "NamespaceState",
)
# SAME_AS links a MergedEntity to its survivor (the lifecycle's entity merge record).
REL_TYPES: frozenset[str] = (
    frozenset(MEMORY_REL_TYPE.values()) | STRUCTURAL_REL_TYPES | frozenset({"SAME_AS"})
)
BATCH_SIZE = 500
PAGE_SIZE = 1000
_INT_RANGE = (-(2**63), 2**63 - 1)  # Neo4j integers are 64-bit

# Called with (records done, records in total) as a transfer advances.
ProgressFn = Callable[[int, int], None]


# --- records ------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Endpoint:
    label: str
    id: str


@dataclass(frozen=True)
class Header:
    line: int
    namespace: str | None
    exported_at: str


@dataclass(frozen=True)
class NodeRecord:
    line: int
    label: str
    props: dict[str, Any]  # decoded: Python values the driver sends as Neo4j types

    @property
    def id(self) -> str:
        return str(self.props["id"])

    @property
    def namespace(self) -> str:
        return str(self.props["namespace"])


@dataclass(frozen=True)
class EdgeRecord:
    line: int
    type: str
    start: Endpoint
    end: Endpoint
    props: dict[str, Any]
    key: str  # digest of (type, start, end, canonical properties): identical edges share it


@dataclass(frozen=True)
class EndRecord:
    line: int
    nodes: int
    edges: int


Record = Header | NodeRecord | EdgeRecord | EndRecord


@dataclass(frozen=True)
class TransferReport:
    """What an export or import did."""

    path: str
    nodes: int  # node records written (export) or read (import)
    edges: int  # relationship records written or read
    namespaces: tuple[str, ...]
    seconds: float
    nodes_created: int = 0  # import: nodes that did not exist before (the rest were updated)
    edges_created: int = 0  # import: relationships created (0 when the graph already had them)


@dataclass
class Scan:
    """The validation pass's findings: counts, namespaces, and how often each edge key occurs."""

    header: Header
    nodes: int = 0
    edges: int = 0
    namespaces: set[str] = field(default_factory=set)
    copies: Counter[str] = field(default_factory=Counter)


# --- the value codec (pure) ---------------------------------------------------------------------


def encode_value(value: Any, where: str) -> Any:
    """A property value → its JSON form (typed objects for what JSON cannot say)."""
    if isinstance(value, bool | str):
        return value
    if isinstance(value, int):
        return value
    if isinstance(value, float):
        if math.isfinite(value):
            return value
        return {"$type": "float", "value": repr(value)}  # 'nan', 'inf', '-inf'
    if isinstance(value, datetime):  # before date: a datetime is a date
        kind = "localdatetime" if value.tzinfo is None else "datetime"
        return {"$type": kind, "value": value.isoformat()}
    if isinstance(value, date):
        return {"$type": "date", "value": value.isoformat()}
    if isinstance(value, time):
        return {"$type": "time", "value": value.isoformat()}
    if isinstance(value, bytes | bytearray):
        return {"$type": "bytes", "value": base64.b64encode(bytes(value)).decode("ascii")}
    if isinstance(value, list | tuple):
        return [encode_value(v, where) for v in value]
    raise KgmemError(
        f"{where}: cannot export a {type(value).__name__} property value "
        "(supported: strings, numbers, booleans, temporal values, bytes and lists of them)"
    )


def decode_value(raw: Any, where: str) -> Any:
    """A JSON property value → the Python value to store; ``InvalidInput`` naming ``where``."""
    if isinstance(raw, list):
        items = [_decode_scalar(v, where) for v in raw]
        kinds = {_kind(v) for v in items}
        if kinds == {"int", "float"}:
            return [float(v) for v in items]  # a hand-edited vector may say 0 for 0.0
        if len(kinds) > 1:
            raise InvalidInput(
                f"{where}: a list property mixes {sorted(kinds)} (Neo4j lists hold one type)"
            )
        return items
    return _decode_scalar(raw, where)


def _decode_scalar(raw: Any, where: str) -> Any:
    if raw is None:
        raise InvalidInput(f"{where}: null is not a property value (leave the property out)")
    if isinstance(raw, bool | str | float):
        return raw
    if isinstance(raw, int):
        if not _INT_RANGE[0] <= raw <= _INT_RANGE[1]:
            raise InvalidInput(f"{where}: integer {raw} does not fit in 64 bits")
        return raw
    if isinstance(raw, list):
        raise InvalidInput(f"{where}: lists cannot be nested in a property value")
    if (
        not isinstance(raw, dict)
        or set(raw) != {"$type", "value"}
        or not isinstance(raw["value"], str)
    ):
        raise InvalidInput(
            f"{where}: a property value must be a JSON scalar, a list, or "
            '{"$type": ..., "value": "..."}'
        )
    kind, text = raw["$type"], raw["value"]
    try:
        if kind == "datetime":
            value = datetime.fromisoformat(text)
            if value.tzinfo is None:
                raise ValueError("a datetime needs a UTC offset (use localdatetime otherwise)")
            return value
        if kind == "localdatetime":
            value = datetime.fromisoformat(text)
            if value.tzinfo is not None:
                raise ValueError("a localdatetime has no UTC offset")
            return value
        if kind == "date":
            return date.fromisoformat(text)
        if kind == "time":
            return time.fromisoformat(text)
        if kind == "bytes":
            return base64.b64decode(text, validate=True)
        if kind == "float":
            number = float(text)
            if math.isfinite(number):
                raise ValueError("finite floats are plain JSON numbers")
            return number
    except ValueError as exc:
        raise InvalidInput(f"{where}: bad {kind} value {text!r} ({exc})") from None
    raise InvalidInput(
        f"{where}: unknown value type {kind!r} (datetime, localdatetime, date, time, bytes, float)"
    )


def _kind(value: Any) -> str:
    if isinstance(value, datetime):
        return "localdatetime" if value.tzinfo is None else "datetime"
    return type(value).__name__


def encode_props(props: dict[str, Any], where: str) -> dict[str, Any]:
    return {k: encode_value(props[k], f"{where}, property {k!r}") for k in sorted(props)}


def decode_props(raw: Any, where: str) -> dict[str, Any]:
    if not isinstance(raw, dict):
        raise InvalidInput(f"{where}: 'props' must be a JSON object")
    return {str(k): decode_value(v, f"{where}, property {k!r}") for k, v in raw.items()}


# --- lines (pure) -----------------------------------------------------------------------------


def _dumps(obj: dict[str, Any]) -> str:
    # allow_nan=False: non-finite floats are typed objects, so every line is strict JSON.
    return json.dumps(obj, ensure_ascii=False, allow_nan=False, separators=(",", ":"))


def header_line(namespace: str | None, exported_at: datetime) -> str:
    return _dumps(
        {
            "kind": "header",
            "format": FORMAT,
            "version": VERSION,
            "namespace": namespace,
            "exported_at": exported_at.isoformat(),
        }
    )


def node_line(label: str, props: dict[str, Any], where: str) -> str:
    return _dumps({"kind": "node", "label": label, "props": encode_props(props, where)})


def edge_line(
    rel_type: str, start: Endpoint, end: Endpoint, props: dict[str, Any], where: str
) -> str:
    return _dumps(
        {
            "kind": "edge",
            "type": rel_type,
            "start": {"label": start.label, "id": start.id},
            "end": {"label": end.label, "id": end.id},
            "props": encode_props(props, where),
        }
    )


def end_line(nodes: int, edges: int) -> str:
    return _dumps({"kind": "end", "nodes": nodes, "edges": edges})


def edge_key(rel_type: str, start: Endpoint, end: Endpoint, props: dict[str, Any]) -> str:
    """Identity of a relationship for import: equal values give equal keys, however spelled."""
    canonical = json.dumps(
        [rel_type, start.label, start.id, end.label, end.id, encode_props(props, "key")],
        sort_keys=True,
        separators=(",", ":"),
    )
    return hashlib.sha256(canonical.encode("utf-8")).hexdigest()


def parse_record(text: str, line: int, where: str) -> Record:
    """One JSONL line → a record, or ``InvalidInput`` naming ``where`` (file:line)."""
    try:
        obj = json.loads(text, parse_constant=_refuse_constant)
    except ValueError as exc:
        msg = exc.msg if isinstance(exc, json.JSONDecodeError) else str(exc)
        raise InvalidInput(f"{where}: not valid JSON ({msg})") from None
    if not isinstance(obj, dict):
        raise InvalidInput(f"{where}: each line must be a JSON object")
    kind = obj.get("kind")
    if kind == "node":
        label = _label(obj.get("label"), where)
        props = decode_props(obj.get("props"), where)
        if not isinstance(props.get("id"), str) or not props["id"]:
            raise InvalidInput(f"{where}: a node needs a non-empty string 'id' property")
        if not isinstance(props.get("namespace"), str):
            raise InvalidInput(f"{where}: a node needs a string 'namespace' property")
        try:
            check_namespace(props["namespace"])
        except InvalidInput as exc:
            raise InvalidInput(f"{where}: {exc.message}") from None
        return NodeRecord(line, label, props)
    if kind == "edge":
        rel_type = obj.get("type")
        if rel_type not in REL_TYPES:
            raise InvalidInput(
                f"{where}: unknown relationship type {rel_type!r} (allowed: {sorted(REL_TYPES)})"
            )
        start = _endpoint(obj.get("start"), f"{where}: start")
        end = _endpoint(obj.get("end"), f"{where}: end")
        props = decode_props(obj.get("props"), where)
        return EdgeRecord(line, rel_type, start, end, props, edge_key(rel_type, start, end, props))
    if kind == "header":
        if obj.get("format") != FORMAT:
            raise InvalidInput(f"{where}: not a {FORMAT} header")
        if obj.get("version") != VERSION:
            raise InvalidInput(
                f"{where}: export format version {obj.get('version')!r} is not supported "
                f"(this kgmem reads version {VERSION})"
            )
        ns = obj.get("namespace")
        if ns is not None:
            check_namespace(ns)
        return Header(line, ns, str(obj.get("exported_at", "")))
    if kind == "end":
        nodes, edges = obj.get("nodes"), obj.get("edges")
        if not isinstance(nodes, int) or not isinstance(edges, int) or not _count(nodes, edges):
            raise InvalidInput(f"{where}: the end record needs integer 'nodes' and 'edges'")
        return EndRecord(line, nodes, edges)
    raise InvalidInput(f"{where}: 'kind' must be header, node, edge or end, got {kind!r}")


def _refuse_constant(name: str) -> Any:
    raise ValueError(f"{name} is not JSON; non-finite floats are typed objects")


def _count(*values: int) -> bool:
    return all(not isinstance(v, bool) and v >= 0 for v in values)


def _label(value: object, where: str) -> str:
    if value not in NODE_LABELS:
        raise InvalidInput(f"{where}: unknown node label {value!r} (allowed: {list(NODE_LABELS)})")
    return str(value)


def _endpoint(value: object, where: str) -> Endpoint:
    if not isinstance(value, dict) or not isinstance(value.get("id"), str) or not value["id"]:
        raise InvalidInput(f"{where} must be {{'label': ..., 'id': ...}} with a non-empty id")
    return Endpoint(_label(value.get("label"), where), value["id"])


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


# --- export ---------------------------------------------------------------------------------------


async def export_graph(
    graph: GraphClient,
    path: Path,
    *,
    namespace: str | None = None,
    page_size: int = PAGE_SIZE,
    progress: ProgressFn | None = None,
    now: datetime | None = None,
) -> TransferReport:
    """Write a namespace (every namespace when None) to ``path``; the file appears whole or not.

    Pages are separate read transactions, so export while writers are quiet for an exact copy.
    """
    t0 = clock.perf_counter()
    ns = check_namespace(namespace) if namespace is not None else None
    counts = await tr.get_export_counts(graph, namespace=ns)
    total = int(counts["nodes"]) + int(counts["edges"])
    part = path.with_name(path.name + ".part")
    nodes = edges = 0
    namespaces: set[str] = set()
    try:
        with part.open("w", encoding="utf-8") as out:
            out.write(header_line(ns, now or datetime.now(UTC)) + "\n")
            after = ""
            while rows := await tr.find_export_nodes(
                graph, namespace=ns, after=after, limit=page_size
            ):
                for row in rows:
                    label, props = _node_of(row)
                    out.write(node_line(label, props, f"{label} {props['id']!r}") + "\n")
                    namespaces.add(str(props["namespace"]))
                nodes += len(rows)
                after = rows[-1]["key"]
                _report(progress, nodes, total)
            after = ""
            while rows := await tr.find_export_edges(
                graph, namespace=ns, after=after, limit=page_size
            ):
                for row in rows:
                    rel_type, start, end = _edge_of(row)
                    where = f"{rel_type} {start.id!r}->{end.id!r}"
                    out.write(edge_line(rel_type, start, end, row["props"], where) + "\n")
                edges += len(rows)
                after = rows[-1]["key"]
                _report(progress, nodes + edges, max(total, nodes + edges))
            out.write(end_line(nodes, edges) + "\n")
        os.replace(part, path)
    except OSError as exc:
        raise InvalidInput(f"cannot write {path}: {exc.strerror or exc}") from None
    finally:
        with contextlib.suppress(OSError):
            part.unlink()  # gone already after a successful replace
    seconds = round(clock.perf_counter() - t0, 3)
    return TransferReport(str(path), nodes, edges, tuple(sorted(namespaces)), seconds)


def _node_of(row: Row) -> tuple[str, dict[str, Any]]:
    labels, props = list(row["labels"]), dict(row["props"])
    where = f"node {props.get('id')!r} with labels {labels}"
    if len(labels) != 1 or labels[0] not in NODE_LABELS:
        # Refuse rather than write a file that import would reject: a backup that cannot be
        # restored is worse than none. A new label belongs in NODE_LABELS and the import query.
        raise KgmemError(f"cannot export {where}: export supports one label of {list(NODE_LABELS)}")
    if not isinstance(props.get("id"), str):
        raise KgmemError(f"cannot export {where}: it has no string 'id'")
    return labels[0], props


def _edge_of(row: Row) -> tuple[str, Endpoint, Endpoint]:
    rel_type = str(row["type"])
    if rel_type not in REL_TYPES:
        raise KgmemError(f"cannot export a {rel_type} relationship: not a kgmem relationship type")
    ends = []
    for side in ("start", "end"):
        labels, node_id = list(row[f"{side}_labels"]), row[f"{side}_id"]
        if len(labels) != 1 or labels[0] not in NODE_LABELS or not isinstance(node_id, str):
            raise KgmemError(
                f"cannot export a {rel_type} relationship: its {side} node {node_id!r} "
                f"({labels}) is not an exportable node"
            )
        ends.append(Endpoint(labels[0], node_id))
    return rel_type, ends[0], ends[1]


def _report(progress: ProgressFn | None, done: int, total: int) -> None:
    if progress is not None:
        progress(done, total)


# --- import ---------------------------------------------------------------------------------------


async def import_graph(
    graph: GraphClient,
    path: Path,
    *,
    batch_size: int = BATCH_SIZE,
    progress: ProgressFn | None = None,
) -> TransferReport:
    """Load an export file (validated whole first), batch by batch; idempotent."""
    if (
        isinstance(batch_size, bool)
        or not isinstance(batch_size, int)
        or not 1 <= batch_size <= 10_000
    ):
        raise InvalidInput(f"batch size must be an integer in [1, 10000], got {batch_size!r}")
    t0 = clock.perf_counter()
    scan = await asyncio.to_thread(scan_file, path)
    total = scan.nodes + scan.edges
    done = nodes_created = edges_created = 0
    emitted: set[str] = set()
    nodes: list[NodeRecord] = []
    edges: list[EdgeRecord] = []
    # The scan proved every node line comes before every edge line, so the node batches are all
    # written (endpoints exist) before the first edge batch.
    for rec in records(path):
        if isinstance(rec, NodeRecord):
            nodes.append(rec)
        elif isinstance(rec, EdgeRecord):
            if nodes:
                nodes_created += await _write_nodes(graph, path, nodes)
                nodes = []
                _report(progress, done, total)
            if rec.key not in emitted:  # later copies were sent with the first one's count
                emitted.add(rec.key)
                edges.append(rec)
        else:
            continue
        done += 1
        if len(nodes) >= batch_size:
            nodes_created += await _write_nodes(graph, path, nodes)
            nodes = []
            _report(progress, done, total)
        elif len(edges) >= batch_size:
            edges_created += await _write_edges(graph, path, edges, scan)
            edges = []
            _report(progress, done, total)
    if nodes:
        nodes_created += await _write_nodes(graph, path, nodes)
    if edges:
        edges_created += await _write_edges(graph, path, edges, scan)
    _report(progress, done, total)
    await _forget_projections(graph, scan.namespaces)
    return TransferReport(
        str(path),
        scan.nodes,
        scan.edges,
        tuple(sorted(scan.namespaces)),
        round(clock.perf_counter() - t0, 3),
        nodes_created,
        edges_created,
    )


def _span(batch: list[Any]) -> str:
    return (
        f"nothing from lines {batch[0].line}-{batch[-1].line} was written (import is idempotent: "
        "fix the file or the graph and run it again)"
    )


async def _write_nodes(graph: GraphClient, path: Path, batch: list[NodeRecord]) -> int:
    by_line = {r.line: r for r in batch}

    def check(rows: list[Row]) -> None:
        for row in rows:
            rec = by_line[row["line"]]
            if row["was"] is not None and row["was"] != rec.namespace:
                raise InvalidInput(
                    f"{path}:{rec.line}: {rec.label} {rec.id!r} already belongs to namespace "
                    f"{row['was']!r}, not {rec.namespace!r}; {_span(batch)}"
                )
        if len(rows) != len(batch):
            raise KgmemError(f"{path}: import wrote {len(rows)} of {len(batch)} nodes; rolled back")

    rows = await tr.import_nodes(
        graph,
        nodes=[{"line": r.line, "label": r.label, "props": r.props} for r in batch],
        check=check,
    )
    return sum(1 for row in rows if row["created"])


async def _write_edges(graph: GraphClient, path: Path, batch: list[EdgeRecord], scan: Scan) -> int:
    def check(rows: list[Row]) -> None:
        landed = {row["line"] for row in rows}
        for rec in batch:
            if rec.line not in landed:
                raise InvalidInput(
                    f"{path}:{rec.line}: {rec.type} from {rec.start.label} {rec.start.id!r} to "
                    f"{rec.end.label} {rec.end.id!r}: an endpoint does not exist (neither in the "
                    f"file nor in the graph); {_span(batch)}"
                )

    rows = await tr.import_edges(
        graph,
        edges=[
            {
                "line": r.line,
                "type": r.type,
                "start_label": r.start.label,
                "start_id": r.start.id,
                "end_label": r.end.label,
                "end_id": r.end.id,
                "props": r.props,
                "copies": scan.copies[r.key],
            }
            for r in batch
        ],
        check=check,
    )
    return sum(int(row["created"]) for row in rows)


async def _forget_projections(graph: GraphClient, namespaces: set[str]) -> None:
    """Drop cached GDS projections of the imported namespaces: the import restored their write
    version, so an old projection could otherwise pass for current."""
    for ns in sorted(namespaces):
        state = await repository.get_namespace_version(
            graph, namespace=ns, graph_prefix=f"{PROJECTION_PREFIX}{ns}-v"
        )
        for name in state["graphs"]:
            with contextlib.suppress(KgmemError):  # dropped concurrently: fine
                await repository.drop_graph(graph, name=name)
