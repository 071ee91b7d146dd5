"""``kgmem worker``: extract observed turns and run consolidation on its schedule, until stopped.

Contract. By default a worker does both: an extraction loop (``Kgmem.extraction_worker``: every
namespace's due turns, under expiring per-namespace leases, so several workers on one or many
machines share the work and a killed one's namespace passes to another after
``KGMEM_EXTRACTION_LEASE_S``) and, beside it, consolidation of ``--namespace`` every ``--every``
seconds (``--times`` runs at most; the worker then stops). ``--no-consolidation`` runs
extraction only (until stopped, or with ``--until-idle`` until no turns are due);
``--no-extraction`` runs consolidation only, as before. An idle extraction loop looks for due
turns at most every ``KGMEM_WORKER_POLL_MAX_S`` seconds, so that bounds how long a due turn waits
for a free worker. SIGTERM or SIGINT stops it gracefully: the extraction batch in hand is
finished (or never started) and the lease released, a running consolidation run finishes, and
nothing pending is lost. Progress is logged as ``info:`` lines on stderr. A failed consolidation
run is reported and the next one still runs; the exit code is 1 if any run failed.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import signal
import time
from datetime import datetime
from typing import TYPE_CHECKING

import typer
from rich.markup import escape

from kgmem.cli.consolidation import STEP_OPT, _consolidate_once, _consolidator, print_report
from kgmem.cli.runtime import NAMESPACE_OPT, err, out, run_on_kgmem
from kgmem.errors import KgmemError

if TYPE_CHECKING:  # only annotations here: `kgmem --help` must not load the service
    from kgmem.ingest.extraction.worker import ExtractionWorker
    from kgmem.service import Kgmem


def worker_cmd(
    namespace: str = NAMESPACE_OPT,
    every: float = typer.Option(
        3600.0, "--every", min=0.0, help="Seconds between consolidation runs."
    ),
    times: int = typer.Option(
        None, "--times", min=1, help="Stop after this many consolidation runs."
    ),
    step: list[str] = STEP_OPT,
    dry_run: bool = typer.Option(False, "--dry-run", help="Consolidation changes nothing."),
    extraction: bool = typer.Option(
        True, "--extraction/--no-extraction", help="Extract observed turns (every namespace)."
    ),
    consolidation: bool = typer.Option(
        True, "--consolidation/--no-consolidation", help="Consolidate --namespace on a schedule."
    ),
    until_idle: bool = typer.Option(
        False, "--until-idle", help="Extraction only: stop once no turns are due."
    ),
) -> None:
    """Extract observed turns and run consolidation on a schedule, until stopped (SIGTERM)."""
    if not (extraction or consolidation):
        raise typer.BadParameter("--no-extraction and --no-consolidation leave nothing to run")
    if until_idle and consolidation:
        raise typer.BadParameter("--until-idle needs --no-consolidation")
    logging.getLogger("kgmem.worker").setLevel(logging.INFO)

    async def consolidate_loop(km: Kgmem, stop: asyncio.Event) -> int:
        failures = 0
        run = 0
        while (times is None or run < times) and not stop.is_set():
            run += 1
            t0 = time.perf_counter()
            out.rule(f"run {run} at {datetime.now().isoformat(timespec='seconds')}")
            try:
                print_report(await _consolidate_once(km, namespace, step or None, dry_run))
            except KgmemError as exc:  # reported, not fatal: the next run may succeed
                failures += 1
                err.print(f"[bold red]error:[/] run {run}: {escape(exc.message)}", highlight=False)
            out.print(f"run {run} took {time.perf_counter() - t0:.1f}s")
            if times is None or run < times:
                with contextlib.suppress(TimeoutError):
                    await asyncio.wait_for(stop.wait(), every)
        return failures

    async def main(km: Kgmem) -> int:
        if consolidation:
            _consolidator(km)  # fail now, not after the first sleep, if there is no job
        stop = asyncio.Event()
        worker: ExtractionWorker | None = km.extraction_worker() if extraction else None

        def on_signal() -> None:
            stop.set()
            if worker is not None:
                worker.stop()

        loop = asyncio.get_running_loop()
        for sig in (signal.SIGTERM, signal.SIGINT):
            loop.add_signal_handler(sig, on_signal)
        extracting = (
            asyncio.create_task(worker.run(until_idle=until_idle)) if worker is not None else None
        )
        failures = 0
        try:
            if consolidation:
                failures = await consolidate_loop(km, stop)
                if worker is not None:
                    worker.stop()  # --times runs are done: the worker stops with them
            if extracting is not None:
                await extracting
        finally:
            for sig in (signal.SIGTERM, signal.SIGINT):
                loop.remove_signal_handler(sig)
        return failures

    failures = run_on_kgmem(main)
    if failures:
        raise typer.Exit(1)
