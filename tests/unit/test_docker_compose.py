"""docker-compose.yml and the Dockerfiles deliver a service: every command they run exists in
the CLI (with its options), every service stays up or is a one-shot step that publishes no port,
every long-running service has a healthcheck, nothing listens on 127.0.0.1 inside a container,
Neo4j + GDS are the launcher's versions with the plugin baked in (no download at start), keys and
the Neo4j password come from mounted secrets, the kgmem image runs as a non-root user.

Docker cannot run here; where the docker client has the compose plugin, `docker compose config`
validates the file too.
"""

from __future__ import annotations

import re
import shutil
import subprocess
from pathlib import Path
from typing import Any

import pytest
import typer
import yaml

from kgmem.cli import app
from kgmem.settings import Settings

ROOT = Path(__file__).resolve().parents[2]
KGMEM_SERVICES = ("init", "api", "worker")


def _compose() -> dict[str, Any]:
    data: dict[str, Any] = yaml.safe_load((ROOT / "docker-compose.yml").read_text())
    return data


def _pom_versions() -> tuple[str, str]:
    pom = (ROOT / "tools" / "neo4j" / "pom.xml").read_text()
    neo4j = re.search(r"<neo4j.version>([^<]+)<", pom)
    gds = re.search(r"<gds.version>([^<]+)<", pom)
    assert neo4j and gds
    return neo4j.group(1), gds.group(1)


def _check_cli_command(argv: list[str]) -> None:
    """``argv`` (``kgmem ...``) names a CLI command and parses with its options."""
    assert argv[0] == "kgmem", argv
    command: Any = typer.main.get_command(app)
    args = argv[1:]
    while hasattr(command, "commands"):  # a group (typer's own click types, so duck-typed)
        assert args, f"{argv}: names a group, not a command"
        sub = command.commands.get(args[0])
        assert sub is not None, f"{argv}: no command {args[0]!r}"
        command, args = sub, args[1:]
    command.make_context(command.name or "", list(args))  # unknown options raise here


def _dockerfile_instr(path: Path, name: str) -> list[str]:
    text = (ROOT / path).read_text().replace("\\\n", " ")
    return [line.split(None, 1)[1] for line in text.splitlines() if line.startswith(name + " ")]


def test_every_command_the_compose_file_runs_is_a_cli_command() -> None:
    services = _compose()["services"]
    for name in KGMEM_SERVICES:
        _check_cli_command(services[name]["command"])
    cmd = yaml.safe_load(_dockerfile_instr(Path("Dockerfile"), "CMD")[-1])
    _check_cli_command(cmd)
    assert cmd[cmd.index("--host") + 1] == "0.0.0.0"
    with pytest.raises(AssertionError):  # the check itself fails on a command that is not there
        _check_cli_command(["kgmem", "db", "migrate"])
    with pytest.raises(Exception, match="--listen"):
        _check_cli_command(["kgmem", "serve", "--listen", "0.0.0.0"])


def test_long_running_services_have_healthchecks_and_the_api_checks_readyz() -> None:
    services = _compose()["services"]
    for name in ("neo4j", "api", "worker"):
        assert services[name]["healthcheck"]["test"], name
    assert "gds.version()" in " ".join(services["neo4j"]["healthcheck"]["test"])
    assert "/readyz" in " ".join(services["api"]["healthcheck"]["test"])
    assert "/readyz" in _dockerfile_instr(Path("Dockerfile"), "HEALTHCHECK")[0]
    assert services["init"]["restart"] == "no"
    for name in ("api", "worker"):
        condition = services[name]["depends_on"]["init"]["condition"]
        assert condition == "service_completed_successfully"


# What each kgmem service runs: a one-shot step (restart "no") that compose waits on, or a server
# that stays up (restarted when it stops).
ONE_SHOT_COMMANDS = [["kgmem", "db", "init"]]
LONG_RUNNING = ("serve", "worker")


def _service_problems(name: str, service: dict[str, Any]) -> list[str]:
    """Why ``service`` neither stays up nor is a one-shot step that publishes nothing."""
    command = [str(w) for w in service.get("command", [])]
    if str(service.get("restart", "")) == "no":
        problems = [] if command in ONE_SHOT_COMMANDS else [f"{name}: unknown one-shot {command}"]
        if service.get("ports"):
            problems.append(f"{name}: exits after its step yet publishes ports")
        if service.get("healthcheck", {}).get("disable") is not True:
            problems.append(f"{name}: a one-shot step cannot be healthy; disable its healthcheck")
        return problems
    problems = [] if service.get("restart") == "unless-stopped" else [f"{name}: not restarted"]
    # neo4j runs its image's server; a kgmem service must run a command that serves
    if name != "neo4j" and command[1:2] not in ([c] for c in LONG_RUNNING):
        problems.append(f"{name}: {command} does not stay up")
    return problems


