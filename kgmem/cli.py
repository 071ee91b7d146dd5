"""The ``kgmem`` command line (typer + rich): run the database and the API, write, recall, explain,
move the graph in and out, and run consolidation.

Contract: every command builds ``Settings`` once, runs its work (one ``Kgmem`` per command), and
prints a result — tables for people, ``--json`` where a program may read the output. Progress
bars and spinners go to stderr so stdout stays clean. A ``KgmemError`` (or a bad setting) is one
red ``error:`` line on stderr and exit code 1 — never a stack trace; wrong usage is exit code 2.
Commands that depend on parts built elsewhere (``serve`` needs ``kgmem.api``, ``consolidate`` and
``worker`` need ``Kgmem.consolidate``) import or look them up when they run, and say clearly
when they are missing.
"""

from __future__ import annotations

import asyncio
import dataclasses
import inspect
import json
import sys
import time
from collections.abc import Awaitable, Callable, Mapping
from datetime import date, datetime
from enum import Enum
from pathlib import Path
from typing import Any, NoReturn, TypeVar

import typer
from pydantic import ValidationError
from rich.console import Console
from rich.markup import escape
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn
from rich.table import Table

from kgmem.errors import ConfigError, InvalidInput, KgmemError
from kgmem.formats import read_jsonl_turns, read_locomo
from kgmem.graph.launcher import LocalServer
from kgmem.recall.xray import Xray
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
# soft_wrap: an error stays one line however narrow the terminal.
err = Console(stderr=True, soft_wrap=True)

NAMESPACE_OPT = typer.Option(None, "--namespace", "-n", help="Namespace (default: the setting).")


# --- plumbing -------------------------------------------------------------------------------------


def _fail(exc: KgmemError) -> NoReturn:
    err.print(f"[bold red]error:[/] {escape(exc.message)}", highlight=False)
    raise typer.Exit(1)


def _settings() -> Settings:
    """The one Settings object of this command; a bad KGMEM_* value is a one-line error."""
    try:
        return Settings()
    except ValidationError as exc:
        first = exc.errors()[0]
        name = "KGMEM_" + "_".join(str(p) for p in first["loc"]).upper()
        _fail(ConfigError(f"{name}: {first['msg']}"))
    except KgmemError as exc:
        _fail(exc)


def _run(fn: Callable[[Kgmem], Awaitable[T]]) -> T:
    """Run one async operation with a connected ``Kgmem``; errors become one red line."""
    settings = _settings()

    async def main() -> T:
        async with Kgmem(settings) as km:
            return await fn(km)

    try:
        return asyncio.run(main())
    except KgmemError as exc:
        _fail(exc)
    except KeyboardInterrupt:
        err.print("interrupted")
        raise typer.Exit(130) from None


def _jsonable(value: Any) -> Any:
    """Records, enums and datetimes → plain JSON values."""
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return {f.name: _jsonable(getattr(value, f.name)) for f in dataclasses.fields(value)}
    if hasattr(value, "model_dump"):
        return _jsonable(value.model_dump())
    if isinstance(value, datetime | date):
        return value.isoformat()
    if isinstance(value, Enum):
        return value.value
    if isinstance(value, Mapping):
        return {str(k): _jsonable(v) for k, v in value.items()}
    if isinstance(value, list | tuple | set | frozenset):
        return [_jsonable(v) for v in value]
    return value


def _print_json(value: Any) -> None:
    # Plain stdout, not rich: programs parse this, so no colour codes and no wrapping.
    sys.stdout.write(json.dumps(_jsonable(value), indent=2, ensure_ascii=False) + "\n")


def _progress() -> Progress:
    return Progress(
        TextColumn("{task.description}"),
        BarColumn(),
        MofNCompleteColumn(),
        TimeElapsedColumn(),
        console=err,
        transient=True,
        disable=not err.is_terminal,  # a bar in a log or a pipe is noise
    )


# --- the local database ---------------------------------------------------------------------------


