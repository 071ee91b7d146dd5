"""``kgmem remember`` and ``kgmem observe``: write explicit memories and observe conversations.

Contract. ``remember`` stores one memory, or every non-empty line of a file, and prints how many
were created, updated or merged; ``observe`` reads JSONL turns or a LoCoMo-style JSON file
(one namespace per conversation when it holds several), observes them in chunks, extracts what
is still buffered, and prints the counts. Unreadable input is one red ``error:`` line.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import typer
from rich.markup import escape

from kgmem.cli.plumbing import (
    NAMESPACE_OPT,
    err,
    fail,
    out,
    progress_bar,
    run_on_kgmem,
)
from kgmem.errors import InvalidInput, KgmemError
from kgmem.formats import read_jsonl_turns, read_locomo
from kgmem.service import Kgmem


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
        receipt = run_on_kgmem(lambda km: km.remember(text, namespace=namespace, category=category))
        ents = ", ".join(receipt.entities) or "none"
        out.print(f"{receipt.action} {receipt.memory_id} (entities: {escape(ents)})")
        return
    try:
        lines = [ln.strip() for ln in file.read_text(encoding="utf-8").splitlines() if ln.strip()]
    except (OSError, UnicodeDecodeError) as exc:
        fail(InvalidInput(f"cannot read {file}: {getattr(exc, 'strerror', None) or exc}"))

    async def load(km: Kgmem) -> dict[str, int]:
        counts: dict[str, int] = {}
        with progress_bar() as progress:
            task = progress.add_task("remembering", total=len(lines))
            for line in lines:
                receipt = await km.remember(line, namespace=namespace, category=category)
                counts[receipt.action] = counts.get(receipt.action, 0) + 1
                progress.advance(task)
        return counts

    counts = run_on_kgmem(load)
    out.print(", ".join(f"{n} {action}" for action, n in sorted(counts.items())) or "nothing")


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
        fail(exc)
    total = sum(len(turns) for _, turns in batches)

    async def load(km: Kgmem) -> dict[str, int]:
        counts: dict[str, int] = {"turns": 0, "new episodes": 0}
        with progress_bar() as progress:
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

    counts = run_on_kgmem(load)
    out.print(", ".join(f"{n} {what}" for what, n in counts.items()))


def _count(counts: dict[str, int], report: Any) -> None:
    if report is None:
        return
    for receipt in report.receipts:
        counts[receipt.action] = counts.get(receipt.action, 0) + 1
    for reason, n in report.skip_counts().items():  # turns that gave no memory, by reason
        key = f"skipped ({reason})"
        counts[key] = counts.get(key, 0) + n
