#!/usr/bin/env bash
# CI step: the built wheel works outside a source checkout. Builds the wheel, installs it into a
# fresh venv (its dependencies come from the development venv through a .pth line, so nothing is
# downloaded), then from an empty folder runs `kgmem --version`, `kgmem db start` (the wheel's
# Maven project is copied to a per-user cache and built there), `db init`, `remember`, `recall`,
# `db status` from another folder, then `kgmem serve` on a free loopback port with an API key:
# once /readyz answers, a recall through the SDK client and one through the CLI as a thin client
# (KGMEM_API_URL) return the remembered text; then the server and `db stop`. Prints the fresh
# venv's own size and how long the check took.
# Usage: scripts/wheel_check.sh [PYTHON]   (PYTHON: the development venv's, default .venv's)
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
dev_python="${1:-.venv/bin/python}"
dev_python="$(cd "$(dirname "$dev_python")" && pwd)/$(basename "$dev_python")"  # a venv: no realpath
export JAVA_HOME="${JAVA_HOME:-/usr/lib/jvm/java-17-openjdk-amd64}"
work="$(mktemp -d)"
started=$(date +%s)
serve_pid=""
cleanup() {
  if [[ -n "$serve_pid" ]]; then kill -TERM "$serve_pid" 2>/dev/null || true; wait "$serve_pid" 2>/dev/null || true; fi
  XDG_DATA_HOME="$work/data" XDG_CACHE_HOME="$work/cache" "$work/venv/bin/kgmem" db stop >/dev/null 2>&1 || true
  rm -rf "$work"
}
trap cleanup EXIT
free_port() { "$dev_python" -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'; }

say() { printf '==> %s\n' "$*"; }
say "building the wheel"
"$dev_python" -m pip wheel --quiet --no-deps -w "$work/dist" . >/dev/null
wheel="$(ls "$work"/dist/kgmem-*.whl)"
"$dev_python" -c 'import sys, zipfile; sys.exit("kgmem/local_server/neo4j_project/pom.xml" not in zipfile.ZipFile(sys.argv[1]).namelist())' "$wheel" \
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
export KGMEM_BOLT_PORT="${KGMEM_BOLT_PORT:-$(free_port)}"
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

say "serving the API from the wheel"
api_port="$(free_port)"
api_key="$("$dev_python" -c 'import secrets; print(secrets.token_hex(16))')"
KGMEM_API_KEYS="{\"$api_key\": [\"wheel\"]}" "$kgmem" serve --host 127.0.0.1 --port "$api_port" \
  --workers 1 --log-level warning >"$work/serve.log" 2>&1 &
serve_pid=$!
ready=""
for _ in $(seq 240); do  # up to 2 min: the models load before /readyz says 200
  kill -0 "$serve_pid" 2>/dev/null || { cat "$work/serve.log" >&2; echo "kgmem serve exited" >&2; exit 1; }
  if "$work/venv/bin/python" -c 'import sys, urllib.request as u
try:
    sys.exit(u.urlopen(sys.argv[1], timeout=2).status != 200)
except OSError:
    sys.exit(1)' "http://127.0.0.1:$api_port/readyz"; then ready=1; break; fi
  sleep 0.5
done
[[ -n "$ready" ]] || { cat "$work/serve.log" >&2; echo "/readyz never answered 200" >&2; exit 1; }
"$work/venv/bin/python" - "http://127.0.0.1:$api_port" "$api_key" <<'PY'
import sys

from kgmem.sdk import KgmemClient, run_sync


async def recall() -> list[str]:
    async with KgmemClient(sys.argv[1], sys.argv[2]) as client:
        result = await client.recall("What milk does Maya take?", namespace="wheel")
        return [hit.content for hit in result.hits]


hits = run_sync(recall())
if not any("almond milk" in text for text in hits):
    sys.exit(f"the SDK's recall through the API missed the memory: {hits}")
print(f"SDK recall through the API: {hits[0]}")
PY
KGMEM_API_URL="http://127.0.0.1:$api_port" KGMEM_API_CLIENT_KEY="$api_key" \
  "$kgmem" recall "What milk does Maya take?" -n wheel --json | grep -q "almond milk"
kill -TERM "$serve_pid"
wait "$serve_pid" || true
serve_pid=""
"$kgmem" db stop
say "wheel check passed in $(( $(date +%s) - started ))s"
