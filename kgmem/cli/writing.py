"""``kgmem remember`` and ``kgmem observe``: write explicit memories and observe conversations.

Contract. ``remember`` stores one memory, or every non-blank line of a file, and prints how many
were created, updated or merged; ``observe`` reads JSONL turns or a LoCoMo-style JSON file
(one namespace per conversation when it holds several), observes them in chunks, extracts what
is still buffered (in worker mode, ``KGMEM_EXTRACTION_MODE=worker``, it flushes it to the
workers instead), and prints the counts. A file is all or nothing: a first pass checks every
line with the write path's own checks (and every namespace it will write to) before anything is
written — the first bad line is one red ``error: FILE:LINE: reason`` line and the graph is left
as it was — and a second pass writes, streaming the file again rather than holding it.
Unreadable input is one red ``error:`` line.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator
from pathlib import Path
from typing import TYPE_CHECKING, Any, TypeVar

import typer
from rich.markup import escape

from kgmem.cli.runtime import (
    NAMESPACE_OPT,
    err,
    fail,
    input_path,
    load_settings,
    out,
    progress_bar,
    run_on_kgmem,
    run_on_memory,
)
from kgmem.core.validation import check_namespace
from kgmem.errors import InvalidInput, KgmemError
from kgmem.records import Turn
from kgmem.taxonomy import Category

if TYPE_CHECKING:  # only annotations here: `kgmem --help` must not load the service
    from kgmem.service import Kgmem

T = TypeVar("T")
CATEGORY_HELP = "One of: " + ", ".join(c.value for c in Category) + "."


def remember_cmd(
    text: str = typer.Argument(None, help="The memory text (or use --file)."),
    file: Path = typer.Option(
        None, "--file", "-f", help="One memory per non-blank line (- for stdin)."
    ),
    namespace: str = NAMESPACE_OPT,
    category: str = typer.Option("fact", "--category", "-c", help=CATEGORY_HELP),
) -> None:
    """Store one explicit memory, or every line of a file (checked whole before any is stored)."""
    if (text is None) == (file is None):
        err.print("[bold red]error:[/] give either TEXT or --file")
        raise typer.Exit(2)
    if text is not None and not text.strip():
        fail(InvalidInput("the memory text is empty: give the text to remember"))
    if file is not None:
        with input_path(file) as source:
            return _remember_file(source, namespace, category)
    settings = load_settings()
    if text is not None:
        receipt = run_on_memory(
            lambda memory: memory.remember(text, namespace=namespace, category=category), settings
        )
        ents = ", ".join(receipt.entities) or "none"
        out.print(f"{receipt.action} {receipt.memory_id} (entities: {escape(ents)})")


def _remember_file(file: Path, namespace: str | None, category: str) -> None:
    from kgmem.input_files import (
        memory_lines,  # the write path's checks: loaded when a file is read
    )

    settings = load_settings()

    def lines() -> Iterator[str]:
        return memory_lines(file, category=category, limit=settings.max_content_chars)

    ns = _namespace(namespace, settings.namespace)
    total = _checked(lambda: sum(1 for _ in lines()))  # first pass: nothing is written

    async def load(km: Kgmem) -> dict[str, int]:
        counts: dict[str, int] = {}
        with progress_bar() as progress:
            task = progress.add_task("remembering", total=total)
            for line in lines():
                receipt = await km.remember(line, namespace=ns, category=category)
                counts[receipt.action] = counts.get(receipt.action, 0) + 1
                progress.advance(task)
        return counts

    counts = run_on_kgmem(load, settings)
    out.print(", ".join(f"{n} {action}" for action, n in sorted(counts.items())) or "nothing")


def observe_cmd(
    file: Path = typer.Argument(
        ..., help="JSONL turns, or a LoCoMo-style JSON file (- for JSONL on stdin)."
    ),
    namespace: str = NAMESPACE_OPT,
    chunk: int = typer.Option(100, "--chunk", min=1, help="Turns per observe call."),
) -> None:
    """Observe a conversation file turn by turn (checked whole first), then extract whatever is
    still buffered."""
    with input_path(file, ".jsonl") as source:
        _observe(source, namespace, chunk)


def _observe(file: Path, namespace: str | None, chunk: int) -> None:
    from kgmem.input_files import jsonl_turns, read_locomo

    settings = load_settings()
    limit = settings.max_content_chars
    base = _namespace(namespace, settings.namespace)
    batches: list[tuple[str, Callable[[], Iterable[Turn]]]]
    if file.suffix == ".jsonl":
        total = _checked(lambda: sum(1 for _ in jsonl_turns(file, limit=limit)))  # first pass
        batches = [(base, lambda: jsonl_turns(file, limit=limit))]
    else:
        conversations = _checked(lambda: read_locomo(file, limit=limit))  # one JSON value
        several = len(conversations) > 1  # one namespace per conversation of a multi-file
        batches = [
            (_namespace(f"{base}-{c.sample_id}" if several else base, base), _given(c.turns))
            for c in conversations
        ]
        total = sum(len(c.turns) for c in conversations)

    async def load(km: Kgmem) -> dict[str, int]:
        counts: dict[str, int] = {"turns": 0, "new episodes": 0}
        with progress_bar() as progress:
            task = progress.add_task("observing", total=total)
            for ns, turns in batches:
                last: list[Turn] = []
                for part in _chunks(turns(), chunk):
                    report = await km.observe(part, namespace=ns)
                    counts["turns"] += len(part)
                    counts["new episodes"] += report.new_episodes
                    _count(counts, report.extraction)
                    progress.advance(task, len(part))
                    last = part
                if km.extracts_inline:
                    _count(counts, await km.extract_pending(namespace=ns))
                elif last:
                    # Worker mode: the workers extract. Sending the last chunk again with flush
                    # stores nothing new (observe is idempotent) and marks the namespace due,
                    # so what is still buffered is extracted now rather than after 15 minutes.
                    await km.observe(last, namespace=ns, flush=True)
        return counts

    counts = run_on_kgmem(load, settings)
    out.print(", ".join(f"{n} {what}" for what, n in counts.items()))


def _namespace(given: str | None, default: str) -> str:
    """The namespace a command writes to, checked before anything runs ("" is refused, not
    taken for the default)."""
    return _checked(lambda: check_namespace(default if given is None else given))


def _checked(work: Callable[[], T]) -> T:
    try:
        return work()
    except KgmemError as exc:
        fail(exc)


def _given(turns: tuple[Turn, ...]) -> Callable[[], Iterable[Turn]]:
    return lambda: turns


def _chunks(items: Iterable[Turn], size: int) -> Iterator[list[Turn]]:
    part: list[Turn] = []
    for item in items:
        part.append(item)
        if len(part) == size:
            yield part
            part = []
    if part:
        yield part


def _count(counts: dict[str, int], report: Any) -> None:
    if report is None:
        return
    for receipt in report.receipts:
        counts[receipt.action] = counts.get(receipt.action, 0) + 1
    for reason, n in report.skip_counts().items():  # turns that gave no memory, by reason
        key = f"skipped ({reason})"
        counts[key] = counts.get(key, 0) + n
