"""``kgmem consolidate``: run the consolidation job once (``kgmem worker`` runs it on a schedule,
see :mod:`kgmem.cli.worker`, with the helpers here).

Contract. ``consolidate`` runs ``Kgmem.consolidate`` once (optionally some ``--step``s, or
``--dry-run``) and prints its per-step report (:func:`print_report`) or, with ``--json``, the
report as JSON. An install without ``Kgmem.consolidate`` says so clearly.
"""

from __future__ import annotations

import inspect
import json
from collections.abc import Awaitable, Callable, Mapping
from typing import TYPE_CHECKING, Any

import typer
from rich.markup import escape
from rich.table import Table

from kgmem.cli.runtime import (
    NAMESPACE_OPT,
    err,
    jsonable,
    out,
    print_json,
    run_on_kgmem,
)
from kgmem.errors import KgmemError

if TYPE_CHECKING:  # only annotations here: `kgmem --help` must not load the service
    from kgmem.service import Kgmem


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
    return jsonable(to_dict() if callable(to_dict) else report)


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


def consolidate_cmd(
    namespace: str = NAMESPACE_OPT,
    step: list[str] = STEP_OPT,
    dry_run: bool = typer.Option(
        False, "--dry-run", help="Report what would change; change nothing."
    ),
    as_json: bool = typer.Option(False, "--json", help="Print the report as JSON."),
) -> None:
    """Run the consolidation job ("dream cycle") once and print its per-step report."""
    report = run_on_kgmem(lambda km: _consolidate_once(km, namespace, step or None, dry_run))
    if as_json:
        print_json(_report_dict(report))
    else:
        print_report(report)
