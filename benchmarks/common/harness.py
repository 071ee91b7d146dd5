"""Shared benchmark plumbing: a private local Neo4j + GDS, the machine description, result files.

``run_header`` and ``run_scored`` are a scored run's common frame (result metadata; connect,
apply the schema, evaluate under a progress bar); ``memory_count`` counts a namespace's memories.
``local_stack()`` starts a fresh server through kgmem's own launcher (temporary home, free
loopback port, auth off), yields a connected ``Kgmem`` with the schema applied, and stops the
server afterwards — benchmarks never touch a user's database. ``machine()`` describes the box the
figures came from; ``write_result`` stores a Markdown report (and its JSON beside it) with the
command and the date, outside the repository unless ``--out`` says otherwise
(``benchmarks.common.paths``), and prints where it went.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import platform
import shlex
import sys
import tempfile
from collections.abc import AsyncIterator, Awaitable, Callable, Iterator
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from benchmarks.common.paths import result_path
from benchmarks.common.progress import Progress, _Bar
from kgmem.local_server.launcher import LocalServer, free_port
from kgmem.service import Kgmem
from kgmem.settings import Settings


def machine() -> dict[str, Any]:
    model = "unknown"
    with contextlib.suppress(OSError), open("/proc/cpuinfo", encoding="utf-8") as fh:
        for line in fh:
            if line.startswith("model name"):
                model = line.split(":", 1)[1].strip()
                break
    mem_gib = 0.0
    with contextlib.suppress(OSError), open("/proc/meminfo", encoding="utf-8") as fh:
        for line in fh:
            if line.startswith("MemTotal"):
                mem_gib = round(int(line.split()[1]) / 1024 / 1024, 1)
    return {
        "cpu": model,
        "nproc": os.cpu_count(),
        "ram_gib": mem_gib,
        "python": platform.python_version(),
        "os": platform.platform(),
    }


def command() -> str:
    """The command line of this run as ``python -m <module> <args>`` (the module ``-m`` ran)."""
    spec = getattr(sys.modules.get("__main__"), "__spec__", None)
    module = spec.name.removesuffix(".__main__") if spec is not None else sys.argv[0]
    return "python -m " + " ".join(shlex.quote(a) for a in [module, *sys.argv[1:]])


async def memory_count(km: Kgmem, namespace: str) -> int:
    """How many memories (any status) a namespace holds."""
    stats = await km.stats(namespace=namespace)
    return int(stats["labels"].get("Memory") or 0)


def run_header(settings: Settings, command: str, data: str) -> dict[str, Any]:
    """What every benchmark result starts with: date, command, machine, data, model settings."""
    return {
        "date": datetime.now(UTC).isoformat(timespec="seconds"),
        "command": command,
        "machine": machine(),
        "data": data,
        "settings": {
            "llm_level": settings.llm_level,
            "embedder_package": settings.embedder_package,
            "spacy_package": settings.spacy_package,
            "max_content_chars": settings.max_content_chars,
        },
    }


def run_scored(
    settings: Settings, evaluate: Callable[[Kgmem, Progress], Awaitable[dict[str, Any]]]
) -> dict[str, Any]:
    """Connect to the Neo4j of ``settings``, apply the schema and run ``evaluate`` under a
    progress bar; its result gains the server's description."""

    async def go() -> dict[str, Any]:
        async with Kgmem(settings) as km:
            await km.init_schema()
            server = await km.server_info()
            with _Bar().running() as progress:
                result = await evaluate(km, progress)
            return {**result, "server": server}

    return asyncio.run(go())


@contextlib.contextmanager
def local_server(
    heap: str = "2g", pagecache: str = "512m", home: Path | None = None
) -> Iterator[Settings]:
    """A private Neo4j + GDS on a free port with a temporary home and auth off; stopped after.
    With ``home`` the server's data lives (and stays) there, so a slow-to-build store can be
    reused or copied as a snapshot while the server is stopped."""
    with contextlib.ExitStack() as stack:
        if home is None:
            home = Path(stack.enter_context(tempfile.TemporaryDirectory(prefix="kgmem-bench-")))
        port = free_port()
        settings = Settings(
            home=Path(home),
            bolt_port=port,
            neo4j_uri=f"bolt://127.0.0.1:{port}",
            neo4j_auth=False,
            neo4j_heap=heap,
            neo4j_pagecache=pagecache,
            neo4j_timeout_s=120,
        )
        server = LocalServer(settings)
        info = server.start()
        print(f"neo4j {info.neo4j_version} ready on {info.uri}", file=sys.stderr, flush=True)
        try:
            yield settings
        finally:
            server.stop()


@contextlib.contextmanager
def server_settings(uri: str | None) -> Iterator[Settings]:
    """Settings for the Neo4j at ``uri``, or for a private ``local_server`` when None."""
    if uri:
        yield Settings(neo4j_uri=uri)
        return
    with local_server() as settings:
        yield settings


@contextlib.asynccontextmanager
async def local_stack(
    heap: str = "2g", pagecache: str = "512m", home: Path | None = None
) -> AsyncIterator[Kgmem]:
    """``local_server`` plus a connected ``Kgmem`` with the schema applied."""
    with local_server(heap, pagecache, home) as settings:
        async with Kgmem(settings) as km:
            await km.init_schema()
            yield km


def write_result(name: str, markdown: str, data: dict[str, Any], out: Path | None = None) -> Path:
    """Write the report to ``out`` (default: ``<results dir>/<name>-<date>.md``) and its JSON
    beside it; print and return the Markdown path."""
    path = result_path(out, name)
    path.parent.mkdir(parents=True, exist_ok=True)
    header = (
        f"# {name}\n\nDate: {datetime.now(UTC).isoformat(timespec='seconds')}  \n"
        f"Command: `{command()}`  \nMachine: {json.dumps(machine())}\n\n"
    )
    path.write_text(header + markdown, encoding="utf-8")
    path.with_suffix(".json").write_text(
        json.dumps({"machine": machine(), "command": command(), **data}, indent=2, default=str),
        encoding="utf-8",
    )
    print(f"written: {path} and {path.with_suffix('.json')}", file=sys.stderr, flush=True)
    return path
