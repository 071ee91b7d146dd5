"""The ``kgmem`` command line (typer + rich): run the database and the API, write, recall, explain,
move the graph in and out, and run consolidation.

Contract: every command builds ``Settings`` once, runs its work (one ``Kgmem`` per command), and
prints a result — tables for people, ``--json`` where a program may read the output. Progress
bars and spinners go to stderr so stdout stays clean. A ``KgmemError`` (or a bad setting) is one
red ``error:`` line on stderr and exit code 1 — never a stack trace; wrong usage is exit code 2.
Commands that depend on parts built elsewhere (``serve`` needs ``kgmem.api``, ``consolidate`` and
``worker`` need ``Kgmem.consolidate``) import or look them up when they run, and say clearly
when they are missing. This module builds the ``app`` from one module per command group
(``db``, ``serve``, ``mcp_server``, ``writing``, ``reading``, ``browsing``, ``moving``,
``consolidation``, ``worker``; what they share is in ``runtime``); its ``main`` is what the
``kgmem`` console script (``kgmem.entry``) and ``python -m kgmem`` run.
Building the app loads typer, rich and kgmem's light modules only: the service, the Neo4j driver,
numpy and the models are imported inside the commands that run on them (annotations under
``TYPE_CHECKING``), so ``--help`` answers in a fraction of a second
(tests/unit/test_cli_cold_start.py checks what it loads).
Every command runs kgmem's service in this process, so each needs the ``server`` extra: the root
callback checks for it (without importing it) and names the extra in one line when it is
missing; ``--version`` and ``--help`` work on the thin client install, and so do ``remember``
and ``recall`` with ``KGMEM_API_URL`` set (they then call that server through the SDK).
"""

from __future__ import annotations

import logging
import os
import sys
from typing import Any

import typer

import kgmem
from kgmem.cli import (
    browsing,
    consolidation,
    db,
    mcp_server,
    moving,
    reading,
    serve,
    worker,
    writing,
)
from kgmem.cli.runtime import fail
from kgmem.errors import KgmemError
from kgmem.extras import require

app = typer.Typer(
    help="kgmem: long-term memory for AI agents on a Neo4j knowledge graph.",
    no_args_is_help=True,
    pretty_exceptions_enable=False,
)


CLIENT_COMMANDS = frozenset({"remember", "recall"})  # these can call a server (KGMEM_API_URL)


def _version(value: bool) -> None:
    if value:
        print(f"kgmem {kgmem.__version__}")
        raise typer.Exit()


@app.callback()
def _root(
    ctx: typer.Context,
    version: bool = typer.Option(
        False, "--version", callback=_version, is_eager=True, help="Print the version and exit."
    ),
) -> None:
    if ctx.resilient_parsing or "--help" in sys.argv[1:]:  # completion, help: no checks
        return
    if ctx.invoked_subcommand in CLIENT_COMMANDS and os.environ.get("KGMEM_API_URL"):
        return  # a client of a running API: the server extra is not needed
    try:
        require("server", f"`kgmem {ctx.invoked_subcommand}`")
    except KgmemError as exc:
        fail(exc)


# Registered here, in the order ``kgmem --help`` lists them; each module holds one command group.
app.add_typer(db.db_app, name="db")
app.command("serve")(serve.serve_cmd)
app.command("mcp")(mcp_server.mcp_cmd)
app.command("remember")(writing.remember_cmd)
app.command("observe")(writing.observe_cmd)
app.command("recall")(reading.recall_cmd)
app.command("stats")(reading.stats_cmd)
app.command("facts")(browsing.facts_cmd)
app.command("timeline")(browsing.timeline_cmd)
app.command("export")(moving.export_cmd)
app.command("import")(moving.import_cmd)
app.command("wipe")(moving.wipe_cmd)
app.command("consolidate")(consolidation.consolidate_cmd)
app.command("worker")(worker.worker_cmd)


class _LevelPrefix(logging.Formatter):
    def format(self, record: logging.LogRecord) -> str:
        return f"{record.levelname.lower()}: {record.getMessage()}"


def quiet_logs() -> None:
    """kgmem's own warnings as ``warning: …`` lines on stderr; the Neo4j driver's silenced.

    The driver logs a lost connection itself (``<CONNECTION> error: Failed to read from defunct
    connection``) before kgmem turns the same failure into its one ``error:`` line: a user would
    read two errors, one of them the driver's internals.
    """
    handler = logging.StreamHandler(sys.stderr)
    handler.setFormatter(_LevelPrefix())
    root = logging.getLogger()
    if not root.handlers:
        root.addHandler(handler)
        root.setLevel(logging.WARNING)
    logging.getLogger("neo4j").setLevel(logging.CRITICAL + 1)


def main(argv: list[str] | None = None) -> Any:
    quiet_logs()
    return app(args=argv if argv is not None else sys.argv[1:])
