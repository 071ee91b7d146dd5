#!/usr/bin/env bash
# Set up kgmem on a fresh machine: Java + Maven (apt, if missing), a virtualenv with kgmem and its
# models, and the local Neo4j + GDS resolved from Maven Central. Idempotent; safe to re-run.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."

say() { printf '\033[1m==> %s\033[0m\n' "$*"; }

if ! command -v java >/dev/null || ! command -v mvn >/dev/null; then
  say "installing Java 17 and Maven (apt)"
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -qq
  apt-get install -y -qq openjdk-17-jdk-headless maven >/dev/null
fi
if [[ -d /usr/lib/jvm/java-17-openjdk-amd64 && -z "${JAVA_HOME:-}" ]]; then
  export JAVA_HOME=/usr/lib/jvm/java-17-openjdk-amd64  # Neo4j 5.26 runs on 17 or 21, not 25
fi

PY="${PYTHON:-python3}"
"$PY" -c 'import sys; assert sys.version_info >= (3, 11), "kgmem needs Python 3.11+"'
if [[ ! -x .venv/bin/python ]]; then
  say "creating .venv"
  "$PY" -m venv .venv
fi
say "installing Python packages"
# torch first, pinned, so a machine with a local CPU wheel uses it instead of a multi-GB CUDA build.
.venv/bin/pip install --quiet --disable-pip-version-check "torch==2.13.0"
.venv/bin/pip install --quiet --disable-pip-version-check -e '.[test]'

say "resolving Neo4j + GDS from Maven Central (tools/neo4j)"
bash tools/neo4j/build.sh
say "setup done"
