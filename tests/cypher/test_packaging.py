"""The query files ship inside a non-editable install of the package."""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]


@pytest.mark.slow
def test_query_files_ship_in_a_non_editable_install(tmp_path: Path) -> None:
    # Build from a copy of the sources, in that copy: setuptools' build/ cache (in the cwd)
    # would otherwise hand back files deleted from the tree since the last build.
    src = tmp_path / "src"
    src.mkdir()
    for name in ("pyproject.toml", "README.md"):
        shutil.copy(ROOT / name, src / name)
    shutil.copytree(ROOT / "kgmem", src / "kgmem", ignore=shutil.ignore_patterns("__pycache__"))
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
            str(src),
        ],
        check=True,
        capture_output=True,
        timeout=300,
        cwd=src,
    )
    assert not (target / "kgmem" / "__editable__").exists()
    code = (
        "import kgmem.graph.catalog as c, pathlib;"
        "print(pathlib.Path(c.__file__).parent.parent);"
        "print(len(c.load_schema()));"
        "print(*sorted(c.load_catalog()))"
    )
    out = subprocess.run(
        [sys.executable, "-c", code],
        capture_output=True,
        text=True,
        cwd=tmp_path,
        env={"PYTHONPATH": str(target)},
        check=True,
    )
    location, n_schema, names = out.stdout.strip().splitlines()
    assert Path(location) == target / "kgmem"
    assert set(names.split()) == {p.stem for p in (ROOT / "kgmem" / "cypher").glob("*.cypher")}
    assert int(n_schema) > 0
