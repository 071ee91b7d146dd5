"""The query files ship inside a non-editable install of the package."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]


@pytest.mark.slow
def test_query_files_ship_in_a_non_editable_install(tmp_path: Path) -> None:
    target = tmp_path / "site"
    subprocess.run(
        [
            sys.executable,
            "-m",
            "pip",
            "install",
            "--quiet",
            "--no-deps",
            "--no-build-isolation",
            "--target",
            str(target),
            str(ROOT),
        ],
        check=True,
        capture_output=True,
        timeout=300,
    )
    assert not (target / "kgmem" / "__editable__").exists()
    code = (
        "import kgmem.graph.catalog as c, pathlib;"
        "print(pathlib.Path(c.__file__).parent.parent);"
        "print(len(c.load_catalog()), len(c.load_schema()))"
    )
    out = subprocess.run(
        [sys.executable, "-c", code],
        capture_output=True,
        text=True,
        cwd=tmp_path,
        env={"PYTHONPATH": str(target)},
        check=True,
    )
    location, counts = out.stdout.strip().splitlines()
    assert Path(location) == target / "kgmem"
    n_queries, n_schema = map(int, counts.split())
    assert n_queries == len(list((ROOT / "kgmem" / "cypher").glob("*.cypher")))
    assert n_schema > 0
