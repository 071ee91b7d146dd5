"""The ``kgmem`` CLI against the session's real Neo4j: write, recall with the X-ray, stats,
export → wipe → import, consolidation and the worker, and every error as one red line.

Most commands run in process through typer's ``CliRunner`` with the server's ``KGMEM_*``
environment; one runs as a real subprocess to prove a user never sees a traceback.
"""

from __future__ import annotations

import dataclasses
import json
import os
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from support.servers import wait_ready
from typer.testing import CliRunner, Result

from kgmem.cli import app
from kgmem.errors import InvalidInput
from kgmem.local_server.launcher import free_port
from kgmem.service import Kgmem


@pytest.fixture
def cli(env: dict[str, str]) -> Iterator[Any]:
    runner = CliRunner()

    def invoke(
        *args: str, extra_env: dict[str, str] | None = None, input: str | None = None
    ) -> Result:
        return runner.invoke(app, list(args), env={**env, **(extra_env or {})}, input=input)

    yield invoke


def _ok(result: Result) -> str:
    assert result.exit_code == 0, (result.stdout, result.stderr, result.exception)
    return result.stdout


def _one_red_line(result: Result, *needles: str) -> str:
    """Exit 1, exactly one 'error:' line on stderr, no traceback anywhere."""
    assert result.exit_code == 1, (result.stdout, result.stderr, result.exception)
    assert isinstance(result.exception, SystemExit), result.exception
    lines = [ln for ln in result.stderr.splitlines() if ln.strip()]
    assert len(lines) == 1 and lines[0].startswith("error: "), result.stderr
    assert "Traceback" not in result.stdout + result.stderr
    for needle in needles:
        assert needle in lines[0], lines[0]
    return lines[0]


def test_remember_observe_recall_with_the_xray(cli: Any, namespace: str, tmp_path: Path) -> None:
    out = _ok(cli("remember", "Maya moved to Denver in 2021.", "-n", namespace))
    assert out.startswith("created ")
    turns = tmp_path / "turns.jsonl"
    turns.write_text(
        "\n".join(
            json.dumps({"text": t, "speaker": "Maya", "session_id": "s1"})
            for t in ["I work at Globex as a nurse.", "My brother Leo lives in Austin."]
        )
        + "\n"
    )
    out = _ok(cli("observe", str(turns), "-n", namespace))
    assert "2 turns" in out and "2 new episodes" in out

    out = _ok(cli("recall", "Where does Maya live?", "-n", namespace, "--explain", "-k", "3"))
    assert "Maya moved to Denver in 2021." in out
    assert "X-ray" in out and "intent:" in out
    assert "contribution" in out and "similarity" in out  # each factor's share of the score
    assert "channels: vector #" in out
    assert "timings (ms):" in out and "total" in out

    data = json.loads(_ok(cli("recall", "Where does Maya live?", "-n", namespace, "--json", "-x")))
    assert "Maya moved to Denver in 2021." in [h["content"] for h in data["hits"]]
    assert [h["memory_id"] for h in data["xray"]["hits"]] == [h["memory_id"] for h in data["hits"]]
    explained = data["xray"]["hits"][0]
    assert abs(sum(explained["contributions"].values()) - explained["final_score"]) < 1e-9
    scores = [h["score"] for h in data["hits"]]  # shown in the order they are ranked
    assert scores == sorted(scores, reverse=True)
    assert scores == [h["final_score"] for h in data["xray"]["hits"]]
    assert data["xray"]["timings"] and "dropped" in data["xray"]


def test_recall_shows_dropped_candidates(cli: Any, namespace: str, tmp_path: Path) -> None:
    facts = tmp_path / "facts.txt"
    facts.write_text("Ivy likes tea.\nIvy likes green tea.\nIvy likes hot green tea.\nIvy sings.\n")
    assert "created" in _ok(cli("remember", "--file", str(facts), "-n", namespace))
    out = _ok(cli("recall", "What does Ivy like?", "-n", namespace, "-x", "-k", "1", "--dry"))
    assert "dropped" in out and ("limit" in out or "mmr" in out)


