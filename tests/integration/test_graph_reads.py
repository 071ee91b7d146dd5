"""Auto-commit reads against the real server: one round trip each, retried through an outage.

``GraphClient.run`` sends a read as RUN + PULL without a transaction, so the driver's managed
transaction retry no longer covers it; ``retry.retrying`` does. A loopback TCP relay stands
between the client and the session's real server so a test can cut every connection and stop
listening (what a restart looks like from the client), then come back on the same port.
"""

from __future__ import annotations

import asyncio
import time
from typing import Any

import pytest

from kgmem.errors import GraphUnavailable, KgmemError
from kgmem.graph import repository
from kgmem.graph.catalog import get_query
from kgmem.graph.client import GraphClient, native
from kgmem.service import Kgmem


class Relay:
    """Forwards loopback connections to the real server; ``cut`` drops them all and stops
    listening, ``resume`` listens again on the same port."""

    def __init__(self, target_port: int) -> None:
        self.target_port = target_port
        self.port = 0
        self.accepted = 0
        self._server: asyncio.Server | None = None
        self._writers: list[asyncio.StreamWriter] = []

    async def resume(self) -> None:
        self._server = await asyncio.start_server(self._link, "127.0.0.1", self.port)
        self.port = self._server.sockets[0].getsockname()[1]

    async def cut(self) -> None:
        assert self._server is not None
        self._server.close()
        for w in self._writers:
            w.close()
        self._writers.clear()
        await self._server.wait_closed()

    async def _link(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        self.accepted += 1
        up_reader, up_writer = await asyncio.open_connection("127.0.0.1", self.target_port)
        self._writers += [writer, up_writer]

        async def pipe(src: asyncio.StreamReader, dst: asyncio.StreamWriter) -> None:
            try:
                while data := await src.read(65536):
                    dst.write(data)
                    await dst.drain()
            except (ConnectionError, OSError):
                pass
            finally:
                dst.close()

        await asyncio.gather(pipe(reader, up_writer), pipe(up_reader, writer))


def _port(km: Kgmem) -> int:
    return int(km.settings.neo4j_uri.rsplit(":", 1)[1])


def _plant(km: Kgmem, arun: Any, namespace: str) -> str:
    return arun(km.remember("Ada keeps the lighthouse logbook.", namespace=namespace)).memory_id


def test_read_survives_a_server_outage(km: Kgmem, arun: Any, namespace: str) -> None:
    mid = _plant(km, arun, namespace)
    relay = Relay(_port(km))

    async def scenario() -> tuple[list[Any], list[Any], float, int]:
        await relay.resume()
        settings = km.settings.model_copy(
            update={"neo4j_uri": f"bolt://127.0.0.1:{relay.port}", "neo4j_timeout_s": 10.0}
        )
        client = await GraphClient(settings).connect()
        try:
            before = await repository.get_recall_candidates(client, namespace=namespace, ids=[mid])
            links = relay.accepted
            await relay.cut()  # the pooled connection dies and nothing listens
            back = asyncio.get_running_loop().call_later(
                1.5, lambda: asyncio.ensure_future(relay.resume())
            )
            started = time.monotonic()
            after = await repository.get_recall_candidates(client, namespace=namespace, ids=[mid])
            back.cancel()
            return before, after, time.monotonic() - started, relay.accepted - links
        finally:
            await client.close()
            await relay.cut()

    before, after, waited, new_links = arun(scenario())
    assert [r.memory.id for r in before] == [mid]
    assert after == before
    assert waited >= 1.4  # it failed while the server was away and got through on a retry
    assert new_links >= 1


def test_read_gives_up_after_the_timeout(km: Kgmem, arun: Any, namespace: str) -> None:
    relay = Relay(_port(km))

    async def scenario() -> float:
        await relay.resume()
        settings = km.settings.model_copy(
            update={"neo4j_uri": f"bolt://127.0.0.1:{relay.port}", "neo4j_timeout_s": 1.5}
        )
        client = await GraphClient(settings).connect()
        await relay.cut()  # gone for good
        started = time.monotonic()
        try:
            with pytest.raises(GraphUnavailable, match="kgmem db start"):
                await repository.get_recall_candidates(client, namespace=namespace, ids=["x"])
        finally:
            await client.close()
        return time.monotonic() - started

    waited = arun(scenario())
    # retries after ~1 s and ~2 s (±20 %); the second failure is past the 1.5 s budget
    assert 1.5 < waited < 6.0


def test_a_rejected_read_is_not_retried(km: Kgmem, arun: Any, namespace: str) -> None:
    # the server refuses the statement (``IN`` over a string): a client error, not retryable
    started = time.monotonic()
    with pytest.raises(KgmemError, match="Neo4j rejected a query"):
        arun(repository.get_recall_candidates(km.graph, namespace=namespace, ids="not a list"))  # type: ignore[arg-type]
    assert time.monotonic() - started < 0.9  # no retry delay (the first is >= 0.8 s)


def _leaves_plain(value: Any) -> bool:
    if isinstance(value, dict):
        return all(type(k) is str and _leaves_plain(v) for k, v in value.items())
    if isinstance(value, list):
        return all(_leaves_plain(v) for v in value)
    return type(value) in (str, int, float, bool, type(None))


def test_a_values_plain_query_gives_what_native_would(km: Kgmem, arun: Any, namespace: str) -> None:
    # get_recall_candidates says ``values: plain``: its rows skip ``native``, so every value the
    # driver decoded must already be plain Python, and equal to what ``native`` would give
    mid = _plant(km, arun, namespace)
    arun(km.remember("Bo reads the logbook on Sundays.", namespace=namespace))
    raw = arun(km.graph.run("get_recall_candidates", namespace=namespace, ids=[mid, "nope"]))
    assert get_query("get_recall_candidates").plain
    assert [r["memory"]["id"] for r in raw[0]["rows"]] == [mid]
    assert raw[0]["rows"][0]["memory"]["embedding"]
    assert _leaves_plain(raw)
    assert [{k: native(v) for k, v in row.items()} for row in raw] == raw
