"""``kgmem export``, ``kgmem import`` and ``kgmem wipe``: move a namespace's graph out and in.

Contract. ``export`` writes one namespace (or ``--all``) to JSONL through
``Kgmem.export_graph``; ``import`` loads such a file through ``Kgmem.import_graph`` (idempotent);
``wipe`` deletes one namespace after a confirmation (``--yes`` skips it). Each prints what it did;
progress goes to stderr.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import TYPE_CHECKING, Any

import typer
from rich.markup import escape

from kgmem.cli.runtime import (
    NAMESPACE_OPT,
    STDIO,
    err,
    input_path,
    out,
    output_path,
    progress_bar,
    run_on_kgmem,
)

if TYPE_CHECKING:  # only annotations here: `kgmem --help` must not load the service
    from kgmem.service import Kgmem
    from kgmem.transfer.records import ProgressFn


@contextmanager
def _transfer_progress(description: str) -> Iterator[ProgressFn]:
    """A bar on stderr and the callback export and import report (done, total) to."""
    with progress_bar() as progress:
        task = progress.add_task(description, total=None)
        yield lambda done, total: progress.update(task, completed=done, total=total)


def export_cmd(
    file: Path = typer.Argument(..., help="The JSONL file to write (- for stdout)."),
    namespace: str = NAMESPACE_OPT,
    all_namespaces: bool = typer.Option(False, "--all", help="Export every namespace."),
) -> None:
    """Write a namespace (or --all) to JSONL: every node and edge with every property."""
    if all_namespaces and namespace is not None:
        err.print("[bold red]error:[/] give --namespace or --all, not both")
        raise typer.Exit(2)

    async def work(km: Kgmem, target: Path) -> Any:
        ns = None if all_namespaces else (km.settings.namespace if namespace is None else namespace)
        with _transfer_progress("exporting") as progress:
            return await km.export_graph(target, namespace=ns, progress=progress)

    with output_path(file) as target:
        report = run_on_kgmem(lambda km: work(km, target))
    scope = ", ".join(report.namespaces) or "nothing"
    (err if file == STDIO else out).print(  # with -, stdout carries the export alone
        f"exported {report.nodes} nodes and {report.edges} edges ({escape(scope)}) "
        f"to {escape(str(file))} in {report.seconds}s"
    )


def import_cmd(
    file: Path = typer.Argument(..., help="A file written by `kgmem export` (- for stdin)."),
    batch_size: int = typer.Option(500, "--batch-size", min=1, max=10_000),
) -> None:
    """Load an export file (idempotent: importing twice changes nothing)."""

    async def work(km: Kgmem, source: Path) -> Any:
        with _transfer_progress("importing") as progress:
            return await km.import_graph(source, batch_size=batch_size, progress=progress)

    with input_path(file, ".jsonl") as source:
        report = run_on_kgmem(lambda km: work(km, source))
    out.print(
        f"imported {report.nodes} nodes ({report.nodes_created} new) and {report.edges} edges "
        f"({report.edges_created} new) into {escape(', '.join(report.namespaces) or 'nothing')} "
        f"in {report.seconds}s"
    )


def wipe_cmd(
    namespace: str = typer.Option(..., "--namespace", "-n", help="The namespace to delete."),
    yes: bool = typer.Option(False, "--yes", help="Do not ask for confirmation."),
) -> None:
    """Delete every node and edge of one namespace (export it first if you may want it back)."""
    if not yes:
        typer.confirm(f"Delete everything in namespace {namespace!r}?", abort=True)
    deleted = run_on_kgmem(lambda km: km.wipe_namespace(namespace))
    out.print(f"deleted {deleted} nodes from {escape(namespace)}")
