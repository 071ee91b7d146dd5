"""The ``kgmem`` command line (typer + rich): run the local database, write and recall memories.

Every command builds ``Settings`` once, runs one async operation, and prints a result. A
``KgmemError`` is shown as a one-line message with exit code 1 — never a stack trace.
"""

from __future__ import annotations

import asyncio
import sys
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any, TypeVar

import typer
from rich.console import Console
from rich.progress import Progress
from rich.table import Table

from kgmem.errors import KgmemError
from kgmem.formats import read_jsonl_turns, read_locomo
from kgmem.graph.launcher import LocalServer
from kgmem.service import Kgmem
from kgmem.settings import Settings

T = TypeVar("T")
app = typer.Typer(
    help="kgmem: long-term memory for AI agents on a Neo4j knowledge graph.",
    no_args_is_help=True,
    pretty_exceptions_enable=False,
)
db_app = typer.Typer(help="Run the local Neo4j + GDS server.", no_args_is_help=True)
app.add_typer(db_app, name="db")
out = Console()
err = Console(stderr=True)


def _fail(exc: KgmemError) -> None:
    err.print(f"[bold red]error:[/] {exc.message}", highlight=False)
    raise typer.Exit(1)


def _run(fn: Callable[[Kgmem], Awaitable[T]]) -> T:
    async def main() -> T:
        async with Kgmem(Settings()) as km:
            return await fn(km)

    try:
        return asyncio.run(main())
    except KgmemError as exc:
        _fail(exc)
        raise  # unreachable: _fail exits


@db_app.command("start")
def db_start() -> None:
    """Start the local Neo4j + GDS server (builds it with Maven the first time)."""
    try:
        info = LocalServer(Settings()).start()
    except KgmemError as exc:
        _fail(exc)
        return
    out.print(
        f"Neo4j {info.neo4j_version} + GDS {info.gds_version} at [bold]{info.uri}[/]"
        f" (pid {info.pid}, started in {info.start_seconds}s)"
    )


@db_app.command("stop")
def db_stop() -> None:
    """Stop the local server cleanly."""
    stopped = LocalServer(Settings()).stop()
    out.print("stopped" if stopped else "not running")


@db_app.command("status")
def db_status() -> None:
    """Say whether the local server runs, and its Neo4j and GDS versions."""
    info = LocalServer(Settings()).status()
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
    report = _run(lambda km: km.init_schema())
    out.print(
        f"schema: {report.statements} statements, {len(report.created)} new, "
        f"{len(report.after)} indexes online ({report.seconds}s)"
    )


@app.command("remember")
def remember_cmd(
    text: str = typer.Argument(None, help="The memory text (or use --file)."),
    file: Path = typer.Option(None, "--file", "-f", help="One memory per non-empty line."),
    namespace: str = typer.Option(None, "--namespace", "-n", help="Namespace (default setting)."),
    category: str = typer.Option("fact", "--category", "-c"),
) -> None:
    """Store one explicit memory, or every line of a file."""
    if (text is None) == (file is None):
        err.print("[bold red]error:[/] give either TEXT or --file")
        raise typer.Exit(2)
    if text is not None:
        receipt = _run(lambda km: km.remember(text, namespace=namespace, category=category))
        ents = ", ".join(receipt.entities) or "none"
        out.print(f"{receipt.action} {receipt.memory_id} (entities: {ents})")
        return
    try:
        lines = [ln.strip() for ln in file.read_text(encoding="utf-8").splitlines() if ln.strip()]
    except OSError as exc:
        err.print(f"[bold red]error:[/] cannot read {file}: {exc.strerror}")
        raise typer.Exit(1) from None

    async def load(km: Kgmem) -> dict[str, int]:
        counts: dict[str, int] = {}
        with Progress(console=err, transient=True) as progress:
            task = progress.add_task("remembering", total=len(lines))
            for line in lines:
                receipt = await km.remember(line, namespace=namespace, category=category)
                counts[receipt.action] = counts.get(receipt.action, 0) + 1
                progress.advance(task)
        return counts

    counts = _run(load)
    out.print(", ".join(f"{n} {action}" for action, n in sorted(counts.items())) or "nothing")


@app.command("observe")
def observe_cmd(
    file: Path = typer.Argument(..., help="JSONL turns, or a LoCoMo-style JSON file."),
    namespace: str = typer.Option(None, "--namespace", "-n", help="Namespace (default setting)."),
    chunk: int = typer.Option(100, "--chunk", help="Turns per observe call."),
) -> None:
    """Observe a conversation file turn by turn, then extract whatever is still buffered."""
    try:
        if file.suffix == ".jsonl":
            batches = [("", read_jsonl_turns(file))]
        else:
            batches = [(c.sample_id, list(c.turns)) for c in read_locomo(file)]
    except KgmemError as exc:
        _fail(exc)
        return
    total = sum(len(turns) for _, turns in batches)

    async def load(km: Kgmem) -> dict[str, int]:
        counts: dict[str, int] = {"turns": 0, "new episodes": 0}
        with Progress(console=err, transient=True) as progress:
            task = progress.add_task("observing", total=total)
            for sample_id, turns in batches:
                ns = namespace or km.settings.namespace
                if sample_id and len(batches) > 1:
                    ns = f"{ns}-{sample_id}"  # one namespace per conversation of a multi-file
                for i in range(0, len(turns), max(1, chunk)):
                    part = turns[i : i + max(1, chunk)]
                    report = await km.observe(part, namespace=ns)
                    counts["turns"] += len(part)
                    counts["new episodes"] += report.new_episodes
                    _count(counts, report.extraction)
                    progress.advance(task, len(part))
                _count(counts, await km.extract_pending(namespace=ns))
        return counts

    counts = _run(load)
    out.print(", ".join(f"{n} {what}" for what, n in counts.items()))


def _count(counts: dict[str, int], report: Any) -> None:
    if report is None:
        return
    for receipt in report.receipts:
        counts[receipt.action] = counts.get(receipt.action, 0) + 1


@app.command("recall")
def recall_cmd(
    query: str,
    namespace: str = typer.Option(None, "--namespace", "-n"),
    limit: int = typer.Option(10, "--limit", "-k"),
) -> None:
    """Recall the memories that best answer a query."""
    result = _run(lambda km: km.recall(query, namespace=namespace, limit=limit))
    hits = result.hits
    table = Table("#", "score", "memory", "channels")
    for i, hit in enumerate(hits, start=1):
        chans = " ".join(f"{c.channel}#{c.rank}" for c in hit.channels)
        table.add_row(str(i), f"{hit.score:.4f}", hit.content, chans)
    out.print(table if hits else "no memories found")


def main(argv: list[str] | None = None) -> Any:
    return app(args=argv if argv is not None else sys.argv[1:])
