"""``kgmem serve``: the GraphQL API (and /xray, /healthz, /readyz, /metrics) under uvicorn.

Contract. Builds the app of :func:`kgmem.api.app.create_app` from the command's ``Settings`` and
runs it; the API (Strawberry, Starlette) is imported only here, when the command runs, and an
install without it is one red ``error:`` line, not a traceback. ``--workers N`` (default
``api_workers``, 0 = one per CPU core) runs N processes on the one port, each with its own
Neo4j driver and models, so recalls use every core (:mod:`kgmem.api.processes`: each process its
own ``SO_REUSEPORT`` socket, built from the factory ``create_app`` with no argument, which reads
the same ``KGMEM_*`` environment this command read; the app is built once here first, so a bad
configuration fails before any process starts).
With N > 1 the processes share their metrics through a fresh ``api_metrics_dir`` (unless one is
set), so any of them answers ``/metrics`` for all; it is removed on exit.
"""

from __future__ import annotations

import os
import shutil
import tempfile

import typer

from kgmem.cli.runtime import (
    err,
    fail,
    load_settings,
)
from kgmem.errors import KgmemError


def serve_cmd(
    port: int = typer.Option(8000, "--port", "-p", min=1, max=65535, help="TCP port."),
    host: str = typer.Option(
        "127.0.0.1", "--host", help="Interface; 127.0.0.1 keeps the API on this machine."
    ),
    log_level: str = typer.Option("info", "--log-level"),
    workers: int | None = typer.Option(
        None,
        "--workers",
        "-w",
        min=1,
        max=256,
        help="API processes (default: KGMEM_API_WORKERS, 0 = one per CPU core); 1 = one process.",
    ),
) -> None:
    """Serve the GraphQL API (and /xray, /healthz, /readyz, /metrics) under uvicorn."""
    settings = load_settings()
    try:
        # Imported here: the API pulls in Strawberry and Starlette, which no other command needs.
        from kgmem.api.app import create_app
    except ImportError as exc:
        fail(KgmemError(f"the GraphQL API is not available in this install ({exc})"))
    import uvicorn

    try:
        application = create_app(settings)
    except KgmemError as exc:
        fail(exc)
    count = workers or settings.api_workers or os.cpu_count() or 1
    err.print(
        f"kgmem API on http://{host}:{port}/graphql (Neo4j {settings.neo4j_uri}, "
        f"{count} process{'es' if count > 1 else ''})"
    )
    if count == 1:
        uvicorn.run(application, host=host, port=port, log_level=log_level)
        return
    from kgmem.api.processes import serve_processes

    made = None
    if settings.api_metrics_dir is None:
        made = tempfile.mkdtemp(prefix="kgmem-metrics-")
        os.environ["KGMEM_API_METRICS_DIR"] = made  # the processes inherit the environment
    try:
        status = serve_processes(count, host, port, log_level)
    except KgmemError as exc:
        fail(exc)
    finally:
        if made is not None:
            shutil.rmtree(made, ignore_errors=True)
    if status:
        fail(KgmemError("an API process exited on its own; the others were stopped"))
