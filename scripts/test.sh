#!/usr/bin/env bash
# Set up everything and run the whole test suite (lint, then pytest). The test fixtures start and
# stop their own Neo4j + GDS server through kgmem's launcher; nothing needs to be running first.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
bash scripts/setup.sh
export JAVA_HOME="${JAVA_HOME:-/usr/lib/jvm/java-17-openjdk-amd64}"
echo "==> ruff"
.venv/bin/ruff check kgmem tests benchmarks notebooks
.venv/bin/ruff format --check kgmem tests benchmarks notebooks
echo "==> mypy"
.venv/bin/mypy
echo "==> import layers"
.venv/bin/lint-imports --no-cache
echo "==> pytest"
set +e
.venv/bin/python -m pytest -q -p no:cacheprovider "$@"
rc=$?
set -e
if [[ $rc -eq 5 ]]; then
  echo "pytest collected no tests: treating as a failure" >&2
  exit 1
fi
exit $rc
