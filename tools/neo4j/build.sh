#!/usr/bin/env bash
# Resolves Neo4j + GDS from Maven Central and builds the launcher (idempotent; ~/.m2 caches jars).
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
if [[ -f "$here/target/classes/kgmem/neo4j/Launcher.class" && -d "$here/target/gds-plugins" \
      && "$here/target/classes/kgmem/neo4j/Launcher.class" -nt "$here/src/main/java/kgmem/neo4j/Launcher.java" \
      && "$here/target/classes/kgmem/neo4j/Launcher.class" -nt "$here/pom.xml" ]]; then
  exit 0
fi
mvn -B -ntp -q -f "$here/pom.xml" -DskipTests package