def test_stats_export_wipe_import(cli: Any, namespace: str, tmp_path: Path) -> None:
    facts = tmp_path / "facts.txt"
    facts.write_text("Olga teaches chemistry at Northside High.\nOlga's cat is called Pepper.\n")
    _ok(cli("remember", "--file", str(facts), "-n", namespace))
    stats = json.loads(_ok(cli("stats", "-n", namespace, "--json")))
    assert stats["nodes"] > 2
    table = _ok(cli("stats", "-n", namespace))
    assert "Memory" in table and "MENTIONS" in table

    path = tmp_path / "ns.jsonl"
    out = _ok(cli("export", str(path), "-n", namespace))
    assert f"exported {stats['nodes']} nodes" in out
    assert "deleted" in _ok(cli("wipe", "-n", namespace, "--yes"))
    assert json.loads(_ok(cli("stats", "-n", namespace, "--json")))["nodes"] == 0
    out = _ok(cli("import", str(path), "--batch-size", "3"))
    assert f"({stats['nodes']} new)" in out
    assert json.loads(_ok(cli("stats", "-n", namespace, "--json"))) == stats
    out = _ok(cli("import", str(path)))
    assert "(0 new)" in out  # idempotent
    assert json.loads(_ok(cli("stats", "-n", namespace, "--json"))) == stats

    # - is stdout for export (the summary goes to stderr) and stdin for import
    piped = cli("export", "-", "-n", namespace)
    lines = _ok(piped).splitlines()
    assert len(lines) == len(path.read_text().splitlines())
    assert json.loads(lines[0])["format"] == "kgmem-export"
    assert f"exported {stats['nodes']} nodes" in piped.stderr
    assert not (Path.cwd() / "-").exists()
    _ok(cli("wipe", "-n", namespace, "--yes"))
    out = _ok(cli("import", "-", input="\n".join(lines) + "\n"))
    assert f"({stats['nodes']} new)" in out
    assert json.loads(_ok(cli("stats", "-n", namespace, "--json"))) == stats
    # and stdin for remember --file
    out = _ok(cli("remember", "--file", "-", "-n", namespace, input="Olga plays the cello.\n"))
    assert "1 created" in out


def test_bad_files_and_bad_input_are_one_red_line(cli: Any, namespace: str, tmp_path: Path) -> None:
    bad = tmp_path / "bad.jsonl"
    bad.write_text('{"kind": "header", "format": "kgmem-export", "version": 1}\n{oops\n')
    _one_red_line(cli("import", str(bad)), "bad.jsonl:2", "not valid JSON")
    _one_red_line(cli("import", str(tmp_path / "missing.jsonl")), "cannot read")
    _one_red_line(cli("observe", str(bad), "-n", namespace), "bad.jsonl")
    _one_red_line(cli("remember", "x" * 9000, "-n", namespace), "limit is 8192")
    _one_red_line(cli("remember", "  ", "-n", namespace), "the memory text is empty")
    _one_red_line(cli("recall", "anything", "-n", "bad namespace!"), "malformed")
    _one_red_line(
        cli("export", str(tmp_path / "no-dir" / "x.jsonl"), "-n", namespace), "cannot write"
    )
    # messages with brackets are printed as they are, not swallowed as rich markup
    _one_red_line(cli("recall", "x", "-n", namespace, "--profile", "[bold]"), "[bold]")


def test_configuration_and_connection_errors_are_one_red_line(cli: Any) -> None:
    _one_red_line(cli("stats", extra_env={"KGMEM_BOLT_PORT": "99999"}), "KGMEM_BOLT_PORT")
    unreachable = {"KGMEM_NEO4J_URI": "bolt://127.0.0.1:1"}
    _one_red_line(cli("stats", extra_env=unreachable), "not reachable", "kgmem db start")


def test_a_subprocess_user_never_sees_a_traceback(env: dict[str, str], tmp_path: Path) -> None:
    bad = tmp_path / "truncated.jsonl"
    bad.write_text('{"kind": "header", "format": "kgmem-export", "version": 1}\n')
    proc = subprocess.run(
        [sys.executable, "-m", "kgmem", "import", str(bad)],
        capture_output=True,
        text=True,
        env={**os.environ, **env},
        timeout=300,
        check=False,
    )
    assert proc.returncode == 1
    assert "Traceback" not in proc.stderr + proc.stdout
    assert proc.stderr.strip().splitlines() == [
        f"error: {bad}: no end record: the file is truncated (export it again)"
    ]


