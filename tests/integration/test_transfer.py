"""Export → wipe → import on the real stack gives back the same graph; bad files write nothing.

The round trip is checked against the driver's own values (every node's labels and properties,
every relationship's type, ends and properties, read before the export and after the import),
not against the JSON, so a codec that lost a type or a digit would fail here. The codec and the
file checks at the top are pure and need no server.
"""

from __future__ import annotations

import json
import math
import re
from collections import Counter
from datetime import UTC, date, datetime, time, timedelta, timezone
from pathlib import Path
from typing import Any

import pytest

from kgmem.errors import InvalidInput
from kgmem.graph import repository
from kgmem.graph import transfer_repository as tr
from kgmem.graph.catalog import get_query, load_catalog, load_schema
from kgmem.records import Turn
from kgmem.service import Kgmem
from kgmem.transfer.codec import decode_value, encode_value
from kgmem.transfer.lines import end_line, header_line, node_line, parse_record
from kgmem.transfer.records import NODE_LABELS, REL_TYPES, VERSION, NodeRecord
from kgmem.transfer.scan import scan_file

T0 = datetime(2023, 5, 8, 14, 0, tzinfo=UTC)


# --- the codec and the file checks (pure) ---------------------------------------------------------


@pytest.mark.parametrize(
    "value",
    [
        'text with ünïcode and "quotes"',
        0,
        -(2**63),
        2**63 - 1,
        0.1,
        -0.0,
        1e-300,
        True,
        datetime(2024, 2, 29, 23, 59, 59, 999999, tzinfo=UTC),
        datetime(2024, 5, 1, 10, 0, tzinfo=timezone(timedelta(hours=5, minutes=30))),
        datetime(2024, 5, 1, 10, 0, 0, 123),
        date(1999, 12, 31),
        time(7, 30, 1, 500),
        time(7, 30, tzinfo=timezone(timedelta(hours=-3))),
        b"\x00\xffbytes",
        [0.123456789012345678, -1.5, 3.0],
        ["a", "b"],
        [datetime(2024, 1, 1, tzinfo=UTC), datetime(2024, 1, 2, tzinfo=UTC)],
        [],
    ],
)
def test_every_property_type_round_trips_with_its_type(value: Any) -> None:
    line = json.dumps(encode_value(value, "t"))
    back = decode_value(json.loads(line), "t")
    assert back == value
    assert type(back) is type(value)
    if isinstance(value, datetime | time):
        assert back.utcoffset() == value.utcoffset()  # the offset survives, not just the instant


def test_non_finite_floats_are_typed_so_every_line_is_strict_json() -> None:
    for value in (math.inf, -math.inf):
        encoded = encode_value(value, "t")
        assert encoded == {"$type": "float", "value": repr(value)}
        assert decode_value(encoded, "t") == value
    assert math.isnan(decode_value(encode_value(math.nan, "t"), "t"))
    assert encode_value(1.0, "t") == 1.0


def test_embeddings_survive_json_bit_for_bit() -> None:
    vector = [math.sin(i) / 7 for i in range(384)]
    line = node_line("Memory", {"id": "m", "namespace": "n", "embedding": vector}, "m")
    record = parse_record(line, 2, "f:2")
    assert isinstance(record, NodeRecord)
    assert record.props["embedding"] == vector
    assert [x.hex() for x in record.props["embedding"]] == [x.hex() for x in vector]


def _file(tmp_path: Path, *lines: str, end: tuple[int, int] | None = None) -> Path:
    header = header_line("demo", T0)
    body = list(lines)
    if end is not None:
        body.append(end_line(*end))
    path = tmp_path / "in.jsonl"
    path.write_text("\n".join([header, *body]) + "\n", encoding="utf-8")
    return path


NODE = json.dumps({"kind": "node", "label": "Memory", "props": {"id": "m1", "namespace": "demo"}})
NODE2 = json.dumps({"kind": "node", "label": "Entity", "props": {"id": "e1", "namespace": "demo"}})
EDGE = json.dumps(
    {
        "kind": "edge",
        "type": "MENTIONS",
        "start": {"label": "Memory", "id": "m1"},
        "end": {"label": "Entity", "id": "e1"},
        "props": {"confidence": 0.9},
    }
)


