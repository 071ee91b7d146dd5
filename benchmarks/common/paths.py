"""Where the benchmarks read their data and write their results.

Data: the dev sets live beside the repository, read-only and never copied into it —
``../shared/data/locomo/locomo_dev.json`` (``LOCOMO``) and ``../shared/data/beam`` (``BEAM``).

Results: outside the repository, so that running a benchmark never dirties the tree. A result
goes to ``$KGMEM_BENCH_DIR`` when that is set, else to ``benchmarks`` under kgmem's per-user data
directory (platformdirs: ``~/.local/share/kgmem/benchmarks`` on Linux), as
``<name>-<YYYY-MM-DD>.md`` with its JSON beside it (same stem). ``--out`` (``add_out_argument``)
names the Markdown file instead. Everything here is pure but ``results_dir``'s default reading of
the process environment; nothing is read or created at import.
"""

from __future__ import annotations

import argparse
import os
from collections.abc import Mapping
from datetime import UTC, date, datetime
from pathlib import Path

from platformdirs import user_cache_dir, user_data_dir

ENV_VAR = "KGMEM_BENCH_DIR"
REPO = Path(__file__).resolve().parents[2]
DATA = REPO.parent / "shared" / "data"
LOCOMO = DATA / "locomo" / "locomo_dev.json"
BEAM = DATA / "beam"


def results_dir(environ: Mapping[str, str] | None = None) -> Path:
    """``$KGMEM_BENCH_DIR`` (``~`` expanded) when set and not empty, else the per-user
    ``kgmem/benchmarks`` data directory."""
    env = os.environ if environ is None else environ
    chosen = env.get(ENV_VAR, "").strip()
    if chosen:
        return Path(chosen).expanduser()
    return Path(user_data_dir("kgmem")) / "benchmarks"


def cache_dir() -> Path:
    """Where benchmarks keep reusable intermediate files (memo pickles, embeddings): kgmem's
    per-user cache directory, never the repository (they hold data-set text)."""
    return Path(user_cache_dir("kgmem")) / "benchmarks"


def default_out(
    name: str, today: date | None = None, environ: Mapping[str, str] | None = None
) -> Path:
    """The Markdown result file of a run of benchmark ``name`` on ``today`` (UTC by default)."""
    if not name or "/" in name or name.startswith("."):
        raise ValueError(f"a result name is one plain file stem, not {name!r}")
    day = today if today is not None else datetime.now(UTC).date()
    return results_dir(environ) / f"{name}-{day.isoformat()}.md"


def result_path(
    out: Path | str | None,
    name: str,
    today: date | None = None,
    environ: Mapping[str, str] | None = None,
) -> Path:
    """``out`` when given (``--out`` overrides), else ``default_out(name)``."""
    if out is not None and str(out):
        return Path(out).expanduser()
    return default_out(name, today, environ)


def add_out_argument(parser: argparse.ArgumentParser) -> None:
    """The ``--out`` option every benchmark shares; its default is resolved at run time."""
    parser.add_argument(
        "--out",
        type=Path,
        default=None,
        help=f"Markdown result path (JSON beside it); default: ${ENV_VAR} or the per-user "
        "data directory's kgmem/benchmarks, as <name>-<date>.md",
    )
