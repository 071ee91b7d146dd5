"""The thin client install: kgmem, its SDK and its CLI import without the server extra (the Neo4j
driver, numpy, the models, GDS, the API) or the LLM client, the CLI's help answers there, and a
command that needs the server extra says so in one line.

Each case runs in a child interpreter where the extras' modules are blocked (``None`` in
``sys.modules`` makes their import fail), as in an install without them."""

from __future__ import annotations

import re
import subprocess
import sys
import tomllib
from pathlib import Path

from kgmem.extras import EXTRAS, missing

ROOT = Path(__file__).resolve().parents[2]
BLOCK = sorted(
    {*EXTRAS["server"], *EXTRAS["llm"], *EXTRAS["torch"], "transformers", "pandas", "scipy"}
)
PRELUDE = f"import sys\nfor m in {BLOCK!r}:\n    sys.modules[m] = None\n"


def _child(code: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-c", PRELUDE + code],
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )


def test_the_sdk_and_the_cli_import_without_the_server_extra() -> None:
    run = _child(
        "import kgmem, kgmem.sdk, kgmem.cli\n"
        "from kgmem.sdk import KgmemClient\n"
        "KgmemClient('http://127.0.0.1:1', api_key='k' * 16)\n"
        f"print(sorted(m for m in {BLOCK!r} if sys.modules.get(m) is not None))\n"
    )
    assert run.returncode == 0, run.stderr[-2000:]
    assert run.stdout.strip() == "[]"


def test_the_cli_help_answers_without_the_server_extra() -> None:
    run = _child("from kgmem.entry import main\nsys.argv = ['kgmem', '--help']\nmain()")
    assert run.returncode == 0, run.stderr[-2000:]
    for command in ("remember", "recall", "serve", "db"):
        assert command in run.stdout, command


def test_the_core_install_is_the_thin_client() -> None:
    """pyproject's core dependencies are the client's; the driver and numpy come with `server`,
    whose check names them."""
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    core = {re.split(r"[<>=!~ \[]", d, maxsplit=1)[0] for d in project["dependencies"]}
    assert core == {"httpx", "typer", "rich", "pydantic", "pydantic-settings", "platformdirs"}
    server = " ".join(project["optional-dependencies"]["server"])
    assert "neo4j>=" in server and "numpy>=" in server
    assert {"neo4j", "numpy"} <= set(EXTRAS["server"])


def test_version_works_and_a_service_command_names_the_missing_extra() -> None:
    version = _child("from kgmem.cli import main\nmain(['--version'])")
    assert version.returncode == 0, version.stderr[-2000:]
    assert version.stdout.strip().startswith("kgmem ")
    recall = _child("from kgmem.cli import main\nmain(['recall', 'what milk?'])")
    assert recall.returncode == 1
    lines = recall.stderr.strip().splitlines()
    assert len(lines) == 1, recall.stderr
    assert "`kgmem recall` needs the server extra: pip install 'kgmem[server]'" in lines[0]
    assert "spacy" in lines[0] and "Traceback" not in recall.stderr


def test_this_environment_has_every_extra_the_tests_use() -> None:
    assert missing("server") == []
    assert missing("frameworks") == [] and missing("otel") == [] and missing("mcp") == []


def test_without_the_mcp_extra_kgmem_mcp_names_it_and_the_api_serves_without_mcp() -> None:
    blocked = "import sys\nsys.modules['mcp'] = None\n"
    command = subprocess.run(
        [sys.executable, "-c", blocked + "from kgmem.cli import main\nmain(['mcp'])"],
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert command.returncode == 1
    lines = command.stderr.strip().splitlines()
    assert len(lines) == 1, command.stderr
    assert "`kgmem mcp` needs the mcp extra: pip install 'kgmem[mcp]'" in lines[0]
    app = subprocess.run(
        [
            sys.executable,
            "-c",
            blocked + "from kgmem.api import create_app\nfrom kgmem.settings import Settings\n"
            "app = create_app(Settings(api_auth_disabled=True))\n"
            "print(sorted(getattr(r, 'path', '') for r in app.routes))",
        ],
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert app.returncode == 0, app.stderr[-2000:]
    assert "/graphql" in app.stdout and "/mcp" not in app.stdout
