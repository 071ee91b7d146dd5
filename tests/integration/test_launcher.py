"""The local server's own lifecycle: restart keeps data, auth, port clash, CLI status/stop.

These start their own server (auth on, its own home and port) besides the session one.
"""

from __future__ import annotations

import os
import socket
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from kgmem.errors import GraphAuthError, LauncherError
from kgmem.local_server.launcher import LocalServer, free_port
from kgmem.service import Kgmem
from kgmem.settings import Settings

pytestmark = pytest.mark.slow


def _cli(settings: Settings, *args: str) -> subprocess.CompletedProcess[str]:
    env = dict(os.environ)
    env.update(
        {
            "KGMEM_HOME": str(settings.home),
            "KGMEM_BOLT_PORT": str(settings.bolt_port),
            "KGMEM_NEO4J_URI": settings.neo4j_uri,
            "KGMEM_NEO4J_PASSWORD": settings.neo4j_password_value(),
        }
    )
    return subprocess.run(
        [sys.executable, "-m", "kgmem", *args],
        capture_output=True,
        text=True,
        env=env,
        timeout=300,
        check=False,
    )


def test_restart_keeps_data_and_auth_is_enforced(tmp_path: Path, arun: Any) -> None:
    port = free_port()
    settings = Settings(
        home=tmp_path / "home",
        bolt_port=port,
        neo4j_uri=f"bolt://127.0.0.1:{port}",
        neo4j_auth=True,
        neo4j_password="correct-horse-42",
    )  # type: ignore[arg-type]
    started = _cli(settings, "db", "start")
    assert started.returncode == 0, started.stderr + started.stdout
    assert f"bolt://127.0.0.1:{port}" in started.stdout
    try:
        status = _cli(settings, "db", "status")
        assert "running" in status.stdout and "5.26.24" in status.stdout
        assert "2.13.9" in status.stdout

        async def write() -> str:
            async with Kgmem(settings) as km:
                await km.init_schema()
                return (
                    await km.remember(
                        "Persistence check: Zora owns a red kayak.", namespace="persist"
                    )
                ).memory_id

        memory_id = arun(write())
        wrong = Settings(
            neo4j_uri=settings.neo4j_uri, neo4j_auth=True, neo4j_password="wrong-password-1"
        )  # type: ignore[arg-type]
        with pytest.raises(GraphAuthError, match="refused the credentials"):
            arun(Kgmem(wrong).open())
    finally:
        stopped = _cli(settings, "db", "stop")
        assert "stopped" in stopped.stdout, stopped.stdout + stopped.stderr
    status = _cli(settings, "db", "status")
    assert "not running" in status.stdout, status.stdout + status.stderr

    restarted = _cli(settings, "db", "start")
    assert restarted.returncode == 0, restarted.stderr + restarted.stdout
    try:

        async def read() -> list[str]:
            async with Kgmem(settings) as km:
                hits = (await km.recall("who owns a kayak", namespace="persist")).hits
                return [h.memory_id for h in hits]

        assert arun(read()) == [memory_id]
    finally:
        _cli(settings, "db", "stop")


def test_port_taken_is_reported(tmp_path: Path) -> None:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        sock.listen()
        port = sock.getsockname()[1]
        settings = Settings(home=tmp_path, bolt_port=port, neo4j_auth=False)
        with pytest.raises(LauncherError, match=f"port {port}.*already taken"):
            LocalServer(settings).start()
        result = _cli(settings, "db", "start")
        assert result.returncode == 1
        assert "already taken" in result.stderr
        assert "Traceback" not in result.stderr
