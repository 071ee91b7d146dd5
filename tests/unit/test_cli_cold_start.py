"""`kgmem --help` and `kgmem --version` answer without loading the service, the driver or models.

The CLI's cold start is its imports: a command module that imports the service at module level
makes every `--help` pay for the Neo4j driver, numpy and pandas (about a second). Each case runs
the console script's entry point in a fresh interpreter and reads which modules it loaded, so
the check does not depend on how fast the machine is.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys

import pytest

HEAVY = (
    "neo4j",
    "numpy",
    "pandas",
    "spacy",
    "onnxruntime",
    "torch",
    "sentence_transformers",
    "graphdatascience",
    "kgmem.service",
    "kgmem.graph.client",
)
MARK = "LOADED-MODULES:"
# runs kgmem's entry point as the console script does, then reports what got imported
CHILD = f"""
import json, sys
from kgmem.entry import main
sys.argv = ["kgmem", *sys.argv[1:]]
try:
    main()
except SystemExit:
    pass
print({MARK!r} + json.dumps(sorted(m for m in {HEAVY!r} if m in sys.modules)))
"""


def _loaded(*args: str) -> tuple[str, list[str]]:
    run = subprocess.run(
        [sys.executable, "-c", CHILD, *args],
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
        env={**os.environ, "COLUMNS": "200"},
    )
    assert run.returncode == 0, run.stderr[-2000:]
    output, _, report = run.stdout.rpartition(MARK)
    return output, json.loads(report)


@pytest.mark.parametrize(
    "args",
    [
        ["--help"],
        ["--version"],
        ["db", "--help"],
        ["recall", "--help"],
        ["remember", "--help"],
        ["serve", "--help"],
    ],
)
def test_help_and_version_load_nothing_heavy(args: list[str]) -> None:
    output, heavy = _loaded(*args)
    assert output.strip(), "the command printed nothing"
    assert heavy == [], f"`kgmem {' '.join(args)}` imported {heavy}"


def test_the_check_sees_a_heavy_import() -> None:
    """The probe itself works: a child that imports the service is caught."""
    run = subprocess.run(
        [sys.executable, "-c", "import kgmem.service\n" + CHILD, "--version"],
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert run.returncode == 0, run.stderr[-2000:]
    heavy = json.loads(run.stdout.rpartition(MARK)[2])
    assert "kgmem.service" in heavy and "neo4j" in heavy
