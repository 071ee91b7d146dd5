"""Export: a namespace (or every namespace) of the graph → a kgmem JSONL file, whole or not at all.

Contract. :func:`export_graph` pages nodes then relationships through
:mod:`kgmem.graph.transfer_repository` and writes them to ``path + ".part"``, which replaces
``path`` only when complete. A node or relationship the import could not read back (an unknown
label or type, no string id) is refused with ``KgmemError`` rather than written: a backup that
cannot be restored is worse than none. Pages are separate read transactions, so export while
writers are quiet for an exact copy.
"""

from __future__ import annotations

import contextlib
import os
import time as clock
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from kgmem.core.validation import check_namespace
from kgmem.errors import InvalidInput, KgmemError
from kgmem.graph import transfer_repository as tr
from kgmem.graph.client import GraphClient, Row
from kgmem.transfer.lines import edge_line, end_line, header_line, node_line
from kgmem.transfer.records import (
    NODE_LABELS,
    PAGE_SIZE,
    REL_TYPES,
    Endpoint,
    ProgressFn,
    TransferReport,
    report_progress,
)


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
                report_progress(progress, nodes, total)
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
                report_progress(progress, nodes + edges, max(total, nodes + edges))
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
