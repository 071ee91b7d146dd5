"""Fault suite: a file import is all or nothing, and a bad line is named by file and line.

``kgmem observe FILE`` and ``kgmem remember --file`` check every line with the write path's own
checks before writing anything: one bad line anywhere in a file (a blank turn, an unknown role,
an over-long text, a malformed turn id, a non-string speaker, a lone surrogate, a control
character) is one red ``error: FILE:LINE: reason`` line, and the namespace holds no episode and
no memory afterwards — not the turns before the bad line, which earlier versions had already
written and extracted chunk by chunk.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner, Result

from kgmem.cli import app
from kgmem.service import Kgmem

pytestmark = [pytest.mark.graph, pytest.mark.models]

NAMES = ["Maya", "Leo", "Priya", "Sam", "Olga", "Ivy", "Tom", "Nina", "Ravi", "Lena"]
PLACES = ["Denver", "Austin", "Oslo", "Berlin", "Lisbon", "Quito", "Perth", "Tokyo"]

# One bad turn of each kind the write path refuses, as the JSON object of its line.
BAD_TURNS: dict[str, dict[str, Any]] = {
    "blank text": {"text": "   "},
    "unknown role": {"text": "I like soup.", "role": "bogus"},
    "text over the limit": {"text": "word " * 1800},
    "malformed turn_id": {"text": "I like soup.", "turn_id": "bad#id!"},
    "numeric speaker": {"text": "I like soup.", "speaker": 42},
    "lone surrogate": {"text": "I like soup \ud800 a lot."},
    "control character": {"text": "I like soup\u0007 a lot."},
}


@pytest.fixture
def cli(env: dict[str, str]) -> Iterator[Any]:
    runner = CliRunner()

    def invoke(*args: str) -> Result:
        return runner.invoke(app, list(args), env=env)

    yield invoke


def _turn(i: int) -> dict[str, Any]:
    name, place = NAMES[i % len(NAMES)], PLACES[i % len(PLACES)]
    return {
        "text": f"{name} moved to {place} in {1990 + i} and adopted a dog called Rex{i}.",
        "speaker": name,
        "session_id": "s1",
        "turn_id": f"t{i}",
    }


def _jsonl(path: Path, rows: list[dict[str, Any]]) -> Path:
    # json.dumps escapes a lone surrogate as \ud800, as a client's JSON encoder would.
    path.write_text("".join(json.dumps(r) + "\n" for r in rows), encoding="utf-8")
    return path


def _counts(km: Kgmem, arun: Any, namespace: str) -> tuple[int, int]:
    labels = arun(km.stats(namespace=namespace))["labels"]
    return labels.get("Episode", 0), labels.get("Memory", 0)


def _refused(result: Result, where: str) -> str:
    """Exit 1, exactly one 'error:' line naming ``where`` (file:line), no traceback."""
    assert result.exit_code == 1, (result.stdout, result.stderr, result.exception)
    assert isinstance(result.exception, SystemExit), result.exception
    lines = [ln for ln in result.stderr.splitlines() if ln.strip()]
    assert len(lines) == 1 and lines[0].startswith("error: "), result.stderr
    assert "Traceback" not in result.stdout + result.stderr
    assert where in lines[0], lines[0]
    return lines[0]


def test_observe_of_150_turns_with_a_bad_line_121_writes_nothing(
    cli: Any, km: Kgmem, arun: Any, namespace: str, tmp_path: Path
) -> None:
    rows = [_turn(i) for i in range(150)]
    rows[120] = {"text": "   "}  # line 121
    path = _jsonl(tmp_path / "turns.jsonl", rows)
    result = cli("observe", str(path), "-n", namespace)
    assert _counts(km, arun, namespace) == (0, 0)
    assert "text is empty" in _refused(result, f"{path}:121:")


@pytest.mark.parametrize("kind", sorted(BAD_TURNS))
def test_observe_refuses_a_file_with_any_bad_turn_and_writes_nothing(
    kind: str, cli: Any, km: Kgmem, arun: Any, namespace: str, tmp_path: Path
) -> None:
    rows = [_turn(i) for i in range(30)]
    rows[20] = BAD_TURNS[kind]  # line 21; chunks of 10 would have written 20 turns first
    path = _jsonl(tmp_path / "turns.jsonl", rows)
    result = cli("observe", str(path), "-n", namespace, "--chunk", "10")
    assert _counts(km, arun, namespace) == (0, 0)
    _refused(result, f"{path}:21:")


def test_observe_counts_only_non_blank_lines_and_names_the_file_line(
    cli: Any, km: Kgmem, arun: Any, namespace: str, tmp_path: Path
) -> None:
    # Blank lines are allowed between turns; the line number is still the file's.
    path = tmp_path / "gappy.jsonl"
    path.write_text(
        json.dumps(_turn(0)) + "\n\n\n" + json.dumps({"text": "ok", "role": 7}) + "\n",
        encoding="utf-8",
    )
    result = cli("observe", str(path), "-n", namespace)
    assert _counts(km, arun, namespace) == (0, 0)
    assert "role" in _refused(result, f"{path}:4:")


REMEMBER_BAD_LINES: dict[str, bytes] = {
    "text over the limit": ("word " * 1800).encode(),
    "NUL character": b"Tom likes tea\x00 a lot.",
    "control character": b"Tom likes tea\x1b[31m a lot.",
    "not UTF-8": b"Tom likes caf\xe9 au lait.",
}


@pytest.mark.parametrize("kind", sorted(REMEMBER_BAD_LINES))
def test_remember_file_with_a_bad_line_21_stores_nothing(
    kind: str, cli: Any, km: Kgmem, arun: Any, namespace: str, tmp_path: Path
) -> None:
    lines = [f"{NAMES[i % 10]} keeps a {PLACES[i % 8]} map number {i}.".encode() for i in range(30)]
    lines[20] = REMEMBER_BAD_LINES[kind]
    path = tmp_path / "facts.txt"
    path.write_bytes(b"\n".join(lines) + b"\n")
    result = cli("remember", "--file", str(path), "-n", namespace)
    assert _counts(km, arun, namespace) == (0, 0)
    _refused(result, f"{path}:21:")


def test_a_good_file_is_still_imported_whole(
    cli: Any, km: Kgmem, arun: Any, namespace: str, tmp_path: Path
) -> None:
    path = _jsonl(tmp_path / "turns.jsonl", [_turn(i) for i in range(12)])
    result = cli("observe", str(path), "-n", namespace, "--chunk", "5")
    assert result.exit_code == 0, (result.stdout, result.stderr, result.exception)
    assert "12 turns" in result.stdout and "12 new episodes" in result.stdout
    episodes, memories = _counts(km, arun, namespace)
    assert episodes == 12 and memories > 0

    facts = tmp_path / "facts.txt"
    facts.write_text("Olga teaches chemistry.\n\n  Olga's cat is called Pepper.  \n")
    result = cli("remember", "--file", str(facts), "-n", namespace)
    assert result.exit_code == 0, (result.stdout, result.stderr, result.exception)
    assert "2 created" in result.stdout


def test_a_multi_conversation_file_is_checked_whole_first(
    cli: Any, km: Kgmem, arun: Any, tmp_path: Path
) -> None:
    def sample(sample_id: str, turns: list[dict[str, Any]]) -> dict[str, Any]:
        return {
            "sample_id": sample_id,
            "conversation": {
                "speaker_a": "Maya",
                "speaker_b": "Leo",
                "session_1_date_time": "1:56 pm on 8 May, 2023",
                "session_1": turns,
            },
        }

    good = [
        {"speaker": "Maya", "dia_id": f"D1:{i}", "text": f"I moved to {PLACES[i]} in {2000 + i}."}
        for i in range(6)
    ]
    bad = [*good[:3], {"speaker": "Leo", "dia_id": "D1:4", "text": "  "}]
    path = tmp_path / "convs.json"
    path.write_text(json.dumps([sample("c1", good), sample("c2", bad)]), encoding="utf-8")
    ns = "fault-imports-multi"
    try:
        result = cli("observe", str(path), "-n", ns)
        for part in (f"{ns}-c1", f"{ns}-c2"):
            assert _counts(km, arun, part) == (0, 0)
        line = _refused(result, str(path))
        assert "c2" in line and "D1:4" in line and "text is empty" in line
    finally:
        for part in (f"{ns}-c1", f"{ns}-c2"):
            arun(km.wipe_namespace(part))