def _scoped(line: str, namespace: str) -> str:
    """The record with its namespace and ids moved into the test's namespace.

    Rewritten structurally, not by string replacement: a random namespace can itself contain
    "m1" or "e1", and a textual replace would then corrupt the ids it just wrote.
    """
    record = json.loads(line)
    if record["kind"] == "node":
        record["props"]["namespace"] = namespace
        record["props"]["id"] = f"{namespace}-{record['props']['id']}"
    else:
        for end in ("start", "end"):
            record[end]["id"] = f"{namespace}-{record[end]['id']}"
    return json.dumps(record)


@pytest.mark.parametrize(
    ("lines", "end", "message"),
    [
        ((NODE, "{not json"), (2, 0), r":3: not valid JSON"),
        (
            (NODE, '{"kind": "node", "label": "Robot", "props": {}}'),
            (2, 0),
            r":3: unknown node label",
        ),
        ((NODE, EDGE.replace("MENTIONS", "HATES")), (1, 1), r":3: unknown relationship type"),
        (
            (NODE.replace('"demo"}', '"demo", "x": null}'),),
            (1, 0),
            r":2, property .x.: null is not a property",
        ),
        (
            (NODE.replace('"demo"}', '"demo", "x": [[1]]}'),),
            (1, 0),
            r":2, property .x.: lists cannot be nested",
        ),
        (
            (NODE.replace('"demo"}', '"demo", "x": [1, "a"]}'),),
            (1, 0),
            r":2, property .x.: a list property mixes",
        ),
        (
            (NODE.replace('"demo"}', '"demo", "x": {"a": 1}}'),),
            (1, 0),
            r":2, property .x.: a property value must",
        ),
        ((NODE.replace('"demo"}', '"demo", "x": NaN}'),), (1, 0), r":2: not valid JSON"),
        (
            (NODE.replace('"demo"}', '"demo", "x": {"$type": "datetime", "value": "soon"}}'),),
            (1, 0),
            r":2, property .x.: bad datetime value .soon.",
        ),
        ((NODE.replace('"namespace": "demo"', '"namespace": "bad ns"'),), (1, 0), r":2: namespace"),
        ((NODE.replace('"id": "m1", ', ""),), (1, 0), r":2: a node needs a non-empty string 'id'"),
        ((NODE, NODE2, EDGE, NODE.replace("m1", "m2")), (3, 1), r":5: a node after the edges"),
        ((NODE, NODE), (2, 0), r":3: Memory 'm1' appears twice \(first on line 2\)"),
        ((NODE,), None, r"no end record: the file is truncated"),
        ((NODE,), (2, 0), r"end record counts 2 nodes and 0 edges but the file holds 1 and 0"),
        ((NODE, "[1, 2]"), (1, 0), r":3: each line must be a JSON object"),
    ],
)
def test_a_bad_line_is_refused_naming_it(
    tmp_path: Path, lines: tuple[str, ...], end: tuple[int, int] | None, message: str
) -> None:
    with pytest.raises(InvalidInput, match=message):
        scan_file(_file(tmp_path, *lines, end=end))


def test_a_file_that_is_not_an_export_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "turns.jsonl"
    path.write_text('{"text": "hello"}\n', encoding="utf-8")
    with pytest.raises(InvalidInput, match=r":1: 'kind' must be"):
        scan_file(path)
    path.write_text(NODE + "\n", encoding="utf-8")
    with pytest.raises(InvalidInput, match=r":1: not a kgmem export"):
        scan_file(path)
    path.write_bytes(b"")
    with pytest.raises(InvalidInput, match="empty"):
        scan_file(path)
    path.write_bytes(header_line(None, T0).encode() + b"\n\xff\xfe\n")
    with pytest.raises(InvalidInput, match=r":2: not UTF-8"):
        scan_file(path)
    with pytest.raises(InvalidInput, match="cannot read"):
        scan_file(tmp_path / "missing.jsonl")


