"""``kgmem serve``: the GraphQL API (and /xray, /healthz, /readyz, /metrics) under uvicorn.

Contract. Builds the app of :func:`kgmem.api.app.create_app` from the command's ``Settings`` and
runs it; the API (Strawberry, Starlette) is imported only here, when the command runs, and an
install without it is one red ``error:`` line, not a traceback.
"""

from __future__ import annotations

import typer

from kgmem.cli.plumbing import (
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
    err.print(f"kgmem API on http://{host}:{port}/graphql (Neo4j {settings.neo4j_uri})")
    uvicorn.run(application, host=host, port=port, log_level=log_level)
