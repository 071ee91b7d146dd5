#!/usr/bin/env bash
# Runs the kgmem Neo4j launcher from the Maven build output (build it with build.sh first).
# Usage: tools/neo4j/run.sh --home DIR --bolt 127.0.0.1:PORT [--auth none|password] [--heap 1g] ...
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
heap="${KGMEM_LAUNCHER_HEAP:-1g}"
java_bin="${JAVA_HOME:+$JAVA_HOME/bin/}java"
exec "$java_bin" "@$here/jvm.options" "-Xms256m" "-Xmx$heap" \
  -cp "$here/target/classes:$here/target/lib/*" kgmem.neo4j.Launcher \
  --plugins "$here/target/gds-plugins" "$@"
