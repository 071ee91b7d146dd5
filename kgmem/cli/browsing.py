"""``kgmem facts`` and ``kgmem timeline``: what kgmem holds true about an entity, and how it got
there.

Contract. ``facts`` prints an entity's current attributes from its memories' claims, one row per
slot (current values, then the superseded ones before them, each with the date it held from and
the memory that superseded it), or ``--json``. ``timeline`` prints the memories about an entity
or a topic in the order they became true, superseded ones included, each with its claim (slot =
value) and what superseded it, so a chain of changes reads top to bottom; ``--json`` for programs.
A name nothing in the namespace carries is one ``error:`` line (exit 1), like every command.
"""

from __future__ import annotations

from datetime import datetime
from typing import TYPE_CHECKING, Any

import typer
from rich.markup import escape
from rich.table import Table

from kgmem.cli.runtime import NAMESPACE_OPT, out, print_json, run_on_kgmem

if TYPE_CHECKING:  # only annotations here: `kgmem --help` must not load the service
    from kgmem.facts import FactValue


def facts_cmd(
    entity: str = typer.Argument(..., help="Entity id, name or alias."),
    slot: str = typer.Option(None, "--slot", help='One claim family or key: "preference:milk".'),
    namespace: str = NAMESPACE_OPT,
    as_json: bool = typer.Option(False, "--json", help="Print JSON instead of a table."),
) -> None:
    """An entity's current attributes from its memories' claims, with what they replaced."""
    facts = run_on_kgmem(lambda km: km.entity_facts(entity, slot=slot, namespace=namespace))
    if as_json:
        print_json(facts)
        return
    if not facts.slots:
        out.print(f"no claims about {escape(facts.name or facts.subject)}")
        return
    table = Table("slot", "current", "history (newest first)", title=facts.name or facts.subject)
    for s in facts.slots:
        current = "\n".join(_value(v) for v in s.current) or "[dim](none now)[/]"
        history = "\n".join(_old(v) for v in s.history)
        table.add_row(escape(s.slot), current, history)
    out.print(table)


def timeline_cmd(
    entity: str = typer.Argument(None, help="Entity id, name or alias."),
    topic: str = typer.Option(None, "--topic", help="A topic instead of an entity."),
    namespace: str = NAMESPACE_OPT,
    limit: int = typer.Option(50, "--limit", "-k"),
    as_json: bool = typer.Option(False, "--json", help="Print JSON instead of a table."),
) -> None:
    """Memories about an entity (or --topic) in the order they became true, with the chain of
    what superseded what."""
    rows = run_on_kgmem(
        lambda km: km.timeline(entity=entity, topic=topic, namespace=namespace, limit=limit)
    )
    if as_json:
        print_json([{**r["memory"], "superseded_by": r["superseded_by"]} for r in rows])
        return
    if not rows:
        out.print("no memories")
        return
    number = {r["memory"]["id"]: i for i, r in enumerate(rows, start=1)}
    table = Table("#", "from", "status", "claim", "memory", "superseded by")
    for i, r in enumerate(rows, start=1):
        m = r["memory"]
        later = ", ".join(f"#{number[w]}" if w in number else w[:8] for w in r["superseded_by"])
        table.add_row(
            str(i), _day(m.get("valid_from") or m.get("created_at")), str(m.get("status") or ""),
            escape(_claim(m)), escape(str(m.get("content") or "")), later,
        )  # fmt: skip
    out.print(table)


def _claim(m: dict[str, Any]) -> str:
    if not m.get("claim_slot"):
        return ""
    ended = " (ended)" if m.get("claim_polarity") == "ended" else ""
    subject = f"{m['claim_subject']}: " if m.get("claim_subject") else ""
    return f"{subject}{m['claim_slot']} = {m.get('claim_value') or ''}{ended}"


def _value(v: FactValue) -> str:
    ended = " (ended)" if v.polarity == "ended" else ""
    return f"{escape(v.value)}{ended} [dim]since {_day(v.valid_from)}, {v.memory_id[:8]}[/]"


def _old(v: FactValue) -> str:
    by = ", ".join(i[:8] for i in v.superseded_by)
    replaced = f", superseded by {by}" if by else ""
    return (
        f"{escape(v.value)} [dim]{_day(v.valid_from)} → {_day(v.valid_until)}, "
        f"{v.memory_id[:8]}{replaced}[/]"
    )


def _day(value: Any) -> str:
    return value.date().isoformat() if isinstance(value, datetime) else "?"