def test_the_import_queries_cover_every_label_and_the_schema() -> None:
    """A label kgmem gives a unique id must be exportable, and each one needs a literal branch
    in both import queries (dynamic labels would not use the id index)."""
    constrained = {
        m.group(1)
        for _, stmt in load_schema()
        for m in [re.search(r"FOR \(n:(\w+)\) REQUIRE n\.id IS UNIQUE", stmt)]
        if m
    }
    assert constrained <= set(NODE_LABELS)
    # every label and relationship type any query names can be exported and imported
    named_labels, named_types = set(), set()
    for query in load_catalog().values():
        body = _strip_comments(query.text)
        named_labels |= set(re.findall(r"\(\w*:(\w+)", body))
        named_labels |= set(re.findall(r"\b(?:SET|REMOVE) \w+:(\w+)", body))
        named_types |= set(re.findall(r"\[\w*:(\w+)", body))
        named_types |= {
            t for alt in re.findall(r"\[\w*:(\w+(?:\|\w+)+)", body) for t in alt.split("|")
        }
    assert named_labels <= set(NODE_LABELS)
    assert named_types <= REL_TYPES
    nodes, edges = get_query("import_nodes").text, get_query("import_edges").text
    for label in NODE_LABELS:
        assert f"row.label = '{label}'" in nodes, label
        assert f"row.start_label = '{label}'" in edges, label
        assert f"row.end_label = '{label}'" in edges, label


def _strip_comments(text: str) -> str:
    return "\n".join(ln for ln in text.splitlines() if not ln.lstrip().startswith("//"))


# --- the round trip on the real stack -------------------------------------------------------------


def _turn(text: str, minutes: int, speaker: str = "Caroline") -> Turn:
    return Turn(text=text, speaker=speaker, session_id="s1", at=T0 + timedelta(minutes=minutes))


def _build_graph(km: Kgmem, arun: Any, ns: str) -> None:
    """Episodes, memories with entities and typed relations, a supersession with its audit
    record, boxes and traces, co-activation from a recall, a manual status change, and what a
    consolidation run leaves behind."""
    turns = [
        _turn("My friend Jon Smith works at Acme Corp in Boston.", 0),
        _turn("I love green tea in the morning.", 5),
        _turn("Jon Smith is married to Maria Lopez, who manages the Boston office.", 10),
        _turn("Actually, I don't love green tea anymore, I prefer black coffee now.", 60 * 24),
    ]
    for turn in turns:
        arun(km.observe([turn], namespace=ns, flush=True))
    receipt = arun(
        km.remember("The quarterly review is on the first Monday of March.", namespace=ns)
    )
    arun(km.recall("what does Caroline drink in the morning", namespace=ns, limit=5))
    arun(km.set_status(receipt.memory_id, "challenged", reason="double-check", namespace=ns))
    if hasattr(km, "consolidate"):  # the lifecycle's records too: lease, topics, tier audit
        arun(km.consolidate(namespace=ns))


Snapshot = tuple[dict[tuple[str, str], Any], Counter[tuple[Any, ...]]]


def _snapshot(km: Kgmem, arun: Any, ns: str) -> Snapshot:
    """Every node (by label and id → its properties) and every relationship (a multiset), as
    the driver returns them — independent of the JSON codec."""
    nodes: dict[tuple[str, str], Any] = {}
    after = ""
    while rows := arun(tr.find_export_nodes(km.graph, namespace=ns, after=after, limit=7)):
        for row in rows:
            nodes[(row["labels"][0], row["props"]["id"])] = (row["labels"], row["props"])
        after = rows[-1]["key"]
    edges: Counter[tuple[Any, ...]] = Counter()
    after = ""
    while rows := arun(tr.find_export_edges(km.graph, namespace=ns, after=after, limit=7)):
        for row in rows:
            # repr: 1 and 1.0 compare equal in Python but are different Neo4j values
            props = tuple(sorted((k, repr(v)) for k, v in row["props"].items()))
            edges[(row["type"], row["start_id"], row["end_id"], props)] += 1
        after = rows[-1]["key"]
    return nodes, edges


