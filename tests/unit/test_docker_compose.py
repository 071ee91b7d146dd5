"""docker-compose.yml stays on the launcher's Neo4j line, with GDS, a volume and a healthcheck.

Docker cannot run here; where the docker client has the compose plugin, `docker compose config`
validates the file too.
"""

from __future__ import annotations

import re
import shutil
import subprocess
from pathlib import Path

import pytest
import yaml

ROOT = Path(__file__).resolve().parents[2]


def _compose() -> dict:  # type: ignore[type-arg]
    return yaml.safe_load((ROOT / "docker-compose.yml").read_text())


def test_compose_matches_the_launcher_pair() -> None:
    pom = (ROOT / "tools" / "neo4j" / "pom.xml").read_text()
    neo4j_version = re.search(r"<neo4j.version>([^<]+)<", pom).group(1)  # type: ignore[union-attr]
    neo4j = _compose()["services"]["neo4j"]
    assert neo4j["image"] == f"neo4j:{neo4j_version}-community"
    assert "graph-data-science" in neo4j["environment"]["NEO4J_PLUGINS"]
    assert "healthcheck" in neo4j
    assert any(v.startswith("neo4j-data:") for v in neo4j["volumes"])
    assert "neo4j-data" in _compose()["volumes"]
    assert all(p.startswith("127.0.0.1:") for p in neo4j["ports"])
    assert _compose()["services"]["kgmem"]["environment"]["KGMEM_NEO4J_URI"] == "bolt://neo4j:7687"


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
