"""``kgmem serve --workers 2`` as a user runs it: two API processes on one port, one /metrics.

The command runs as a subprocess on a free port against the session's Neo4j; once ready,
concurrent GraphQL recalls, each on a new connection, all succeed and are served by both
processes (the kernel spreads connections over their sockets), and ``/metrics`` — whichever
process answers — shows both (two ``pid`` values, each with its resident memory and its share
of the recalls). Stopping the command stops both processes.
"""

from __future__ import annotations

import asyncio
import json
import os
import re
import signal
import subprocess
import sys
import time
from typing import Any

import httpx
import pytest
from support.servers import wait_ready

from kgmem.local_server.launcher import free_port
from kgmem.service import Kgmem

pytestmark = [pytest.mark.graph, pytest.mark.models]

KEY = "workers-" + "w" * 32
RECALL = """
query($q: String!, $ns: String) {
  recall(query: $q, namespace: $ns, dry: true) { __typename ... on RecallOk { hits { content } } }
}"""


def test_serve_with_two_workers_answers_concurrent_recalls(
    env: dict[str, str], km: Kgmem, namespace: str, arun: Any
) -> None:
    pytest.importorskip("kgmem.api.app")
    arun(km.remember("Perpetua feeds the lighthouse cats at dawn.", namespace=namespace))
    port = free_port()
    url = f"http://127.0.0.1:{port}"
    proc = subprocess.Popen(
        [sys.executable, "-m", "kgmem", "serve", "--port", str(port), "--workers", "2"],
        env={**os.environ, **env, "KGMEM_API_KEYS": json.dumps({KEY: ["*"]})},
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        wait_ready(url, proc)

        async def recalls() -> list[dict[str, Any]]:
            headers = {"Authorization": f"Bearer {KEY}"}
            fresh = httpx.Limits(max_keepalive_connections=0)  # every request a new connection
            async with httpx.AsyncClient(
                base_url=url, headers=headers, timeout=120, limits=fresh
            ) as client:
                body = {"query": RECALL, "variables": {"q": "Who feeds the cats?", "ns": namespace}}
                sent = [client.post("/graphql", json=body) for _ in range(16)]
                return [r.json() for r in await asyncio.gather(*sent)]

        # Both processes accept on one socket; which one takes a connection is the kernel's
        # and the load's choice, so send rounds of concurrent recalls until both have served
        # (on a loaded machine one process can take a whole round while the other warms up).
        rounds, served = 0, list[tuple[str, str]]()
        while rounds < 6 and len(served) < 2:
            answers = asyncio.run(recalls())
            rounds += 1
            for answer in answers:
                recall = answer["data"]["recall"]
                assert recall["__typename"] == "RecallOk", answer
                assert "Perpetua feeds the lighthouse cats at dawn." in [
                    h["content"] for h in recall["hits"]
                ]
            time.sleep(3)  # each process shares its metrics every 2 s
            metrics = httpx.get(f"{url}/metrics", timeout=10).text
            served = re.findall(
                r'^kgmem_graphql_operations_total\{operation="recall",outcome="ok",pid="(\d+)"\}'
                r" (\S+)",
                metrics,
                re.M,
            )
        rss = re.findall(r'^process_resident_memory_bytes\{pid="(\d+)"\} (\S+)$', metrics, re.M)
        assert len({pid for pid, _ in rss}) == 2, rss
        assert all(float(value) > 50e6 for _, value in rss)  # each holds its own models
        assert metrics.count("# TYPE kgmem_http_requests_total counter") == 1
        assert len(served) == 2 and sum(float(n) for _, n in served) == 16 * rounds, served
    finally:
        proc.send_signal(signal.SIGINT)
        _, stderr = proc.communicate(timeout=90)
    assert "2 processes" in stderr
    assert "Traceback" not in stderr
