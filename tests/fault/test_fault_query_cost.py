"""The complexity estimate matches what resolves: every list of the schema is bounded, nested
shapes are estimated within 2x of the fields they resolve on a graph whose pages are full, and
the run-time caps (result size, timeout) answer a typed error, not a hang.

The graph is built through the product's own import: one memory is remembered (real models),
exported, and its records are copied into a namespace where each of 30 memories mentions each
of 12 entities, so every default page (a memory's 10 entities, an entity's 20 memories) is full.
"""

from __future__ import annotations

import json
import uuid
from collections.abc import Iterator
from contextlib import AsyncExitStack
from pathlib import Path
from typing import Any

import pytest
from api.helpers import ADMIN_KEY, Api, api_settings, running
from graphql import (
    FragmentDefinitionNode,
    GraphQLList,
    GraphQLObjectType,
    OperationDefinitionNode,
    get_named_type,
    get_nullable_type,
    parse,
)

from kgmem.api import create_app
from kgmem.api.cost import BY_PARENT_PAGE, FIXED_LISTS, operation_cost, page_argument
from kgmem.api.schema import build_schema
from kgmem.service import Kgmem
from kgmem.settings import Settings

pytestmark = [pytest.mark.graph, pytest.mark.models]

MEMORIES, ENTITIES = 30, 12


def _dense_export(source: Path, target: Path, ns: str) -> None:
    """Copy the one memory and entity of ``source`` into MEMORIES x ENTITIES, all mentioned."""
    lines = [json.loads(line) for line in source.read_text().splitlines() if line.strip()]
    memory = next(r for r in lines if r["kind"] == "node" and r["label"] == "Memory")
    entity = next(r for r in lines if r["kind"] == "node" and r["label"] == "Entity")
    mention = next(
        r
        for r in lines
        if r["kind"] == "edge" and r["start"]["label"] == "Memory" and r["end"]["label"] == "Entity"
    )
    out = [{**lines[0], "namespace": ns}]
    mids, eids = [], []
    for i in range(MEMORIES):
        props = {**memory["props"], "id": f"m-{uuid.uuid4()}", "namespace": ns}
        props["content"] = f"Dense memory number {i}."
        props["content_hash"] = uuid.uuid4().hex
        mids.append(props["id"])
        out.append({**memory, "props": props})
    for i in range(ENTITIES):
        props = {**entity["props"], "id": f"e-{uuid.uuid4()}", "namespace": ns}
        props["name"] = props["normalized_name"] = f"dense entity {i}"
        eids.append(props["id"])
        out.append({**entity, "props": props})
    edges = 0
    for m in mids:
        for e in eids:
            start = {**mention["start"], "id": m}
            end = {**mention["end"], "id": e}
            out.append({**mention, "start": start, "end": end})
            edges += 1
    out.append({"kind": "end", "nodes": MEMORIES + ENTITIES, "edges": edges})
    target.write_text("".join(json.dumps(r) + "\n" for r in out))


