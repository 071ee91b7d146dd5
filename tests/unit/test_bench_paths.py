"""Where benchmark results go: outside the repository by default, ``$KGMEM_BENCH_DIR`` or
``--out`` when given; and the layout's entry points (``python -m benchmarks.<group>.<name>``)."""

from __future__ import annotations

import argparse
import importlib
import json
import re
from datetime import date
from pathlib import Path

import pytest
from platformdirs import user_data_dir

from benchmarks.common import harness
from benchmarks.common.paths import (
    BEAM,
    ENV_VAR,
    LOCOMO,
    REPO,
    add_out_argument,
    cache_dir,
    default_out,
    result_path,
    results_dir,
)

DAY = date(2026, 3, 4)


def test_the_env_var_chooses_the_results_dir(tmp_path: Path) -> None:
    assert results_dir({ENV_VAR: str(tmp_path)}) == tmp_path
    assert results_dir({ENV_VAR: "~/bench"}) == Path.home() / "bench"


@pytest.mark.parametrize("environ", [{}, {ENV_VAR: ""}, {ENV_VAR: "  "}])
def test_without_the_env_var_results_go_to_the_user_data_dir(environ: dict[str, str]) -> None:
    chosen = results_dir(environ)
    assert chosen == Path(user_data_dir("kgmem")) / "benchmarks"
    assert REPO not in chosen.parents and chosen != REPO


def test_default_out_is_name_and_date_in_the_results_dir(tmp_path: Path) -> None:
    env = {ENV_VAR: str(tmp_path)}
    assert default_out("locomo", DAY, env) == tmp_path / "locomo-2026-03-04.md"
    today = default_out("truth", environ=env)
    assert re.fullmatch(r"truth-\d{4}-\d{2}-\d{2}\.md", today.name)


@pytest.mark.parametrize("name", ["", "a/b", ".hidden"])
def test_a_result_name_is_a_plain_stem(name: str) -> None:
    with pytest.raises(ValueError):
        default_out(name, DAY, {})


def test_out_overrides_the_default(tmp_path: Path) -> None:
    env = {ENV_VAR: str(tmp_path / "dir")}
    assert result_path(tmp_path / "mine.md", "beam", DAY, env) == tmp_path / "mine.md"
    assert result_path(None, "beam", DAY, env) == tmp_path / "dir" / "beam-2026-03-04.md"
    assert result_path("", "beam", DAY, env) == tmp_path / "dir" / "beam-2026-03-04.md"


def test_the_out_option_defaults_to_none_and_takes_a_path() -> None:
    parser = argparse.ArgumentParser()
    add_out_argument(parser)
    assert parser.parse_args([]).out is None
    assert parser.parse_args(["--out", "r.md"]).out == Path("r.md")


def test_data_and_cache_sit_outside_the_repository() -> None:
    assert LOCOMO.relative_to(REPO.parent) == Path("shared/data/locomo/locomo_dev.json")
    assert BEAM.relative_to(REPO.parent) == Path("shared/data/beam")
    assert (REPO / "benchmarks" / "common" / "paths.py").is_file()
    assert REPO not in cache_dir().parents


def test_write_result_writes_markdown_and_json_where_told(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setenv(ENV_VAR, str(tmp_path / "results"))
    path = harness.write_result("demo", "body\n", {"rows": [1]})
    assert path.parent == tmp_path / "results"
    assert re.fullmatch(r"demo-\d{4}-\d{2}-\d{2}\.md", path.name)
    assert path.read_text(encoding="utf-8").endswith("body\n")
    assert json.loads(path.with_suffix(".json").read_text(encoding="utf-8"))["rows"] == [1]
    assert str(path) in capsys.readouterr().err
    mine = harness.write_result("demo", "x", {}, tmp_path / "sub" / "mine.md")
    assert mine == tmp_path / "sub" / "mine.md" and mine.with_suffix(".json").is_file()


def test_no_benchmark_locates_files_by_its_own_place_in_the_tree() -> None:
    # only common/paths.py knows where the repository and the data are, so no benchmark can
    # drift back to writing results inside the tree
    offenders = [
        str(p.relative_to(REPO))
        for p in (REPO / "benchmarks").rglob("*.py")
        if "__file__" in p.read_text(encoding="utf-8") and p.name != "paths.py"
    ]
    assert offenders == []


@pytest.mark.parametrize(
    ("package", "entry"),
    [
        ("benchmarks.quality.locomo", "main"),
        ("benchmarks.quality.beam", "main"),
        ("benchmarks.quality.truth", "main"),
        ("benchmarks.perf.recall", "cli"),
        ("benchmarks.perf.ingest", "cli"),
        ("benchmarks.perf.api_load", "cli"),
    ],
)
def test_each_benchmark_package_runs_with_python_m(package: str, entry: str) -> None:
    main = importlib.import_module(f"{package}.__main__")
    run = importlib.import_module(f"{package}.run")
    assert getattr(main, entry) is getattr(run, entry)