@db_app.command("start")
def db_start() -> None:
    """Start the local Neo4j + GDS server (builds it with Maven the first time)."""
    try:
        info = LocalServer(_settings()).start()
    except KgmemError as exc:
        _fail(exc)
    out.print(
        f"Neo4j {info.neo4j_version} + GDS {info.gds_version} at [bold]{info.uri}[/]"
        f" (pid {info.pid}, started in {info.start_seconds}s)"
    )


@db_app.command("stop")
def db_stop() -> None:
    """Stop the local server cleanly."""
    try:
        stopped = LocalServer(_settings()).stop()
    except KgmemError as exc:
        _fail(exc)
    out.print("stopped" if stopped else "not running")


@db_app.command("status")
def db_status() -> None:
    """Say whether the local server runs, and its Neo4j and GDS versions."""
    info = LocalServer(_settings()).status()
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


# --- the API --------------------------------------------------------------------------------------


@app.command("serve")
def serve_cmd(
    port: int = typer.Option(8000, "--port", "-p", min=1, max=65535, help="TCP port."),
    host: str = typer.Option(
        "127.0.0.1", "--host", help="Interface; 127.0.0.1 keeps the API on this machine."
    ),
    log_level: str = typer.Option("info", "--log-level"),
) -> None:
    """Serve the GraphQL API (and /xray, /healthz, /readyz, /metrics) under uvicorn."""
    settings = _settings()
    try:
        # Imported here: the API pulls in Strawberry and Starlette, which no other command needs.
        from kgmem.api.app import create_app
    except ImportError as exc:
        _fail(KgmemError(f"the GraphQL API is not available in this install ({exc})"))
    import uvicorn

    try:
        application = create_app(settings)
    except KgmemError as exc:
        _fail(exc)
    err.print(f"kgmem API on http://{host}:{port}/graphql (Neo4j {settings.neo4j_uri})")
    uvicorn.run(application, host=host, port=port, log_level=log_level)


# --- writing --------------------------------------------------------------------------------------


@app.command("remember")
def remember_cmd(
    text: str = typer.Argument(None, help="The memory text (or use --file)."),
    file: Path = typer.Option(None, "--file", "-f", help="One memory per non-empty line."),
    namespace: str = NAMESPACE_OPT,
    category: str = typer.Option("fact", "--category", "-c"),
) -> None:
    """Store one explicit memory, or every line of a file."""
    if (text is None) == (file is None):
        err.print("[bold red]error:[/] give either TEXT or --file")
        raise typer.Exit(2)
    if text is not None:
        receipt = _run(lambda km: km.remember(text, namespace=namespace, category=category))
        ents = ", ".join(receipt.entities) or "none"
        out.print(f"{receipt.action} {receipt.memory_id} (entities: {escape(ents)})")
        return
    try:
        lines = [ln.strip() for ln in file.read_text(encoding="utf-8").splitlines() if ln.strip()]
    except (OSError, UnicodeDecodeError) as exc:
        _fail(InvalidInput(f"cannot read {file}: {getattr(exc, 'strerror', None) or exc}"))

    async def load(km: Kgmem) -> dict[str, int]:
        counts: dict[str, int] = {}
        with _progress() as progress:
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
    namespace: str = NAMESPACE_OPT,
    chunk: int = typer.Option(100, "--chunk", min=1, help="Turns per observe call."),
) -> None:
    """Observe a conversation file turn by turn, then extract whatever is still buffered."""
    try:
        if file.suffix == ".jsonl":
            batches = [("", read_jsonl_turns(file))]
        else:
            batches = [(c.sample_id, list(c.turns)) for c in read_locomo(file)]
    except KgmemError as exc:
        _fail(exc)
    total = sum(len(turns) for _, turns in batches)

    async def load(km: Kgmem) -> dict[str, int]:
        counts: dict[str, int] = {"turns": 0, "new episodes": 0}
        with _progress() as progress:
            task = progress.add_task("observing", total=total)
            for sample_id, turns in batches:
                ns = namespace or km.settings.namespace
                if sample_id and len(batches) > 1:
                    ns = f"{ns}-{sample_id}"  # one namespace per conversation of a multi-file
                for i in range(0, len(turns), chunk):
                    part = turns[i : i + chunk]
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


# --- reading --------------------------------------------------------------------------------------


