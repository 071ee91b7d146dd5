"""LoCoMo benchmark: progress reporting.

``Progress`` is the callback every long step reports to as ``(label, done, total)``; ``_Bar``
renders it as a rich progress bar when stderr is a terminal, else as a plain stderr line at the
start and end of each task and at most every 10 s in between (so logs of background runs stay
short).
"""

from __future__ import annotations

import contextlib
import sys
import time
from collections.abc import Callable, Iterator
from typing import Any

Progress = Callable[[str, int, int], None]  # (label, done, total)


class _Bar:
    """A rich progress bar on a terminal stderr, else a plain stderr line every 10 s per task."""

    def __init__(self) -> None:
        self._progress: Any = None
        self._tasks: dict[str, Any] = {}
        self._last: dict[str, float] = {}

    @contextlib.contextmanager
    def running(self) -> Iterator[Progress]:
        try:
            from rich.console import Console
            from rich.progress import (
                BarColumn,
                MofNCompleteColumn,
                TextColumn,
                TimeElapsedColumn,
            )
            from rich.progress import Progress as RichProgress
        except ImportError:
            yield self._print
            return
        console = Console(stderr=True)
        if not console.is_terminal:  # a live bar only renders on a terminal: print instead
            yield self._print
            return
        with RichProgress(
            TextColumn("{task.description}"),
            BarColumn(),
            MofNCompleteColumn(),
            TimeElapsedColumn(),
            console=console,
        ) as progress:
            self._progress = progress
            yield self._update
        self._progress = None

    def _update(self, label: str, done: int, total: int) -> None:
        task = self._tasks.get(label)
        if task is None:
            task = self._tasks[label] = self._progress.add_task(label, total=total)
        self._progress.update(task, completed=done, total=total)

    def _print(self, label: str, done: int, total: int) -> None:
        now = time.monotonic()
        if done in (0, total) or now - self._last.get(label, 0.0) > 10:
            self._last[label] = now
            print(f"{label}: {done}/{total}", file=sys.stderr, flush=True)