def test_export_wipe_import_gives_back_the_same_graph(
    km: Kgmem, arun: Any, namespace: str, tmp_path: Path
) -> None:
    _build_graph(km, arun, namespace)
    stats = arun(km.stats(namespace=namespace))
    nodes, edges = _snapshot(km, arun, namespace)
    labels = {label for label, _ in nodes}
    assert {"Memory", "Episode", "Entity", "Box", "Trace", "StatusChange"} <= labels
    kinds = {key[0] for key in edges}
    assert {"MENTIONS", "DERIVED_FROM", "RELATED", "SUPERSEDES", "IN_BOX"} <= kinds
    query = "what does Caroline drink in the morning"
    hits_before = arun(km.recall(query, namespace=namespace, limit=5, dry=True)).hits

    path = tmp_path / "graph.jsonl"
    progress: list[tuple[int, int]] = []
    report = arun(
        km.export_graph(path, namespace=namespace, progress=lambda d, t: progress.append((d, t)))
    )
    assert (report.nodes, report.edges) == (len(nodes), sum(edges.values()))
    assert report.namespaces == (namespace,)
    assert progress[-1] == (report.nodes + report.edges,) * 2
    assert not path.with_name(path.name + ".part").exists()

    arun(km.wipe_namespace(namespace))
    assert _snapshot(km, arun, namespace) == ({}, Counter())

    imported = arun(km.import_graph(path, batch_size=7))  # several batches of each kind
    assert (imported.nodes_created, imported.edges_created) == (report.nodes, report.edges)
    after_nodes, after_edges = _snapshot(km, arun, namespace)
    assert after_nodes.keys() == nodes.keys()
    for key, (labels_before, props_before) in nodes.items():
        labels_after, props_after = after_nodes[key]
        assert labels_after == labels_before, key
        assert props_after == props_before, key  # every property, every value
        for name, value in props_before.items():  # and every type (1 vs 1.0, tz offsets)
            assert type(props_after[name]) is type(value), (key, name)
    assert after_edges == edges
    assert arun(km.stats(namespace=namespace)) == stats
    for (label, node_id), (_, props) in nodes.items():
        if label in ("Memory", "Entity"):  # embeddings exactly, bit for bit
            restored = after_nodes[(label, node_id)][1]["embedding"]
            assert len(restored) == 384
            assert [x.hex() for x in restored] == [x.hex() for x in props["embedding"]]
    # the indexes serve the imported graph: the same recall finds the same memories
    hits_after = arun(km.recall(query, namespace=namespace, limit=5, dry=True)).hits
    assert [h.memory_id for h in hits_after] == [h.memory_id for h in hits_before]

    again = arun(km.import_graph(path))  # idempotent
    assert (again.nodes_created, again.edges_created) == (0, 0)
    assert _snapshot(km, arun, namespace) == (after_nodes, after_edges)
    second = tmp_path / "again.jsonl"
    arun(km.export_graph(second, namespace=namespace))
    lines = sorted(path.read_text().splitlines()[1:])
    assert sorted(second.read_text().splitlines()[1:]) == lines


def test_identical_relationships_keep_their_count(
    km: Kgmem, arun: Any, namespace: str, tmp_path: Path
) -> None:
    node, other, edge = (_scoped(line, namespace) for line in (NODE, NODE2, EDGE))
    path = _file(tmp_path, node, other, edge, edge, edge, end=(2, 3))
    first = arun(km.import_graph(path, batch_size=2))
    assert (first.nodes_created, first.edges_created) == (2, 3)
    second = arun(km.import_graph(path))
    assert second.edges_created == 0
    assert arun(km.stats(namespace=namespace))["relationships"] == {"MENTIONS": 3}


def test_a_bad_line_anywhere_writes_nothing(
    km: Kgmem, arun: Any, namespace: str, tmp_path: Path
) -> None:
    good = _scoped(NODE, namespace)
    bad = good.replace('"Memory"', '"Robot"')
    path = _file(tmp_path, good, _scoped(NODE.replace("m1", "m2"), namespace), bad, end=(3, 0))
    with pytest.raises(InvalidInput, match=r"in\.jsonl:4: unknown node label 'Robot'"):
        arun(km.import_graph(path))
    assert arun(km.stats(namespace=namespace))["nodes"] == 0


def test_a_batch_that_cannot_land_whole_rolls_back_and_names_the_line(
    km: Kgmem, arun: Any, namespace: str, tmp_path: Path
) -> None:
    node, other, good = (_scoped(line, namespace) for line in (NODE, NODE2, EDGE))
    dangling = _scoped(EDGE.replace('"e1"', '"nowhere"'), namespace)
    path = _file(tmp_path, node, other, good, dangling, end=(2, 2))
    with pytest.raises(
        InvalidInput, match=r":5: MENTIONS from Memory .* an endpoint does not exist"
    ):
        arun(km.import_graph(path, batch_size=10))
    after = arun(km.stats(namespace=namespace))
    assert after["nodes"] == 2  # the node batch landed before the edge batch
    assert not after["relationships"]  # the good edge shared the failed batch: rolled back


