#!/usr/bin/env bash
# CI step: the built wheel works outside a source checkout. Builds the wheel, installs it into a
# fresh venv (its dependencies come from the development venv through a .pth line, so nothing is
# downloaded), then from an empty folder runs `kgmem --version`, `kgmem db start` (the wheel's
# Maven project is copied to a per-user cache and built there), `db init`, `remember`, `recall`,
# `db status` from another folder, and `db stop`. Prints the fresh venv's own size.
# Usage: scripts/wheel_check.sh [PYTHON]   (PYTHON: the development venv's, default .venv's)
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
dev_python="${1:-.venv/bin/python}"
dev_python="$(cd "$(dirname "$dev_python")" && pwd)/$(basename "$dev_python")"  # a venv: no realpath
export JAVA_HOME="${JAVA_HOME:-/usr/lib/jvm/java-17-openjdk-amd64}"
work="$(mktemp -d)"
trap 'XDG_DATA_HOME="$work/data" XDG_CACHE_HOME="$work/cache" "$work/venv/bin/kgmem" db stop >/dev/null 2>&1 || true; rm -rf "$work"' EXIT

say() { printf '==> %s\n' "$*"; }
say "building the wheel"
"$dev_python" -m pip wheel --quiet --no-deps -w "$work/dist" . >/dev/null
wheel="$(ls "$work"/dist/kgmem-*.whl)"
"$dev_python" -c 'import sys, zipfile; sys.exit("kgmem/graph/neo4j_project/pom.xml" not in zipfile.ZipFile(sys.argv[1]).namelist())' "$wheel" \
  || { echo "the wheel lacks the Maven project" >&2; exit 1; }

say "installing it into a fresh venv"
"$dev_python" -m venv --without-pip "$work/venv"
site="$("$work/venv/bin/python" -c 'import sysconfig; print(sysconfig.get_path("purelib"))')"
dev_site="$("$dev_python" -c 'import sysconfig; print(sysconfig.get_path("purelib"))')"
"$dev_python" -m pip --python "$work/venv/bin/python" install --quiet --no-deps "$wheel"
# after the venv's own site-packages: the wheel's kgmem wins over the development checkout's
echo "$dev_site" > "$site/zz-dev-deps.pth"
say "fresh venv, kgmem itself: $(du -sh "$site" | cut -f1)"

mkdir -p "$work/elsewhere" "$work/another"
cd "$work/elsewhere"
export XDG_DATA_HOME="$work/data" XDG_CACHE_HOME="$work/cache" KGMEM_MODEL_CACHE_DIR="$work/models"
export KGMEM_BOLT_PORT="${KGMEM_BOLT_PORT:-$("$dev_python" -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')}"
kgmem="$work/venv/bin/kgmem"
"$kgmem" --version
python_of_kgmem="$("$work/venv/bin/python" -c 'import kgmem; print(kgmem.__file__)')"
[[ "$python_of_kgmem" == "$site"/* ]] || { echo "kgmem came from $python_of_kgmem" >&2; exit 1; }
"$kgmem" db start
[[ -f "$XDG_DATA_HOME/kgmem/server.json" ]] || { echo "no server.json in the per-user data dir" >&2; exit 1; }
ls -d "$XDG_CACHE_HOME"/kgmem/neo4j-launcher-*/target/classes >/dev/null
"$kgmem" db init
"$kgmem" remember "Maya switched to almond milk in her coffee." -n wheel
"$kgmem" recall "What milk does Maya take?" -n wheel --json | grep -q "almond milk"
(cd "$work/another" && "$kgmem" db status)
"$kgmem" db stop
say "wheel check passed"
