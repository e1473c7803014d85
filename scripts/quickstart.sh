#!/usr/bin/env bash
# Install, start Neo4j (with GDS) without Docker, and run the main ingest job on the
# bundled sample in data/sources through Dagster; then lint. Open the UI afterwards with
#   $VENV/bin/dagster dev -w workspace.yaml
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$ROOT"
VENV="$(scripts/setup.sh | tail -n1)"
export GRAPHWIKI_HOME="${GRAPHWIKI_HOME:-$ROOT/data}"
export DAGSTER_HOME="${DAGSTER_HOME:-$GRAPHWIKI_HOME/dagster}"
mkdir -p "$DAGSTER_HOME"
if [ ! -f "$DAGSTER_HOME/dagster.yaml" ]; then
  # graph-writing steps of different sources take turns (pool "graphwiki_writes")
  printf 'concurrency:\n  pools:\n    default_limit: 1\ntelemetry:\n  enabled: false\n' > "$DAGSTER_HOME/dagster.yaml"
fi
"$VENV/bin/graphwiki" neo4j start
"$VENV/bin/graphwiki" materialize "$@"
cat <<MSG

Done. Next:
  $VENV/bin/graphwiki ask "What is Cypher?"
  DAGSTER_HOME=$DAGSTER_HOME $VENV/bin/dagster dev -w workspace.yaml   # UI on http://127.0.0.1:3000
  $VENV/bin/graphwiki neo4j stop
MSG
