#!/usr/bin/env bash
# Set up kgmem on a fresh machine: Java + Maven and Chromium (apt, if missing), a virtualenv with
# kgmem and its models, and the local Neo4j + GDS resolved from Maven Central. Idempotent.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."

say() { printf '\033[1m==> %s\033[0m\n' "$*"; }

apt_updated=""
apt_install() {
  export DEBIAN_FRONTEND=noninteractive
  if [[ -z "$apt_updated" ]]; then apt-get update -qq; apt_updated=1; fi
  apt-get install -y -qq "$@" >/dev/null
}

if ! command -v java >/dev/null || ! command -v mvn >/dev/null; then
  say "installing Java 17 and Maven (apt)"
  apt_install openjdk-17-jdk-headless maven
fi
# Debian's Chromium for the browser tests (tests/browser drive it with Playwright; Playwright's
# own browser download does not work offline). Set KGMEM_SKIP_BROWSER_TESTS=1 to go without.
if [[ ! -x /usr/bin/chromium && "${KGMEM_SKIP_BROWSER_TESTS:-}" != "1" ]]; then
  if [[ "$(id -u)" == 0 ]] && command -v apt-get >/dev/null; then
    say "installing Chromium for the browser tests (apt)"
    apt_install chromium
  else
    say "Chromium is missing: as root, 'apt-get install chromium' (or KGMEM_SKIP_BROWSER_TESTS=1)"
  fi
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