@pytest.fixture(scope="module")
def dense(
    server_settings: Settings, km: Kgmem, arun: Any, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[tuple[Api, str]]:
    seed, ns = f"seed-{uuid.uuid4().hex[:8]}", f"dense-{uuid.uuid4().hex[:8]}"
    folder = tmp_path_factory.mktemp("dense")
    arun(km.remember("Jon Smith works at Acme Corp in Paris.", namespace=seed))
    arun(km.export_graph(folder / "seed.jsonl", namespace=seed))
    _dense_export(folder / "seed.jsonl", folder / "dense.jsonl", ns)
    arun(km.import_graph(folder / "dense.jsonl"))
    settings = api_settings(
        server_settings, api_keys={ADMIN_KEY: ["*"]}, api_preload_models=False, namespace=ns
    )
    app = create_app(settings)
    stack = AsyncExitStack()
    client = arun(stack.enter_async_context(running(app)))
    try:
        yield Api(app, client, arun, ns_a=ns, ns_b=ns), ns
    finally:
        arun(stack.aclose())
        for n in (seed, ns):
            arun(km.wipe_namespace(n))


def _estimate(document: str, settings: Settings) -> int:
    doc = parse(document)
    schema = build_schema(settings)._schema
    fragments = {d.name.value: d for d in doc.definitions if isinstance(d, FragmentDefinitionNode)}
    (op,) = [d for d in doc.definitions if isinstance(d, OperationDefinitionNode)]
    return operation_cost(op, schema, fragments, settings.api_max_page_size)


def _resolved(value: Any) -> int:
    """Fields in a response: every key of every object (a list's items are counted inside)."""
    if isinstance(value, dict):
        return sum(1 + _resolved(v) for v in value.values())
    if isinstance(value, list):
        return sum(_resolved(v) for v in value)
    return 0


ISSUE_QUERY = (
    "{ memories(first:100){nodes{id entities{memories{id entities{memories{id entities{"
    "memories{id}}}}}}}} }"
)

SHAPES = [
    "{ memories { nodes { id } } }",
    "{ memories(first: 5) { nodes { id entities { id name } } } }",
    "{ memories(first: 3) { nodes { id entities { memories { id } } } } }",
    "{ memories(first: 2) { edges { cursor node { id entities(first: 4) { id "
    "memories(first: 5) { id entities(first: 3) { id } } } } } pageInfo { hasNextPage } } }",
    "{ entities(first: 5) { id memories { id content entities { name } } } }",
    "{ entities(first: 2) { name memories(first: 3) { entities { memories(first: 4) { id } } } } }",
    "query { memories(first: 4) { nodes { ...M } } } fragment M on Memory { id entities { id } }",
]


def test_every_list_of_objects_in_the_schema_is_bounded() -> None:
    schema = build_schema(Settings())._schema
    unbounded = []
    paged = 0
    for type_ in schema.type_map.values():
        if not isinstance(type_, GraphQLObjectType) or type_.name.startswith("__"):
            continue
        for name, field in type_.fields.items():
            nullable = get_nullable_type(field.type)
            if not isinstance(nullable, GraphQLList):
                continue
            if not isinstance(get_named_type(field.type), GraphQLObjectType):
                continue  # a list of scalars is one value of the response
            key = f"{type_.name}.{name}"
            if page_argument(field) is not None:
                paged += 1
            elif key not in BY_PARENT_PAGE and key not in FIXED_LISTS:
                unbounded.append(key)
    assert unbounded == [], f"lists of objects with no page and no known bound: {unbounded}"
    assert paged >= 15  # Query lists, Memory/Entity/Box nested lists, facts, the X-ray


def test_the_reported_nested_query_is_refused_before_it_runs(dense: tuple[Api, str]) -> None:
    api, ns = dense
    before = api.km.graph.statements_run
    out = api.gql(
        ISSUE_QUERY.replace("memories(first:100)", f'memories(first:100, namespace:"{ns}")')
    )
    assert out.get("data") is None, "the 964,985-object query ran"
    assert out["errors"][0]["extensions"]["code"] == "query_too_complex"
    assert api.km.graph.statements_run == before
    omitted = "{ memories { nodes { entities { memories { entities { id } } } } } }"
    # 20 memories x 10 entities x 20 memories x 10 entities: the omitted pages count
    assert _estimate(omitted, api.app.state.settings) > 20 * 10 * 20 * 10


@pytest.mark.parametrize("shape", SHAPES)
def test_the_estimate_is_within_2x_of_the_fields_resolved(
    dense: tuple[Api, str], shape: str
) -> None:
    api, _ = dense
    document = shape  # the app answers in the dense namespace by default
    data = api.ok(document)
    resolved = _resolved(data)
    estimate = _estimate(document, api.app.state.settings)
    assert resolved <= estimate <= 2 * resolved, (document, estimate, resolved)


def test_a_response_past_the_result_cap_is_one_typed_error(
    server_settings: Settings, dense: tuple[Api, str], arun: Any
) -> None:
    _, ns = dense
    big = (
        f'{{ memories(first: 30, namespace: "{ns}") {{ nodes {{ id entities {{ id name }} }} }} }}'
    )
    small = f'{{ memories(first: 3, namespace: "{ns}") {{ nodes {{ id }} }} }}'
    for update, code in (
        ({"api_max_result_fields": 200}, "result_too_large"),
        ({"api_request_timeout_s": 0.001}, "timeout"),
    ):
        settings = api_settings(
            server_settings, api_keys={ADMIN_KEY: ["*"]}, api_preload_models=False, **update
        )
        app = create_app(settings)

        async def ask(app: Any = app) -> list[dict[str, Any]]:
            async with running(app) as client:
                answers = []
                for document in (big, small):
                    r = await client.post(
                        "/graphql",
                        json={"query": document},
                        headers={"Authorization": f"Bearer {ADMIN_KEY}"},
                    )
                    answers.append(r.json())
                return answers

        refused, fine = arun(ask())
        assert refused.get("data") is None, refused
        assert [e["extensions"]["code"] for e in refused["errors"]] == [code], refused
        if code == "result_too_large":
            assert "more than 200 fields" in refused["errors"][0]["message"]
            assert not fine.get("errors") and len(fine["data"]["memories"]["nodes"]) == 3
