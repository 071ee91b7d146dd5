"""Faults with real processes: Neo4j, the client and a consolidation worker killed with SIGKILL.

Each case runs the ``kgmem`` CLI as a real subprocess against a Neo4j + GDS server of its own
(so killing it does not touch the session's shared server), kills one party mid-work, and checks
what a user relies on afterwards:

- Neo4j killed during ``observe``: the CLI stops with one clean error line (no traceback); after
  a restart the same file observed again leaves exactly one episode per turn, every episode
  extracted, and no two memories with the same content.
- The client killed during ``observe``: the same, with the server never down.
- A consolidation worker killed mid-run: its lease blocks a second run with ``lease_held`` until
  it expires, then the next run takes over and completes (a new epoch).
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
import uuid
from collections import Counter
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from support.servers import own_neo4j

from kgmem.local_server.launcher import LocalServer
from kgmem.service import Kgmem
from kgmem.settings import Settings

TURNS = 40
LEASE_S = 8.0

PEOPLE = ("Maya", "Omar", "Lena", "Tomas", "Priya")
FACTS = (
    "I started working as a nurse at the children's hospital in {city}.",
    "My sister {other} is visiting me in {city} next weekend.",
    "I adopted a grey cat and named her Pixel.",
    "I'm training for the {city} half marathon in October.",
    "We booked a cabin near the lake for the holidays.",
    "I finally finished reading the book about the history of {city}.",
    "My landlord raised the rent to 1,450 dollars a month.",
    "I signed up for a pottery class on Thursday evenings.",
)
CITIES = ("Denver", "Lisbon", "Osaka", "Toronto", "Nairobi")


def write_conversation(path: Path, session: str) -> Path:
    """Forty distinct turns by five people, with stable turn ids (what makes re-observing safe)."""
    lines = []
    for i in range(TURNS):
        who = PEOPLE[i % len(PEOPLE)]
        text = FACTS[i % len(FACTS)].format(
            city=CITIES[(i // len(FACTS)) % len(CITIES)], other=PEOPLE[(i + 1) % len(PEOPLE)]
        )
        lines.append(
            json.dumps(
                {
                    "speaker": who,
                    "session_id": session,
                    "turn_id": f"{session}:{i + 1}",
                    "at": f"2025-05-{1 + i // 4:02d}T10:{i % 60:02d}:00Z",
                    "text": f"{text} ({who}, note {i + 1})",
                }
            )
        )
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return path


@pytest.fixture(scope="module")
def own(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[Settings, LocalServer]]:
    """A server only this module uses, so it can be killed and restarted."""
    home = tmp_path_factory.mktemp("fault-neo4j")
    with own_neo4j(home, consolidation_lease_s=LEASE_S) as started:
        yield started


@pytest.fixture(scope="module")
def own_server(own: tuple[Settings, LocalServer]) -> LocalServer:
    return own[1]


@pytest.fixture(scope="module")
def own_settings(own: tuple[Settings, LocalServer]) -> Settings:
    return own[0]


@pytest.fixture(scope="module")
def bare_env(own_settings: Settings) -> dict[str, str]:
    s = own_settings
    return {
        **os.environ,
        "KGMEM_NEO4J_URI": s.neo4j_uri,
        "KGMEM_NEO4J_AUTH": "false",
        "KGMEM_BOLT_PORT": str(s.bolt_port),
        "KGMEM_HOME": str(s.home),
        "KGMEM_CONSOLIDATION_LEASE_S": str(LEASE_S),
        "KGMEM_NEO4J_TIMEOUT_S": "5",
    }


@pytest.fixture(scope="module")
def env(bare_env: dict[str, str]) -> dict[str, str]:
    """The server's settings, once its schema is applied (``kgmem db init``, as a user would)."""
    rc, out, err = finish(kgmem_cli("db", "init", env=bare_env))
    assert rc == 0, (out, err)
    return bare_env


@pytest.fixture
def ns() -> str:
    return f"fault-{uuid.uuid4().hex[:10]}"


def kgmem_cli(*args: str, env: dict[str, str]) -> subprocess.Popen[str]:
    return subprocess.Popen(
        [sys.executable, "-m", "kgmem", *args],
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )


def finish(proc: subprocess.Popen[str], timeout: float = 600) -> tuple[int, str, str]:
    out, err = proc.communicate(timeout=timeout)
    return proc.returncode, out, err


def no_traceback(out: str, err: str) -> None:
    assert "Traceback" not in out + err, err[-3000:]


def stats(settings: Settings, arun: Any, namespace: str) -> dict[str, Any]:
    async def read() -> dict[str, Any]:
        async with Kgmem(settings) as km:
            return await km.stats(namespace=namespace)

    found: dict[str, Any] = arun(read())
    return found


def wait_for(cond: Callable[[], bool], proc: subprocess.Popen[str], what: str) -> None:
    """Poll until ``cond`` holds while ``proc`` still runs; fail if it ended first."""
    deadline = time.monotonic() + 300
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            pytest.fail(f"the process ended before {what}: {proc.communicate()}")
        if cond():
            return
        time.sleep(0.05)
    pytest.fail(f"timed out waiting for {what}")


