"""What every ``kgmem`` command shares: the consoles, Settings, running one ``Kgmem``, JSON, bars.

Contract. ``out`` is stdout for results and ``err`` is stderr for errors, bars and spinners, so
stdout stays clean for programs. :func:`fail` prints a ``KgmemError`` as one red ``error:`` line
and exits 1; :func:`load_settings` builds the command's one ``Settings`` (a bad ``KGMEM_*`` value
is such a line); :func:`run_on_kgmem` runs one async operation with a connected ``Kgmem`` and
turns its errors into that line (Ctrl-C exits 130), also a ``KgmemError`` a task group wrapped
in an exception group.
:func:`jsonable`/:func:`print_json` print records as plain JSON; :func:`progress_bar` is a
transient bar on stderr, off when stderr is not a terminal. :func:`input_path` and
:func:`output_path` let ``-`` stand for stdin / stdout where a command takes a file: the data
goes through a temporary file, since the readers and writers work on paths.
"""

from __future__ import annotations

import asyncio
import dataclasses
import json
import shutil
import sys
import tempfile
from collections.abc import Awaitable, Callable, Iterator, Mapping
from contextlib import contextmanager
from datetime import date, datetime
from enum import Enum
from pathlib import Path
from typing import TYPE_CHECKING, Any, NoReturn, TypeVar

import typer
from rich.console import Console
from rich.markup import escape

from kgmem.errors import ConfigError, KgmemError, primary

if TYPE_CHECKING:  # imported where a command runs: `kgmem --help` must not load the service
    from rich.progress import Progress

    from kgmem.service import Kgmem
    from kgmem.settings import Settings

T = TypeVar("T")
out = Console()
# soft_wrap: an error stays one line however narrow the terminal.
err = Console(stderr=True, soft_wrap=True)

NAMESPACE_OPT = typer.Option(None, "--namespace", "-n", help="Namespace (default: the setting).")


def fail(exc: KgmemError) -> NoReturn:
    err.print(f"[bold red]error:[/] {escape(exc.message)}", highlight=False)
    raise typer.Exit(1)


def load_settings() -> Settings:
    """The one Settings object of this command; a bad KGMEM_* value is a one-line error."""
    from pydantic import ValidationError

    from kgmem.settings import Settings

    try:
        return Settings()
    except ValidationError as exc:
        first = exc.errors()[0]
        name = "KGMEM_" + "_".join(str(p) for p in first["loc"]).upper()
        fail(ConfigError(f"{name}: {first['msg']}"))
    except KgmemError as exc:
        fail(exc)


def run_on_kgmem(fn: Callable[[Kgmem], Awaitable[T]], settings: Settings | None = None) -> T:
    """Run one async operation with a connected ``Kgmem`` (on the command's ``settings`` when it
    loaded them already); errors become one red line."""
    settings = settings or load_settings()
    from kgmem.service import Kgmem

    async def main() -> T:
        async with Kgmem(settings) as km:
            return await fn(km)

    try:
        return asyncio.run(main())
    except KeyboardInterrupt:
        err.print("interrupted")
        raise typer.Exit(130) from None
    except Exception as exc:
        cause = primary(exc)  # a task group's exception group: its KgmemError decides
        if isinstance(cause, KgmemError):
            fail(cause)
        raise


def run_on_memory(fn: Callable[[Any], Awaitable[T]], settings: Settings | None = None) -> T:
    """``run_on_kgmem``, or with ``api_url`` set the same call on a :class:`KgmemClient` to that
    server (the two share the ``Memory`` interface: same methods, same records)."""
    settings = settings or load_settings()
    if not settings.api_url:
        return run_on_kgmem(fn, settings)
    from kgmem.sdk import KgmemClient

    key = settings.api_client_key.get_secret_value() if settings.api_client_key else None

    async def main() -> T:
        async with KgmemClient(settings.api_url, key) as client:
            return await fn(client)

    try:
        return asyncio.run(main())
    except KeyboardInterrupt:
        err.print("interrupted")
        raise typer.Exit(130) from None
    except KgmemError as exc:
        fail(exc)


def jsonable(value: Any) -> Any:
    """Records, enums and datetimes → plain JSON values."""
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return {f.name: jsonable(getattr(value, f.name)) for f in dataclasses.fields(value)}
    if hasattr(value, "model_dump"):
        return jsonable(value.model_dump())
    if isinstance(value, datetime | date):
        return value.isoformat()
    if isinstance(value, Enum):
        return value.value
    if isinstance(value, Mapping):
        return {str(k): jsonable(v) for k, v in value.items()}
    if isinstance(value, list | tuple | set | frozenset):
        return [jsonable(v) for v in value]
    return value


def print_json(value: Any) -> None:
    # Plain stdout, not rich: programs parse this, so no colour codes and no wrapping.
    sys.stdout.write(json.dumps(jsonable(value), indent=2, ensure_ascii=False) + "\n")


def progress_bar() -> Progress:
    from rich.progress import (
        BarColumn,
        MofNCompleteColumn,
        Progress,
        TextColumn,
        TimeElapsedColumn,
    )

    return Progress(
        TextColumn("{task.description}"),
        BarColumn(),
        MofNCompleteColumn(),
        TimeElapsedColumn(),
        console=err,
        transient=True,
        disable=not err.is_terminal,  # a bar in a log or a pipe is noise
    )


STDIO = Path("-")


@contextmanager
def input_path(file: Path, suffix: str = "") -> Iterator[Path]:
    """``file``, or for ``-`` a temporary copy of stdin (named with ``suffix``: readers choose
    the format by it)."""
    if file != STDIO:
        yield file
        return
    with tempfile.TemporaryDirectory(prefix="kgmem-stdin-") as tmp:
        path = Path(tmp) / f"stdin{suffix}"
        with path.open("wb") as fh:
            shutil.copyfileobj(sys.stdin.buffer, fh)
        yield path


@contextmanager
def output_path(file: Path) -> Iterator[Path]:
    """``file``, or for ``-`` a temporary file copied to stdout once the command wrote it."""
    if file != STDIO:
        yield file
        return
    with tempfile.TemporaryDirectory(prefix="kgmem-stdout-") as tmp:
        path = Path(tmp) / "stdout"
        yield path
        with path.open("rb") as fh:
            shutil.copyfileobj(fh, sys.stdout.buffer)
        sys.stdout.flush()
