#!/usr/bin/env bash
# The fault and abuse suite in one command: real processes killed (Neo4j, the client, a worker),
# concurrent writers, bad files and bad text, query cost, hard forget, Neo4j down, tenant crossing
# and the API's limits. The whole test suite (scripts/test.sh) runs these too; this runs only them.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
export JAVA_HOME="${JAVA_HOME:-/usr/lib/jvm/java-17-openjdk-amd64}"
exec .venv/bin/python -m pytest -q -p no:cacheprovider \
  tests/fault tests/api/test_api_auth.py tests/api/test_api_limits.py "$@"