def export_nodes(env: dict[str, str], namespace: str, path: Path) -> list[dict[str, Any]]:
    rc, _, err = finish(kgmem_cli("export", str(path), "-n", namespace, env=env))
    assert rc == 0, err
    records = [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines()]
    return [r for r in records if r["kind"] == "node"]


def assert_whole(env: dict[str, str], namespace: str, tmp_path: Path) -> None:
    """One episode per turn, all of them extracted, no memory stored twice."""
    nodes = export_nodes(env, namespace, tmp_path / "export.jsonl")
    episodes = [n["props"] for n in nodes if n["label"] == "Episode"]
    turn_ids = Counter(e["turn_id"] for e in episodes)
    assert len(turn_ids) == TURNS and max(turn_ids.values()) == 1, turn_ids
    assert all(e["extracted"] for e in episodes), [e["turn_id"] for e in episodes]
    hashes = Counter(n["props"]["content_hash"] for n in nodes if n["label"] == "Memory")
    assert hashes and max(hashes.values()) == 1, hashes.most_common(3)


def test_a_database_never_initialised_says_what_to_run(bare_env: dict[str, str], ns: str) -> None:
    rc, out, err = finish(kgmem_cli("recall", "where does Maya work?", "-n", ns, env=bare_env))
    assert rc == 1, (out, err)
    no_traceback(out, err)
    assert err.startswith("error: ") and "kgmem db init" in err, err


def test_neo4j_killed_during_observe(
    own_server: LocalServer,
    own_settings: Settings,
    env: dict[str, str],
    ns: str,
    arun: Any,
    tmp_path: Path,
) -> None:
    convo = write_conversation(tmp_path / "turns.jsonl", "kill-db")
    proc = kgmem_cli("observe", str(convo), "-n", ns, "--chunk", "4", env=env)
    wait_for(
        lambda: stats(own_settings, arun, ns)["labels"].get("Episode", 0) > 0,
        proc,
        "the first episodes were stored",
    )
    info = own_server.status()
    assert info is not None
    os.killpg(info.pid, signal.SIGKILL)
    rc, out, err = finish(proc)
    assert rc == 1, (out, err)
    no_traceback(out, err)
    assert err.strip().startswith("error: "), err
    own_server.start()
    rc, out, err = finish(kgmem_cli("observe", str(convo), "-n", ns, env=env))
    assert rc == 0, err
    no_traceback(out, err)
    assert_whole(env, ns, tmp_path)


def test_client_killed_during_observe(
    own_server: LocalServer,
    own_settings: Settings,
    env: dict[str, str],
    ns: str,
    arun: Any,
    tmp_path: Path,
) -> None:
    convo = write_conversation(tmp_path / "turns.jsonl", "kill-client")
    proc = kgmem_cli("observe", str(convo), "-n", ns, "--chunk", "4", env=env)
    wait_for(
        lambda: stats(own_settings, arun, ns)["labels"].get("Memory", 0) > 0,
        proc,
        "the first memories were stored",
    )
    proc.send_signal(signal.SIGKILL)
    proc.communicate(timeout=60)
    rc, out, err = finish(kgmem_cli("observe", str(convo), "-n", ns, env=env))
    assert rc == 0, err
    no_traceback(out, err)
    assert_whole(env, ns, tmp_path)


def test_worker_killed_mid_consolidation(
    own_server: LocalServer,
    own_settings: Settings,
    env: dict[str, str],
    ns: str,
    arun: Any,
    tmp_path: Path,
) -> None:
    convo = write_conversation(tmp_path / "turns.jsonl", "kill-worker")
    rc, _, err = finish(kgmem_cli("observe", str(convo), "-n", ns, env=env))
    assert rc == 0, err
    worker = kgmem_cli("worker", "-n", ns, "--times", "1", env=env)
    wait_for(
        lambda: stats(own_settings, arun, ns)["labels"].get("Lease", 0) > 0,
        worker,
        "the worker took the consolidation lease",
    )
    worker.send_signal(signal.SIGKILL)
    out, _ = worker.communicate(timeout=60)
    assert "took" not in out, "the worker finished its run before it was killed"
    killed_at = time.monotonic()

    rc, out, err = finish(kgmem_cli("consolidate", "-n", ns, env=env))
    if time.monotonic() - killed_at < LEASE_S:  # still within the dead worker's lease
        assert rc == 1, (out, err)
        no_traceback(out, err)
        assert err.startswith("error: ") and "try again later" in err, err
    time.sleep(max(0.0, LEASE_S - (time.monotonic() - killed_at)) + 0.5)
    rc, out, err = finish(kgmem_cli("consolidate", "-n", ns, "--json", env=env))
    assert rc == 0, err
    no_traceback(out, err)
    report = json.loads(out)
    assert report["ok"] and report["epoch"] == 2, report  # the killed run was epoch 1
    rc, out, err = finish(kgmem_cli("consolidate", "-n", ns, "--json", env=env))
    assert rc == 0, err
    assert json.loads(out)["epoch"] == 3
