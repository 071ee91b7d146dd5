"""One ``/metrics`` for several API processes: each shares its metrics, any one answers for all.

Contract. ``kgmem serve --workers N`` runs N processes on one socket, and the kernel hands each
connection, a scrape too, to any of them; a scrape that saw one process's counters would jump
between processes. So with ``api_metrics_dir`` set (``serve`` sets it to a fresh directory when
N > 1) every process writes its metrics text, every sample labelled with its ``pid``, to
``<dir>/<pid>.prom`` every :data:`FLUSH_S` seconds (:class:`Snapshots`), and the process that
answers a scrape renders its own now and :func:`merge`\\ s the other processes' files into one
exposition: each metric family once, with every process's samples. A scrape thus sees every
process (the others as of at most ``FLUSH_S`` ago); sum over ``pid`` for the server's totals.
A file older than :data:`STALE_S` (a process that died without removing it) is left out. A
single process (no directory) serves its own metrics without a ``pid`` label.

Why not ``prometheus_client``'s own multiprocess mode (``PROMETHEUS_MULTIPROC_DIR``): it sums
the processes' counters into one series (the per-process samples, and so a stuck worker, are no
longer visible), it does not run the process collector (no per-process resident memory or CPU,
which the ``--workers`` test checks), and the variable must be set before the library is first
imported in every worker. The samples themselves are the library's text (:mod:`kgmem.api.metrics`).
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from kgmem.api.metrics import Metrics
from kgmem.settings import Settings

FLUSH_S = 2.0
STALE_S = 5 * FLUSH_S


@dataclass
class _Family:
    help: str = ""
    kind: str = ""
    samples: list[str] = field(default_factory=list)


def merge(texts: Sequence[str]) -> str:
    """Several expositions as one: each family's HELP and TYPE once, then all their samples."""
    families: dict[str, _Family] = {}
    for text in texts:
        current: _Family | None = None
        for line in text.splitlines():
            if line.startswith(("# HELP ", "# TYPE ")):
                _, tag, name, *rest = line.split(" ", 3)
                current = families.setdefault(name, _Family())
                if tag == "HELP":
                    current.help = rest[0] if rest else ""
                else:
                    current.kind = rest[0] if rest else "untyped"
            elif line and current is not None:
                current.samples.append(line)
    lines: list[str] = []
    for name, family in families.items():
        lines += [f"# HELP {name} {family.help}", f"# TYPE {name} {family.kind}"]
        lines += family.samples
    return "\n".join(lines) + "\n"


class Snapshots:
    """This process's metrics file in the shared directory, and the other processes' files."""

    def __init__(self, directory: Path, pid: int) -> None:
        self.directory, self.pid = directory, pid
        self.path = directory / f"{pid}.prom"

    @classmethod
    def of(cls, settings: Settings) -> Snapshots | None:
        if settings.api_metrics_dir is None:
            return None
        settings.api_metrics_dir.mkdir(parents=True, exist_ok=True)
        return cls(settings.api_metrics_dir, os.getpid())

    def render(self, metrics: Metrics, service: Any) -> str:
        """Every process's metrics: this one's now, the others' from their last files."""
        return merge([metrics.render(service, pid=self.pid), *self.others()])

    def write(self, text: str) -> None:
        # Written aside and renamed: a reader never sees half a file.
        aside = self.path.with_suffix(".tmp")
        aside.write_text(text, encoding="utf-8")
        os.replace(aside, self.path)

    def others(self) -> list[str]:
        texts = []
        oldest = time.time() - STALE_S
        for path in sorted(self.directory.glob("*.prom")):
            if path == self.path:
                continue
            with contextlib.suppress(OSError):  # a process removing its file as we read
                if path.stat().st_mtime >= oldest:
                    texts.append(path.read_text(encoding="utf-8"))
        return texts

    async def keep_writing(self, metrics: Metrics, service: Any) -> None:
        """Write this process's metrics every FLUSH_S until cancelled."""
        while True:
            self.write(metrics.render(service, pid=self.pid))
            await asyncio.sleep(FLUSH_S)

    def remove(self) -> None:
        with contextlib.suppress(OSError):
            self.path.unlink()