@app.command("recall")
def recall_cmd(
    query: str,
    namespace: str = NAMESPACE_OPT,
    limit: int = typer.Option(10, "--limit", "-k"),
    profile: str = typer.Option(
        None, "--profile", help="balanced, recent, important, deep, broad."
    ),
    mode: str = typer.Option(None, "--mode", help="facts_only, facts_plus_rules, full_context."),
    dry: bool = typer.Option(False, "--dry", help="Read only: do not touch the hits."),
    explain: bool = typer.Option(False, "--explain", "-x", help="Print the X-ray."),
    as_json: bool = typer.Option(False, "--json", help="Print JSON instead of tables."),
) -> None:
    """Recall the memories that best answer a query (--explain shows why)."""
    options: dict[str, Any] = {"dry": dry}
    if profile:
        options["profile"] = profile
    if mode:
        options["mode"] = mode
    result = _run(lambda km: km.recall(query, namespace=namespace, limit=limit, **options))
    if as_json:
        payload: dict[str, Any] = {"query": query, "skipped": result.skipped, "hits": result.hits}
        if explain:
            payload["xray"] = result.xray.to_dict()
        _print_json(payload)
        return
    if result.skipped:
        out.print(f"skipped: {escape(result.skipped)} (nothing to look up)")
    elif not result.hits:
        out.print("no memories found")
    else:
        table = Table("#", "score", "memory", "channels")
        for i, hit in enumerate(result.hits, start=1):
            chans = " ".join(f"{c.channel}#{c.rank}" for c in hit.channels)
            table.add_row(str(i), f"{hit.score:.4f}", escape(hit.content), chans)
        out.print(table)
    if explain:
        print_xray(result.xray)


def print_xray(xray: Xray) -> None:
    """The X-ray for people: understanding, each hit's factor contributions, drops, timings."""
    out.rule("[bold]X-ray")
    out.print(f"query: {escape(xray.query)}   intent: [bold]{xray.intent}[/]")
    if len(xray.sub_queries) > 1:
        out.print("sub-queries: " + " | ".join(escape(q) for q in xray.sub_queries))
    if xray.hyde:
        out.print(f"HyDE expansions: {len(xray.hyde)}")
    for i, hit in enumerate(xray.hits, start=1):
        table = Table(
            "factor",
            "value",
            "contribution",
            "",
            title=f"#{i}  {hit.final_score:.4f}  {escape(_short(hit.content, 70))}",
            title_justify="left",
        )
        top = max((abs(v) for v in hit.contributions.values()), default=0.0) or 1.0
        idle = sorted(name for name, part in hit.contributions.items() if part == 0)
        active = [(n, p) for n, p in hit.contributions.items() if p != 0]
        for name, part in sorted(active, key=lambda kv: -abs(kv[1])):
            value = hit.factors.get(name)
            bar = "█" * max(0, round(20 * abs(part) / top))
            table.add_row(
                name,
                "" if value is None else f"{value:.4f}",
                f"{part:+.4f}",
                f"[{'green' if part >= 0 else 'red'}]{bar}[/]",
            )
        out.print(table)
        if idle:
            out.print(f"   no contribution: {', '.join(idle)}")
        chans = ", ".join(f"{c.channel} #{c.rank} ({c.raw_score:.3f})" for c in hit.channels)
        out.print(f"   channels: {chans or 'none'}")
        if hit.path:
            steps = []
            for step in hit.path:
                edge = (
                    f" -[{step.edge_type} {step.edge_confidence:.2f}]-> "
                    if step.edge_type and step.edge_confidence is not None
                    else (f" -[{step.edge_type}]-> " if step.edge_type else "")
                )
                steps.append(f"{edge}{step.name}")
            out.print("   path: " + escape("".join(steps)))
        validity = f"{_when(hit.valid_from)} → {_when(hit.valid_until)}"
        out.print(f"   status {hit.status}, valid {validity}, injection {hit.injection or '-'}")
    if xray.dropped:
        dropped = Table("memory", "reason", "detail", "best score", title="dropped")
        for d in xray.dropped:
            score = "" if d.best_score is None else f"{d.best_score:.4f}"
            dropped.add_row(escape(_short(d.content, 50)), str(d.reason), escape(d.detail), score)
        out.print(dropped)
    total = sum(xray.timings.values())
    stages = "  ".join(f"{k} {v:.1f}" for k, v in xray.timings.items())
    out.print(f"timings (ms): {stages}  [bold]total {total:.1f}[/]")


