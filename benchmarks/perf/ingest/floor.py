"""The write path's floor and its result fingerprint, for ``benchmarks.perf.ingest``.

``floor`` answers "what does the cheapest write of the same result cost on this machine?": it
reads back everything an ingest left in a namespace (episodes, memories with their embeddings,
entities, boxes, every edge), gives each node a fresh id in a fresh namespace, and writes it again
with no gate, no extraction and no reads of the store — one UNWIND transaction for the nodes, one
for the edges, through the export/import queries (index seeks by id; the vector and fulltext
indexes are maintained as in the ingest). It reports the median of ``repeats`` such writes in
wall seconds, this process's CPU seconds (driver packing) and the server's CPU seconds (/proc).
Being MERGE-by-id, it is an upper bound on the bare write, not a lower one.

``fingerprint`` summarises what an ingest wrote, independent of ids and clocks: node counts per
label, edge counts per type, receipt counts per action and the sorted (status, content) of the
memories — so a before/after pair of runs shows whether a change kept the results.
"""

from __future__ import annotations

import statistics
import time
import uuid
from collections import Counter
from collections.abc import Callable
from typing import Any

from kgmem.graph import transfer_repository as tr
from kgmem.graph.client import Row
from kgmem.records import WriteReceipt
from kgmem.service import Kgmem

PAGE = 1000


async def read_namespace(km: Kgmem, ns: str) -> tuple[list[Row], list[Row]]:
    """Every node and edge leaving a node of ``ns``, in element-id order."""
    out: tuple[list[Row], list[Row]] = ([], [])
    for reader, rows in ((tr.find_export_nodes, out[0]), (tr.find_export_edges, out[1])):
        after = ""
        while page := await reader(km.graph, namespace=ns, after=after, limit=PAGE):
            rows += page
            after = page[-1]["key"]
    return out


def _relabelled(
    nodes: list[Row], edges: list[Row], ns: str
) -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
    """The same graph under fresh ids in namespace ``ns``, as import rows (copies counted)."""
    ids = {n["props"]["id"]: str(uuid.uuid4()) for n in nodes}
    node_rows = [
        {
            "line": i,
            "label": n["labels"][0],
            "props": {**n["props"], "id": ids[n["props"]["id"]], "namespace": ns},
        }
        for i, n in enumerate(nodes)
    ]
    copies: Counter[tuple[str, str, str, str, str, str]] = Counter()
    props: dict[tuple[str, str, str, str, str, str], dict[str, Any]] = {}
    for e in edges:
        key = (
            e["type"],
            e["start_labels"][0],
            ids[e["start_id"]],
            e["end_labels"][0],
            ids[e["end_id"]],
            repr(sorted(e["props"].items())),
        )
        copies[key] += 1
        props[key] = dict(e["props"])
    edge_rows = [
        {
            "line": i,
            "type": k[0],
            "start_label": k[1],
            "start_id": k[2],
            "end_label": k[3],
            "end_id": k[4],
            "props": props[k],
            "copies": n,
        }
        for i, (k, n) in enumerate(copies.items())
    ]
    return node_rows, edge_rows


async def floor(
    km: Kgmem, ns: str, server_cpu: Callable[[Kgmem], float], repeats: int = 3
) -> dict[str, Any]:
    """Median cost of writing ``ns``'s final graph again in two bare transactions."""
    nodes, edges = await read_namespace(km, ns)
    runs = []
    for r in range(repeats):
        copy_ns = f"floor-{r}-{ns}"
        node_rows, edge_rows = _relabelled(nodes, edges, copy_ns)
        s0, c0, t0 = server_cpu(km), time.process_time(), time.perf_counter()
        await tr.import_nodes(km.graph, nodes=node_rows)
        t1, s1 = time.perf_counter(), server_cpu(km)
        await tr.import_edges(km.graph, edges=edge_rows, namespaces=[copy_ns])
        t2, s2, c2 = time.perf_counter(), server_cpu(km), time.process_time()
        runs.append(
            {
                "nodes_s": t1 - t0,
                "edges_s": t2 - t1,
                "wall_s": t2 - t0,
                "client_cpu_s": c2 - c0,
                "server_cpu_s": s2 - s0,
                "nodes_server_cpu_s": s1 - s0,
            }
        )
    median = {k: statistics.median(run[k] for run in runs) for k in runs[0]}
    return {
        "nodes": len(nodes),
        "edges": len(edges),
        "labels": dict(Counter(n["labels"][0] for n in nodes)),
        "repeats": repeats,
        "runs": runs,
        **median,
    }


async def fingerprint(km: Kgmem, ns: str, receipts: list[WriteReceipt]) -> dict[str, Any]:
    nodes, edges = await read_namespace(km, ns)
    memories = sorted(
        (str(n["props"].get("status")), str(n["props"].get("content")))
        for n in nodes
        if n["labels"][0] == "Memory"
    )
    return {
        "labels": dict(sorted(Counter(n["labels"][0] for n in nodes).items())),
        "edges": dict(sorted(Counter(e["type"] for e in edges).items())),
        "receipts": dict(sorted(Counter(r.action for r in receipts).items())),
        "memories": [list(m) for m in memories],
    }
