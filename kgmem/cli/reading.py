"""``kgmem recall`` and ``kgmem stats``: read a namespace, for people or (``--json``) programs.

Contract. ``recall`` prints the best memories for a query as a table, or JSON (an episode hit,
a turn no memory stands for, is marked as one; ``--no-episodes`` leaves them out), and with
``--explain`` the X-ray (:func:`print_xray`: the understanding of the query, each hit's factor
contributions, channels, path and validity, the dropped candidates, the stage timings);
``stats`` prints a namespace's counts by label, status and relationship type.
"""

from __future__ import annotations

from collections.abc import Mapping
from datetime import datetime
from typing import TYPE_CHECKING, Any

import typer
from rich.markup import escape
from rich.table import Table

from kgmem.cli.runtime import (
    NAMESPACE_OPT,
    fail,
    load_settings,
    out,
    print_json,
    run_on_kgmem,
    run_on_memory,
)
from kgmem.errors import KgmemError
from kgmem.recall.options import RecallOptions

if TYPE_CHECKING:  # only annotations here: `kgmem --help` must not load the service
    from kgmem.recall.xray import Xray


def recall_cmd(
    query: str,
    namespace: str = NAMESPACE_OPT,
    limit: int = typer.Option(10, "--limit", "-k"),
    profile: str = typer.Option(
        None, "--profile", help="balanced (default), recent, important, deep, broad, precise."
    ),
    mode: str = typer.Option(
        None, "--mode", help="facts_only, facts_plus_rules, full_context (default: by intent)."
    ),
    dry: bool = typer.Option(False, "--dry", help="Read only: do not touch the hits."),
    explain: bool = typer.Option(False, "--explain", "-x", help="Print the X-ray."),
    as_json: bool = typer.Option(False, "--json", help="Print JSON instead of tables."),
    episodes: bool = typer.Option(
        True, "--episodes/--no-episodes", help="Let a turn no memory stands for fill in."
    ),
) -> None:
    """Recall the memories that best answer a query (--explain shows why)."""
    try:  # checked before any connection: a bad profile or mode costs nothing
        options = RecallOptions.parse(
            limit=limit, profile=profile, mode=mode, dry=dry, episode_hits=episodes
        )
    except KgmemError as exc:
        fail(exc)
    settings = load_settings()
    # the API sends the X-ray only when asked; the in-process service always makes one
    remote = {"explain": True} if settings.api_url and explain else {}
    result = run_on_memory(
        lambda memory: memory.recall(query, options, namespace=namespace, **remote), settings
    )
    if as_json:
        payload: dict[str, Any] = {"query": query, "skipped": result.skipped, "hits": result.hits}
        if explain:
            payload["xray"] = result.xray.to_dict()
        print_json(payload)
        return
    if result.skipped:
        out.print(f"skipped: {escape(result.skipped)} (nothing to look up)")
    elif not result.hits:
        out.print("no memories found")
    else:
        table = Table("#", "score", "memory", "channels")
        for i, hit in enumerate(result.hits, start=1):
            chans = " ".join(f"{c.channel}#{c.rank}" for c in hit.channels)
            text = escape(hit.content)
            if hit.kind != "memory":  # the turn itself: no memory stands for it
                text = f"[dim]turn {escape(', '.join(hit.turn_ids))} (episode hit)[/] {text}"
            table.add_row(str(i), f"{hit.score:.4f}", text, chans)
        out.print(table)
    if explain:
        print_xray(result.xray)


def print_xray(xray: Xray) -> None:
    """The X-ray for people: understanding, each hit's factor contributions, drops, timings."""
    out.rule("[bold]X-ray")
    out.print(f"query: {escape(xray.query)}   intent: [bold]{xray.intent}[/]")
    if xray.channels:
        out.print(f"channels searched: {', '.join(xray.channels)}")
    if len(xray.sub_queries) > 1:
        out.print("sub-queries: " + " | ".join(escape(q) for q in xray.sub_queries))
    if xray.hyde:
        out.print(f"HyDE expansions: {len(xray.hyde)}")
    for i, hit in enumerate(xray.hits, start=1):
        mark = "  [dim](episode hit: the turn itself)[/]" if hit.kind != "memory" else ""
        table = Table(
            "factor",
            "value",
            "contribution",
            "",
            title=f"#{i}  {hit.final_score:.4f}  {escape(_short(hit.content, 70))}{mark}",
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


def stats_cmd(
    namespace: str = NAMESPACE_OPT,
    as_json: bool = typer.Option(False, "--json", help="Print JSON instead of tables."),
) -> None:
    """Counts of a namespace's nodes by label, memories by status, relationships by type."""
    data = run_on_kgmem(lambda km: km.stats(namespace=namespace))
    if as_json:
        print_json(data)
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
