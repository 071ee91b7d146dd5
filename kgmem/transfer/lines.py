"""JSONL lines of an export: records → strict JSON lines, and one line → a checked record.

Contract. ``header_line``/``node_line``/``edge_line``/``end_line`` write one strict-JSON line
(non-finite floats are typed, never ``NaN``); :func:`parse_record` reads one line back into a
record of :mod:`kgmem.transfer.records` or raises ``InvalidInput`` naming ``file:line`` — labels
and relationship types are checked against the closed lists, namespaces against the namespace
rule, counts against being non-negative integers. :func:`edge_key` is a relationship's identity
for import: equal values give equal keys however they were spelled. Pure.
"""

from __future__ import annotations

import hashlib
import json
from datetime import datetime
from typing import Any

from kgmem.core.validation import check_namespace
from kgmem.errors import InvalidInput
from kgmem.transfer.codec import decode_props, encode_props
from kgmem.transfer.records import (
    FORMAT,
    NODE_LABELS,
    REL_TYPES,
    VERSION,
    EdgeRecord,
    Endpoint,
    EndRecord,
    Header,
    NodeRecord,
    Record,
)


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
