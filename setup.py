"""Ships the Neo4j launcher's Maven project (tools/neo4j: pom, scripts, Java source, no build
output) inside the wheel as kgmem/local_server/neo4j_project, so `kgmem db start` works outside a
source checkout: the launcher copies it into a per-user cache and builds it there on first start.
All other metadata is in pyproject.toml."""

from __future__ import annotations

import shutil
from pathlib import Path

from setuptools import setup
from setuptools.command.build_py import build_py

PROJECT = Path(__file__).resolve().parent / "tools" / "neo4j"
FILES = ("pom.xml", "build.sh", "run.sh", "jvm.options", "src")


class BuildWithLauncher(build_py):  # type: ignore[misc]
    def run(self) -> None:
        super().run()
        if not self.editable_mode and PROJECT.is_dir():
            target = Path(self.build_lib) / "kgmem" / "local_server" / "neo4j_project"
            shutil.rmtree(target, ignore_errors=True)
            for name in FILES:
                source = PROJECT / name
                if source.is_dir():
                    shutil.copytree(source, target / name)
                else:
                    target.mkdir(parents=True, exist_ok=True)
                    shutil.copy2(source, target / name)


setup(cmdclass={"build_py": BuildWithLauncher})
