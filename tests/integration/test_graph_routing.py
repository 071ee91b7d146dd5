"""Reads in READ sessions, writes in WRITE sessions, ``neo4j://`` routing and bookmarks.

On a Neo4j cluster a routing driver sends a READ session to a secondary or read replica and a
WRITE session to the leader, so every query kgmem runs in a READ session must be read-only:
the server's own plan type (``EXPLAIN``) of every read-verb catalog query is ``r``. A dry recall
opens only READ sessions; a recall that touches its hits opens one WRITE session, for the
touch. The routing scheme works against the single local server, and a recall given the
bookmarks of a write (the consistency token) reads that write.
"""

from __future__ import annotations

from typing import Any

import pytest

from kgmem.graph.catalog import load_catalog
from kgmem.service import Kgmem
from kgmem.settings import Settings

pytestmark = [pytest.mark.graph, pytest.mark.models]


def test_every_query_run_in_a_read_session_is_read_only(km: Kgmem, arun: Any) -> None:
    reads = sorted(name for name, q in load_catalog().items() if q.is_read)
    assert len(reads) > 40
    kinds = {name: arun(km.graph.query_type(name)) for name in reads}
    # dbms.components() is a DBMS procedure, typed "s" by the planner; it only reads, and runs
    # in a READ session on every member (the probes call it).
    assert {n: k for n, k in kinds.items() if k != "r"} == {"get_server_info": "s"}
    writes = [n for n, q in load_catalog().items() if not q.is_read and n.startswith("set_")]
    assert arun(km.graph.query_type(writes[0])) in {"w", "rw"}  # the check can tell them apart


def test_a_dry_recall_opens_only_read_sessions(km: Kgmem, namespace: str, arun: Any) -> None:
    arun(km.remember("Tamsin restores old harpsichords in Ghent.", namespace=namespace))
    before = dict(km.graph.sessions)
    result = arun(km.recall("What does Tamsin restore?", namespace=namespace, dry=True))
    assert result.hits
    assert km.graph.sessions["WRITE"] == before["WRITE"]
    assert km.graph.sessions["READ"] > before["READ"]
    before = dict(km.graph.sessions)
    arun(km.recall("What does Tamsin restore?", namespace=namespace))
    assert km.graph.sessions["WRITE"] == before["WRITE"] + 1  # the touch, and only it


def test_the_routing_scheme_works_and_a_token_reads_its_write(
    server_settings: Settings, km: Kgmem, namespace: str, arun: Any
) -> None:
    routed = server_settings.model_copy(
        update={"neo4j_uri": f"neo4j://127.0.0.1:{server_settings.bolt_port}"}
    )

    async def scenario() -> tuple[set[str], list[str]]:
        async with Kgmem(routed) as service:
            with service.writes_bookmarks() as token:
                await service.remember(
                    "Ysolde's kayak is stored at the rowing club.", namespace=namespace
                )
            result = await service.recall(
                "Where is the kayak stored?", namespace=namespace, dry=True, bookmarks=sorted(token)
            )
            return token, [h.content for h in result.hits]

    token, contents = arun(scenario())
    assert token  # the write's bookmarks were gathered
    assert "Ysolde's kayak is stored at the rowing club." in contents


def test_bookmarks_gather_only_inside_their_scope(km: Kgmem, namespace: str, arun: Any) -> None:
    async def scenario() -> tuple[set[str], set[str]]:
        with km.writes_bookmarks() as first:
            await km.remember("Bram plays the oboe.", namespace=namespace)
        await km.remember("Bram also plays the cor anglais.", namespace=namespace)  # no scope
        with km.writes_bookmarks() as second:
            await km.recall("What does Bram play?", namespace=namespace, dry=True)
        return first, second

    first, second = arun(scenario())
    assert len(first) >= 1 and second == set()