# The thin install: no models, GDS, API or LLM client in the CLI's process (their imports fail)
THIN = (
    "import sys\n"
    "for m in ('spacy', 'onnxruntime', 'onnx', 'safetensors', 'tokenizers', 'graphdatascience',\n"
    "          'strawberry', 'starlette', 'uvicorn', 'openai', 'torch', 'sentence_transformers'):\n"
    "    sys.modules[m] = None\n"
    "from kgmem.cli import main\n"
    "main()\n"
)


def test_the_thin_cli_remembers_and_recalls_through_a_running_api(
    env: dict[str, str], namespace: str
) -> None:
    pytest.importorskip("kgmem.api.app")
    port, key = free_port(), "thin-" + "k" * 24
    server = subprocess.Popen(
        [sys.executable, "-m", "kgmem", "serve", "--port", str(port), "--log-level", "warning"],
        env={**os.environ, **env, "KGMEM_API_KEYS": json.dumps({key: [namespace]})},
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        text=True,
    )
    client_env = {
        **{k: v for k, v in os.environ.items() if not k.startswith("KGMEM_")},
        "KGMEM_API_URL": f"http://127.0.0.1:{port}",
        "KGMEM_API_CLIENT_KEY": key,
    }

    def thin(*args: str) -> subprocess.CompletedProcess[str]:
        return subprocess.run(
            [sys.executable, "-c", THIN, *args],
            env=client_env,
            capture_output=True,
            text=True,
            timeout=300,
            check=False,
        )

    try:
        # ready, not just alive: a write before the models load can outlast the client's timeout
        wait_ready(f"http://127.0.0.1:{port}", server)
        stored = thin("remember", "Ines repairs vintage radios in Porto.", "-n", namespace)
        assert stored.returncode == 0, stored.stderr
        assert stored.stdout.startswith("created "), stored.stdout
        found = thin("recall", "who repairs radios?", "-n", namespace, "--json", "--explain")
        assert found.returncode == 0, found.stderr
        answer = json.loads(found.stdout)
        assert answer["hits"][0]["content"] == "Ines repairs vintage radios in Porto."
        assert answer["xray"]["hits"]  # the X-ray came over the API too
        refused = thin("recall", "anything", "-n", "someone-else")
        assert refused.returncode == 1 and refused.stderr.startswith("error: ")
        assert "Traceback" not in refused.stderr
        # a command that runs the service itself still names the missing extra
        stats = thin("stats", "-n", namespace)
        assert stats.returncode == 1 and "pip install 'kgmem[server]'" in stats.stderr
    finally:
        server.terminate()
        server.communicate(timeout=60)


