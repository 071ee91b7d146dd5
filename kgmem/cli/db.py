"""``kgmem db``: start, stop, inspect and initialise the local Neo4j + GDS server.

Contract. ``db_app`` is the ``db`` command group: ``start`` builds (first time) and starts the
server of :class:`kgmem.local_server.launcher.LocalServer`, ``stop`` stops it cleanly, ``status``
prints its versions (exit 3 when it is not running), ``init`` creates the constraints and indexes
(idempotent) and waits until every index is online.
"""

from __future__ import annotations

import typer

from kgmem.cli.runtime import (
    fail,
    load_settings,
    out,
    run_on_kgmem,
)
from kgmem.errors import KgmemError

db_app = typer.Typer(help="Run the local Neo4j + GDS server.", no_args_is_help=True)


@db_app.command("start")
def db_start() -> None:
    """Start the local Neo4j + GDS server (builds it with Maven the first time)."""
    from kgmem.local_server.launcher import LocalServer  # here: help and the other commands skip it

    try:
        info = LocalServer(load_settings()).start()
    except KgmemError as exc:
        fail(exc)
    out.print(
        f"Neo4j {info.neo4j_version} + GDS {info.gds_version} at [bold]{info.uri}[/]"
        f" (pid {info.pid}, started in {info.start_seconds}s)"
    )
    if info.browser_url:
        out.print(f"Neo4j Browser: [bold]{info.browser_url}[/]", soft_wrap=True)


@db_app.command("stop")
def db_stop() -> None:
    """Stop the local server cleanly."""
    from kgmem.local_server.launcher import LocalServer

    try:
        stopped = LocalServer(load_settings()).stop()
    except KgmemError as exc:
        fail(exc)
    out.print("stopped" if stopped else "not running")


@db_app.command("status")
def db_status() -> None:
    """Say whether the local server runs, and its Neo4j and GDS versions."""
    from kgmem.local_server.launcher import LocalServer

    info = LocalServer(load_settings()).status()
    if info is None:
        out.print("not running")
        raise typer.Exit(3)
    out.print(
        f"running: {info.uri} pid {info.pid} Neo4j {info.neo4j_version} "
        f"GDS {info.gds_version} (home {info.home})"
    )


@db_app.command("init")
def db_init() -> None:
    """Create constraints and indexes (idempotent) and wait until every index is online."""
    report = run_on_kgmem(lambda km: km.init_schema())
    out.print(
        f"schema: {report.statements} statements, {len(report.created)} new, "
        f"{len(report.after)} indexes online ({report.seconds}s)"
    )