def _short(text: str, width: int) -> str:
    return text if len(text) <= width else text[: width - 1] + "…"


def _when(value: datetime | None) -> str:
    return value.isoformat(timespec="minutes") if value else "open"


@app.command("stats")
def stats_cmd(
    namespace: str = NAMESPACE_OPT,
    as_json: bool = typer.Option(False, "--json", help="Print JSON instead of tables."),
) -> None:
    """Counts of a namespace's nodes by label, memories by status, relationships by type."""
    data = _run(lambda km: km.stats(namespace=namespace))
    if as_json:
        _print_json(data)
        return
    for key, value in data.items():
        counts = _as_counts(value)
        if counts is None:
            out.print(f"{key}: {value}")
            continue
        table = Table(key, "count", title_justify="left")
        for name, n in sorted(counts.items(), key=lambda kv: (-kv[1], kv[0])):
            table.add_row(escape(str(name)), str(n))
        out.print(table)


def _as_counts(value: Any) -> dict[str, int] | None:
    """A count table from a dict, or from [name, count] pairs; None for a scalar."""
    if isinstance(value, Mapping):
        return {str(k): v for k, v in value.items()}
    if isinstance(value, list) and all(isinstance(p, list | tuple) and len(p) == 2 for p in value):
        return {str(k): v for k, v in value}
    return None


# --- moving the graph -----------------------------------------------------------------------------


@app.command("export")
def export_cmd(
    file: Path = typer.Argument(..., help="The JSONL file to write."),
    namespace: str = NAMESPACE_OPT,
    all_namespaces: bool = typer.Option(False, "--all", help="Export every namespace."),
) -> None:
    """Write a namespace (or --all) to JSONL: every node and edge with every property."""
    if all_namespaces and namespace:
        err.print("[bold red]error:[/] give --namespace or --all, not both")
        raise typer.Exit(2)

    async def work(km: Kgmem) -> Any:
        ns = None if all_namespaces else (namespace or km.settings.namespace)
        with _progress() as progress:
            task = progress.add_task("exporting", total=None)
            return await km.export_graph(
                file,
                namespace=ns,
                progress=lambda done, total: progress.update(task, completed=done, total=total),
            )

    report = _run(work)
    scope = ", ".join(report.namespaces) or "nothing"
    out.print(
        f"exported {report.nodes} nodes and {report.edges} edges ({escape(scope)}) "
        f"to {escape(str(file))} in {report.seconds}s"
    )


@app.command("import")
def import_cmd(
    file: Path = typer.Argument(..., help="A file written by `kgmem export`."),
    batch_size: int = typer.Option(500, "--batch-size", min=1, max=10_000),
) -> None:
    """Load an export file (idempotent: importing twice changes nothing)."""

    async def work(km: Kgmem) -> Any:
        with _progress() as progress:
            task = progress.add_task("importing", total=None)
            return await km.import_graph(
                file,
                batch_size=batch_size,
                progress=lambda done, total: progress.update(task, completed=done, total=total),
            )

    report = _run(work)
    out.print(
        f"imported {report.nodes} nodes ({report.nodes_created} new) and {report.edges} edges "
        f"({report.edges_created} new) into {escape(', '.join(report.namespaces) or 'nothing')} "
        f"in {report.seconds}s"
    )


@app.command("wipe")
def wipe_cmd(
    namespace: str = typer.Option(..., "--namespace", "-n", help="The namespace to delete."),
    yes: bool = typer.Option(False, "--yes", help="Do not ask for confirmation."),
) -> None:
    """Delete every node and edge of one namespace (export it first if you may want it back)."""
    if not yes:
        typer.confirm(f"Delete everything in namespace {namespace!r}?", abort=True)
    deleted = _run(lambda km: km.wipe_namespace(namespace))
    out.print(f"deleted {deleted} nodes from {escape(namespace)}")


# --- consolidation --------------------------------------------------------------------------------