def test_serve_runs_the_api_until_stopped(env: dict[str, str]) -> None:
    pytest.importorskip("kgmem.api.app")
    port = free_port()
    proc = subprocess.Popen(
        [sys.executable, "-m", "kgmem", "serve", "--port", str(port), "--log-level", "warning"],
        env={**os.environ, **env, "KGMEM_API_KEYS": json.dumps({"k" * 24: ["*"]})},
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        deadline = time.monotonic() + 120
        while True:
            try:
                response = httpx.get(f"http://127.0.0.1:{port}/healthz", timeout=2)
                break
            except httpx.TransportError:
                assert proc.poll() is None, proc.communicate()
                assert time.monotonic() < deadline, "kgmem serve did not answer"
                time.sleep(0.5)
        assert response.status_code == 200
    finally:
        proc.terminate()
        _, stderr = proc.communicate(timeout=60)
    assert f"http://127.0.0.1:{port}/graphql" in stderr
    assert "Traceback" not in stderr


def test_serve_with_a_bad_key_setting_is_one_red_line(cli: Any) -> None:
    pytest.importorskip("kgmem.api.app")
    bad_keys = {"KGMEM_API_KEYS": json.dumps({"short": ["*"]})}
    _one_red_line(cli("serve", "--port", "8765", extra_env=bad_keys), "shorter than")


def test_serve_without_the_api_says_so(cli: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "kgmem.api.app", None)  # makes the import fail
    _one_red_line(cli("serve", "--port", "8765"), "GraphQL API is not available")


def test_consolidate_runs_the_real_job(cli: Any, namespace: str) -> None:
    if not hasattr(Kgmem, "consolidate"):
        pytest.skip("the lifecycle job is not in this build")
    _ok(cli("remember", "Quinn repairs vintage radios.", "-n", namespace))
    report = json.loads(_ok(cli("consolidate", "-n", namespace, "--dry-run", "--json")))
    assert report["dry_run"] is True and report["steps"]
    assert all(step["error"] is None for step in report["steps"]), report["steps"]
    out = _ok(cli("consolidate", "-n", namespace, "-s", report["steps"][0]["name"], "--dry-run"))
    assert report["steps"][0]["name"] in out and "ok" in out
    _one_red_line(cli("consolidate", "-n", namespace, "-s", "no_such_step"), "no_such_step")


# --- the CLI's side of consolidation, against a stand-in job --------------------------------------


@dataclasses.dataclass(frozen=True)
class _Step:
    name: str
    changes: dict[str, int]
    duration_s: float
    error: str | None = None


@dataclasses.dataclass(frozen=True)
class _Report:
    namespace: str
    dry_run: bool
    steps: tuple[_Step, ...]


@pytest.fixture
def fake_job(monkeypatch: pytest.MonkeyPatch) -> list[dict[str, Any]]:
    calls: list[dict[str, Any]] = []

    async def consolidate(self: Kgmem, **kwargs: Any) -> _Report:
        calls.append(kwargs)
        if kwargs.get("steps") == ["explode"]:
            raise InvalidInput("unknown consolidation step 'explode'")
        names = kwargs.get("steps") or ["decay"]
        steps = tuple(_Step(n, {"moved": i} if i else {}, 0.01) for i, n in enumerate(names))
        return _Report(kwargs["namespace"], kwargs["dry_run"], steps)

    monkeypatch.setattr(Kgmem, "consolidate", consolidate, raising=False)
    return calls


def test_consolidate_prints_the_per_step_report(
    cli: Any, namespace: str, fake_job: list[dict[str, Any]]
) -> None:
    out = _ok(cli("consolidate", "-n", namespace, "-s", "decay", "-s", "tiers", "--dry-run"))
    assert fake_job == [{"namespace": namespace, "dry_run": True, "steps": ["decay", "tiers"]}]
    assert "decay" in out and "tiers" in out and "moved=1" in out
    data = json.loads(_ok(cli("consolidate", "-n", namespace, "--json")))
    assert fake_job[-1] == {"namespace": namespace, "dry_run": False}  # default: every step
    assert data["steps"][0]["name"] == "decay"
    _one_red_line(cli("consolidate", "-n", namespace, "-s", "explode"), "unknown consolidation")


def test_consolidate_without_the_job_says_so(cli: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    # Kgmem is composed of mixins (kgmem/service/): remove the method where it is defined.
    owner = next((c for c in Kgmem.__mro__ if "consolidate" in vars(c)), Kgmem)
    monkeypatch.delattr(owner, "consolidate", raising=False)
    _one_red_line(cli("consolidate"), "consolidation is not available")
    _one_red_line(cli("worker", "--times", "1", "--every", "0"), "consolidation is not available")


def test_worker_runs_a_bounded_number_of_times(
    cli: Any, namespace: str, fake_job: list[dict[str, Any]]
) -> None:
    out = _ok(cli("worker", "-n", namespace, "--every", "0", "--times", "3"))
    assert len(fake_job) == 3
    assert "run 1" in out and "run 3" in out and "run 4" not in out
    failing = cli("worker", "-n", namespace, "--every", "0", "--times", "2", "-s", "explode")
    assert failing.exit_code == 1  # every run was reported, then the worker says it failed
    assert failing.stderr.count("error: run") == 2 and "Traceback" not in failing.stderr