def test_every_service_stays_up_or_is_a_one_shot_step_that_publishes_nothing() -> None:
    for name, service in _compose()["services"].items():
        assert _service_problems(name, service) == []
    one_shot_with_port = {
        "command": ["kgmem", "db", "init"],
        "restart": "unless-stopped",
        "ports": ["127.0.0.1:8000:8000"],
    }
    assert _service_problems("kgmem", one_shot_with_port) == [
        "kgmem: ['kgmem', 'db', 'init'] does not stay up"
    ]
    one_shot_with_port["restart"] = "no"
    assert "kgmem: exits after its step yet publishes ports" in _service_problems(
        "kgmem", one_shot_with_port
    )


def test_nothing_listens_on_loopback_inside_a_container() -> None:
    services = _compose()["services"]
    for name, service in services.items():
        words = [str(w) for w in service.get("command", [])]
        words += [str(v) for v in service.get("environment", {}).values()]
        assert not any("127.0.0.1" in w or "localhost" in w for w in words), name
        for port in service.get("ports", []):  # host side may be loopback; container side bare
            assert re.fullmatch(r"127\.0\.0\.1:\d+(-\d+)?:\d+", port), (name, port)


def test_neo4j_is_the_launchers_pair_with_gds_baked_in() -> None:
    neo4j_version, gds_version = _pom_versions()
    neo4j = _compose()["services"]["neo4j"]
    assert neo4j["build"]["args"] == {"NEO4J_VERSION": neo4j_version, "GDS_VERSION": gds_version}
    args = _dockerfile_instr(Path("docker/neo4j.Dockerfile"), "ARG")
    assert f"NEO4J_VERSION={neo4j_version}" in args and f"GDS_VERSION={gds_version}" in args
    assert "NEO4J_PLUGINS" not in neo4j.get("environment", {})  # that downloads at start
    assert any(v.startswith("neo4j-data:") for v in neo4j["volumes"])


def test_keys_and_password_come_from_mounted_secrets() -> None:
    compose = _compose()
    known = {f"KGMEM_{name.upper()}" for name in Settings.model_fields}
    for name in KGMEM_SERVICES:
        service = compose["services"][name]
        env = service["environment"]
        assert set(env) <= known, set(env) - known
        assert "KGMEM_NEO4J_PASSWORD" not in env and "KGMEM_API_KEYS" not in env
        for var, secret in (
            ("KGMEM_API_KEYS_FILE", "api_keys"),
            ("KGMEM_NEO4J_PASSWORD_FILE", "neo4j_auth"),
        ):
            assert env[var] == f"/run/secrets/{secret}" and secret in service["secrets"]
        assert any(str(v).endswith(":/cache") for v in service["volumes"])
    neo4j = compose["services"]["neo4j"]
    assert neo4j["environment"]["NEO4J_AUTH_FILE"] == "/run/secrets/neo4j_auth"
    assert set(compose["secrets"]) == {"neo4j_auth", "api_keys"}


def test_the_image_runs_as_a_non_root_user() -> None:
    users = _dockerfile_instr(Path("Dockerfile"), "USER")
    assert users and users[-1].strip() not in ("root", "0")


def test_the_password_file_accepts_neo4js_form(tmp_path: Path) -> None:
    secret = tmp_path / "neo4j_auth"
    secret.write_text("neo4j/s3cret-pass/with-slash\n")
    assert Settings(neo4j_password_file=secret).neo4j_password_value() == "s3cret-pass/with-slash"
    secret.write_text("plain-password")
    assert Settings(neo4j_password_file=secret).neo4j_password_value() == "plain-password"


def _has_compose() -> bool:
    if shutil.which("docker") is None:
        return False
    probe = subprocess.run(["docker", "compose", "version"], capture_output=True, check=False)
    return probe.returncode == 0


@pytest.mark.skipif(not _has_compose(), reason="docker compose plugin not installed")
def test_docker_compose_config_validates() -> None:
    result = subprocess.run(
        ["docker", "compose", "config", "--quiet"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=False,
    )
    assert result.returncode == 0, result.stderr