def _consolidator(km: Kgmem) -> Callable[..., Awaitable[Any]]:
    fn = getattr(km, "consolidate", None)
    if fn is None:
        raise KgmemError(
            "consolidation is not available in this install yet (no Kgmem.consolidate)"
        )
    return fn  # type: ignore[no-any-return]


async def _consolidate_once(
    km: Kgmem, namespace: str | None, steps: list[str] | None, dry_run: bool
) -> Any:
    fn = _consolidator(km)
    kwargs: dict[str, Any] = {"namespace": namespace, "dry_run": dry_run}
    if steps:  # omitted otherwise, so the job's own default (every step) applies
        kwargs["steps"] = steps
    with err.status("consolidating…") as status:
        if "progress" in inspect.signature(fn).parameters:

            def step_done(step: Any) -> None:
                status.update(f"consolidating… {getattr(step, 'name', step)} done")

            kwargs["progress"] = step_done
        return await fn(**kwargs)


def _report_dict(report: Any) -> Any:
    to_dict = getattr(report, "to_dict", None)
    return _jsonable(to_dict() if callable(to_dict) else report)


def print_report(report: Any) -> None:
    """A consolidation report: one row per step (what changed, what was seen, how long, whether
    it failed or hit its cap), then the run's summary. Unknown shapes print field by field."""
    data = _report_dict(report)
    if not isinstance(data, dict):
        out.print(escape(str(data)))
        return
    steps = data.get("steps")
    if isinstance(steps, list) and all(isinstance(s, dict) for s in steps):
        table = Table("step", "changes", "stats", "seconds", "status")
        for s in steps:
            if s.get("error"):
                state = f"[red]error: {escape(str(s['error']))}[/]"
            else:
                state = "capped" if s.get("capped") else "ok"
            seconds = s.get("duration_s", s.get("seconds"))
            table.add_row(
                escape(str(s.get("name", "?"))),
                escape(_cell(s.get("changes"))) or "-",
                escape(_cell(s.get("stats"))),
                _cell(seconds),
                state,
            )
        out.print(table)
    for key, value in data.items():
        if key != "steps":
            out.print(f"{key}: {escape(_cell(value))}")


def _cell(value: Any) -> str:
    if value is None:
        return ""
    if isinstance(value, float):
        return f"{value:.3f}"
    if isinstance(value, Mapping):
        return ", ".join(f"{k}={_cell(v)}" for k, v in value.items())
    if isinstance(value, list):
        return json.dumps(value, separators=(",", ":"), ensure_ascii=False)
    return str(value)


STEP_OPT = typer.Option(None, "--step", "-s", help="Run only this step (repeatable).")


@app.command("consolidate")
def consolidate_cmd(
    namespace: str = NAMESPACE_OPT,
    step: list[str] = STEP_OPT,
    dry_run: bool = typer.Option(
        False, "--dry-run", help="Report what would change; change nothing."
    ),
    as_json: bool = typer.Option(False, "--json", help="Print the report as JSON."),
) -> None:
    """Run the consolidation job ("dream cycle") once and print its per-step report."""
    report = _run(lambda km: _consolidate_once(km, namespace, step or None, dry_run))
    if as_json:
        _print_json(_report_dict(report))
    else:
        print_report(report)


@app.command("worker")
def worker_cmd(
    namespace: str = NAMESPACE_OPT,
    every: float = typer.Option(3600.0, "--every", min=0.0, help="Seconds between runs."),
    times: int = typer.Option(None, "--times", min=1, help="Stop after this many runs."),
    step: list[str] = STEP_OPT,
    dry_run: bool = typer.Option(False, "--dry-run"),
) -> None:
    """Run consolidation on a schedule; a failed run is reported and the next one still runs."""

    async def loop(km: Kgmem) -> int:
        _consolidator(km)  # fail now, not after the first sleep, if there is no job
        failures = 0
        run = 0
        while times is None or run < times:
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
                await asyncio.sleep(every)
        return failures

    failures = _run(loop)
    if failures:
        raise typer.Exit(1)


def main(argv: list[str] | None = None) -> Any:
    return app(args=argv if argv is not None else sys.argv[1:])
