"""``kgmem facts``, ``kgmem timeline`` and episode hits in ``kgmem recall``, read as a user would,
against the session's real Neo4j with the quickstart's conversation (oat milk, then almond)."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from click.testing import Result
from typer.testing import CliRunner

from kgmem.cli import app
from kgmem.settings import Settings

pytestmark = [pytest.mark.graph, pytest.mark.models]

SAMPLE = Path(__file__).resolve().parents[2] / "examples" / "sample_conversation.jsonl"


@pytest.fixture
def cli(server_settings: Settings) -> Iterator[Any]:
    env = {
        "KGMEM_NEO4J_URI": server_settings.neo4j_uri,
        "KGMEM_NEO4J_AUTH": "false",
        "KGMEM_BOLT_PORT": str(server_settings.bolt_port),
        "KGMEM_HOME": str(server_settings.home),
        "COLUMNS": "160",
    }
    runner = CliRunner()

    def invoke(*args: str) -> Result:
        return runner.invoke(app, list(args), env=env)

    yield invoke


def _ok(result: Result) -> str:
    assert result.exit_code == 0, (result.stdout, result.stderr, result.exception)
    return result.stdout


def test_facts_timeline_and_episode_hits_from_the_command_line(cli: Any, namespace: str) -> None:
    _ok(cli("observe", str(SAMPLE), "-n", namespace))
    data = json.loads(_ok(cli("facts", "Maya", "-n", namespace, "--json")))
    (milk,) = [s for s in data["slots"] if s["slot"] == "preference:milk"]
    almond, oat = milk["current"][0], milk["history"][0]
    assert (almond["value"], oat["value"]) == ("almond milk", "oat milk")
    assert oat["superseded_by"] == [almond["memory_id"]]

    out = _ok(cli("facts", "Maya", "-n", namespace))
    assert "preference:milk" in out and "almond milk since 2024-04-14" in out
    assert f"superseded by {almond['memory_id'][:8]}" in out

    bad = cli("facts", "Maya", "-n", namespace, "--slot", "shoe size")
    assert bad.exit_code == 1 and bad.stderr.startswith("error: slot must be one of")
    missing = cli("facts", "Nobody Atall", "-n", namespace)
    assert missing.exit_code == 1 and "no entity or claim subject" in missing.stderr

    out = _ok(cli("timeline", "Maya", "-n", namespace))
    lines = [ln for ln in out.splitlines() if "preference:milk" in ln]
    assert len(lines) == 2 and "superseded" in lines[0] and "#" in lines[0].split("│")[-2]
    assert "oat milk" in lines[0] and "almond milk" in lines[1]

    out = _ok(cli("recall", "How are you feeling?", "-n", namespace, "-k", "10", "--dry"))
    assert "turn 1:2 (episode hit)" in out
    out = _ok(cli("recall", "How are you feeling?", "-n", namespace, "-k", "10", "--no-episodes"))
    assert "episode hit" not in out
    query = "What milk does Maya take?"
    data = json.loads(_ok(cli("recall", query, "-n", namespace, "-x", "--dry", "--json")))
    (drop,) = [d for d in data["xray"]["dropped"] if d["memory_id"] == oat["memory_id"]]
    assert drop["detail"] == f"superseded by {almond['memory_id']}"
    assert "superseded" in _ok(cli("recall", query, "-n", namespace, "-x", "--dry"))