def test_an_id_owned_by_another_namespace_is_not_taken_over(
    km: Kgmem, arun: Any, namespace: str, tmp_path: Path
) -> None:
    receipt = arun(km.remember("Zed keeps bees on the roof.", namespace=namespace))
    other = f"{namespace}-x"
    stolen = json.dumps(
        {"kind": "node", "label": "Memory", "props": {"id": receipt.memory_id, "namespace": other}}
    )
    path = _file(tmp_path, stolen, end=(1, 0))
    with pytest.raises(InvalidInput, match=rf"already belongs to namespace '{namespace}'"):
        arun(km.import_graph(path))
    row = arun(repository.get_memory(km.graph, namespace=namespace, memory_id=receipt.memory_id))
    assert row is not None and row["memory"]["content"] == "Zed keeps bees on the roof."
    assert arun(km.stats(namespace=other))["nodes"] == 0


def test_export_of_every_namespace(km: Kgmem, arun: Any, namespace: str, tmp_path: Path) -> None:
    other = f"{namespace}-b"
    try:
        arun(km.remember("Ann plays the cello.", namespace=namespace))
        arun(km.remember("Ben plays the drums.", namespace=other))
        report = arun(km.export_graph(tmp_path / "all.jsonl"))
        assert {namespace, other} <= set(report.namespaces)
        header = json.loads((tmp_path / "all.jsonl").read_text().splitlines()[0])
        assert header["namespace"] is None and header["version"] == VERSION
    finally:
        arun(km.wipe_namespace(other))


def test_export_refuses_a_bad_namespace_and_an_unwritable_path(
    km: Kgmem, arun: Any, tmp_path: Path
) -> None:
    with pytest.raises(InvalidInput, match="namespace"):
        arun(km.export_graph(tmp_path / "x.jsonl", namespace="no spaces"))
    with pytest.raises(InvalidInput, match="cannot write"):
        arun(km.export_graph(tmp_path / "missing-dir" / "x.jsonl", namespace="default"))


def test_an_edge_may_not_join_another_namespace(
    km: Kgmem, arun: Any, namespace: str, tmp_path: Path
) -> None:
    """An import writes only inside the namespaces its file holds: an edge from the file's memory
    to an entity of another namespace (which recall's entity channel would then follow), or an
    edge between two nodes of a namespace the file does not hold, is refused naming the line, and
    nothing of its batch lands."""
    victim = f"{namespace}-v"
    try:
        arun(km.remember("Ann plays the cello in Lisbon.", namespace=victim))
        arun(km.export_graph(tmp_path / "victim.jsonl", namespace=victim))
        records = [json.loads(x) for x in (tmp_path / "victim.jsonl").read_text().splitlines()]
        nodes = [r for r in records if r.get("kind") == "node"]
        entity = next(r["props"]["id"] for r in nodes if r["label"] == "Entity")
        memory = next(r["props"]["id"] for r in nodes if r["label"] == "Memory")
        before = arun(km.stats(namespace=victim))
        node = _scoped(NODE, namespace)
        mine = json.loads(node)["props"]["id"]
        for start in (mine, memory):  # into the victim's namespace; among its own nodes
            edge = json.dumps(
                {
                    "kind": "edge",
                    "type": "MENTIONS",
                    "start": {"label": "Memory", "id": start},
                    "end": {"label": "Entity", "id": entity},
                    "props": {"confidence": 0.9},
                }
            )
            path = _file(tmp_path, node, edge, end=(1, 1))
            with pytest.raises(
                InvalidInput,
                match=rf":3: MENTIONS from Memory .*\(namespace '{victim}'\): a relationship "
                "may only join two nodes of one namespace the file holds",
            ):
                arun(km.import_graph(path))
        assert arun(km.stats(namespace=victim)) == before
        assert not arun(km.stats(namespace=namespace))["relationships"]
    finally:
        arun(km.wipe_namespace(victim))
