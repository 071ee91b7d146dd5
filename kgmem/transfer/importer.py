"""Import: a kgmem JSONL file → the graph, validated whole first, then batch by batch; idempotent.

Contract. :func:`import_graph` reads the file twice. The validation pass
(:func:`kgmem.transfer.scan.scan_file`) checks every line first: a bad line raises
``InvalidInput`` naming it and nothing at all is written. The write pass then sends batches of
``batch_size`` records, each in one transaction: nodes are MERGEd on label + id with their
properties replaced, relationships get only their missing copies — so importing twice changes
nothing. A batch that cannot land whole (an id that belongs to another namespace, a relationship
whose endpoint does not exist, a relationship that would join two namespaces or reach into a
namespace the file does not hold) rolls back and raises naming the line. Cached GDS projections of
the imported namespaces are dropped afterwards.
"""

from __future__ import annotations

import asyncio
import contextlib
import time as clock
from pathlib import Path
from typing import Any

from kgmem.errors import InvalidInput, KgmemError
from kgmem.graph import repository
from kgmem.graph import transfer_repository as tr
from kgmem.graph.client import GraphClient, Row
from kgmem.graph.gds import PREFIX as PROJECTION_PREFIX
from kgmem.transfer.records import (
    BATCH_SIZE,
    EdgeRecord,
    NodeRecord,
    ProgressFn,
    TransferReport,
    report_progress,
)
from kgmem.transfer.scan import Scan, records, scan_file


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
                report_progress(progress, done, total)
            if rec.key not in emitted:  # later copies were sent with the first one's count
                emitted.add(rec.key)
                edges.append(rec)
        else:
            continue
        done += 1
        if len(nodes) >= batch_size:
            nodes_created += await _write_nodes(graph, path, nodes)
            nodes = []
            report_progress(progress, done, total)
        elif len(edges) >= batch_size:
            edges_created += await _write_edges(graph, path, edges, scan)
            edges = []
            report_progress(progress, done, total)
    if nodes:
        nodes_created += await _write_nodes(graph, path, nodes)
    if edges:
        edges_created += await _write_edges(graph, path, edges, scan)
    report_progress(progress, done, total)
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
        landed = {row["line"]: row for row in rows}
        for rec in batch:
            row = landed.get(rec.line)
            if row is not None and not _scoped(row, scan.namespaces):
                raise InvalidInput(
                    f"{path}:{rec.line}: {rec.type} from {rec.start.label} {rec.start.id!r} "
                    f"(namespace {row['start_namespace']!r}) to {rec.end.label} "
                    f"{rec.end.id!r} (namespace {row['end_namespace']!r}): a relationship may "
                    f"only join two nodes of one namespace the file holds "
                    f"({sorted(scan.namespaces)}); {_span(batch)}"
                )
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
        namespaces=sorted(scan.namespaces),
        check=check,
    )
    return sum(int(row["created"]) for row in rows)


def _scoped(row: Row, namespaces: set[str]) -> bool:
    start, end = row["start_namespace"], row["end_namespace"]
    return start == end and start in namespaces


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
