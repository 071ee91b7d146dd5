#!/usr/bin/env bash
# Set up kgmem, start the local Neo4j + GDS, create the schema, observe a short sample conversation
# and show a recall. Re-running it reuses the running server and does not duplicate memories.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
bash scripts/setup.sh
export JAVA_HOME="${JAVA_HOME:-/usr/lib/jvm/java-17-openjdk-amd64}"
kg=.venv/bin/kgmem
$kg db start
$kg db init
$kg observe examples/sample_conversation.jsonl --namespace demo
$kg recall "What does Maya do for a living?" --namespace demo --limit 3
$kg recall "What milk does Maya take in her coffee?" --namespace demo --limit 3
echo
echo "The server keeps running: try '.venv/bin/kgmem recall \"...\" -n demo', and '.venv/bin/kgmem db stop' when done."
