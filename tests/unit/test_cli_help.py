"""The CLI's help names every choice a command accepts, and answers without the service."""

from __future__ import annotations

from typer.testing import CliRunner

from kgmem.cli import app
from kgmem.recall.profiles import MODES, PROFILES
from kgmem.taxonomy import Category


def test_recall_help_lists_every_profile_and_mode() -> None:
    result = CliRunner().invoke(app, ["recall", "--help"], env={"COLUMNS": "200"})
    assert result.exit_code == 0, result.output
    text = " ".join(result.output.split())
    for name in [*PROFILES, *MODES]:
        assert name in text, name


def test_remember_help_lists_every_category() -> None:
    result = CliRunner().invoke(app, ["remember", "--help"], env={"COLUMNS": "200"})
    assert result.exit_code == 0, result.output
    text = " ".join(result.output.split())
    for category in Category:
        assert category.value in text, category


def test_version() -> None:
    result = CliRunner().invoke(app, ["--version"])
    assert result.exit_code == 0 and result.output.startswith("kgmem 0.1.0")
