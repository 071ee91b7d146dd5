#!/usr/bin/env bash
# Refresh the lock files scripts/setup.sh (and so CI) installs from, with uv's resolver:
#   requirements/dev.lock   every extra ([dev]: the torch backend too), for Python 3.11 on Linux;
#                           what KGMEM_TORCH=1 (and so CI) installs
#   requirements/lean.lock  what setup.sh installs by default: [dev] without [torch], no torch,
#                           pinned to the dev lock's versions
# uv keeps every pin the current lock has unless pyproject.toml's ranges exclude it; to take
# newer versions run `bash scripts/lock.sh --upgrade` (or `--upgrade-package NAME`), then the
# tests, and commit the locks with the change that needed them.
# uv comes from PyPI into a throwaway venv when it is not on PATH.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
uv="$(command -v uv || true)"
if [[ -z "$uv" ]]; then
  tmp="$(mktemp -d)"
  trap 'rm -rf "$tmp"' EXIT
  python3 -m venv "$tmp/venv"
  "$tmp/venv/bin/pip" install --quiet --disable-pip-version-check uv
  uv="$tmp/venv/bin/uv"
fi
compile() {
  "$uv" pip compile pyproject.toml --python-version 3.11 --python-platform x86_64-unknown-linux-gnu \
    --custom-compile-command "bash scripts/lock.sh" --quiet "$@"
}
compile --extra dev -o requirements/dev.lock "$@"
compile --extra server --extra llm --extra mcp --extra notebooks --extra test \
  --extra frameworks --extra otel -c requirements/dev.lock -o requirements/lean.lock
echo "wrote requirements/dev.lock and requirements/lean.lock"
