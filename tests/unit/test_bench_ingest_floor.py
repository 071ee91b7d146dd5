"""Unit tests of the ingest benchmark's pure parts: the floor's relabelling and the reachability
arithmetic (no Neo4j, no models: rows in the shape the export queries return)."""

from __future__ import annotations

from typing import Any

from benchmarks.perf.ingest.floor import _relabelled
from benchmarks.perf.ingest.report import floor_lines


def _node(label: str, node_id: str, **props: Any) -> dict[str, Any]:
    return {"labels": [label], "props": {"id": node_id, "namespace": "ns", **props}}


def _edge(rel: str, a: tuple[str, str], b: tuple[str, str], **props: Any) -> dict[str, Any]:
    return {
        "type": rel,
        "start_labels": [a[0]],
        "start_id": a[1],
        "end_labels": [b[0]],
        "end_id": b[1],
        "props": props,
    }


def test_relabelled_keeps_the_graph_under_fresh_ids_and_namespace() -> None:
    nodes = [
        _node("Memory", "m1", content="a", embedding=[0.1, 0.2]),
        _node("Memory", "m2", content="b"),
        _node("Episode", "e1", text="t"),
    ]
    edges = [
        _edge("DERIVED_FROM", ("Memory", "m1"), ("Episode", "e1"), role="source"),
        _edge("DERIVED_FROM", ("Memory", "m2"), ("Episode", "e1"), role="source"),
        _edge("RELATED_TO", ("Memory", "m1"), ("Memory", "m2"), confidence=0.5),
        _edge("RELATED_TO", ("Memory", "m1"), ("Memory", "m2"), confidence=0.5),  # a copy
    ]
    node_rows, edge_rows = _relabelled(nodes, edges, "floor-ns")
    new = {r["props"].get("content", "e"): r for r in node_rows}
    assert {r["props"]["namespace"] for r in node_rows} == {"floor-ns"}
    assert not {r["props"]["id"] for r in node_rows} & {"m1", "m2", "e1"}
    assert new["a"]["props"]["embedding"] == [0.1, 0.2] and new["a"]["label"] == "Memory"
    assert nodes[0]["props"]["id"] == "m1"  # the input rows are not modified
    m1, m2, e1 = (new[k]["props"]["id"] for k in ("a", "b", "e"))
    got = sorted((r["type"], r["start_id"], r["end_id"], r["copies"]) for r in edge_rows)
    assert got == sorted(
        [("DERIVED_FROM", m1, e1, 1), ("DERIVED_FROM", m2, e1, 1), ("RELATED_TO", m1, m2, 2)]
    )
    assert sum(r["copies"] for r in edge_rows) == len(edges)


def test_floor_lines_bound_is_the_embedder_share_of_models_plus_bare_write() -> None:
    res = {
        "floor": {
            "nodes": 3, "edges": 4, "wall_s": 1.0, "nodes_s": 0.4, "edges_s": 0.6,
            "client_cpu_s": 1.0, "server_cpu_s": 3.0,
        },
        "embed_alone_cpu_s": 8.0, "spacy_alone_cpu_s": 4.0, "embed_alone_s": 4.0,
        "process_cpu_s": 20.0, "server_cpu_s": 20.0,
    }  # fmt: skip
    text = "\n".join(floor_lines(res))
    assert "| 12.0 + 4.0 = 16.0 s |" in text
    assert "| 50.0% |" in text  # embedder 8 of 16 CPU seconds: at best half the throughput
    assert "| 30.0% |" in text  # models 12 of the measured 40 CPU seconds
    assert "| 75.0% |" in text  # models 12 of models + bare write 16
