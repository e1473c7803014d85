#!/usr/bin/env bash
# Install, start Neo4j (with GDS) without Docker, and run the main ingest job on the
# bundled sample in data/sources through Dagster; then lint. Open the UI afterwards with
#   $VENV/bin/dg dev   (or: $VENV/bin/dagster dev -w workspace.yaml)
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$ROOT"
VENV="$(scripts/setup.sh | tail -n1)"
export GRAPHWIKI_HOME="${GRAPHWIKI_HOME:-$ROOT/data}"
export DAGSTER_HOME="${DAGSTER_HOME:-$GRAPHWIKI_HOME/dagster}"
mkdir -p "$DAGSTER_HOME"
if [ ! -f "$DAGSTER_HOME/dagster.yaml" ]; then
  # Each run loads the embedding model once and works through many sources; two at a time
  # is plenty for a laptop (writers take turns on the graph anyway, through the ingest lease).
  printf 'concurrency:\n  runs:\n    max_concurrent_runs: 2\ntelemetry:\n  enabled: false\n' > "$DAGSTER_HOME/dagster.yaml"
fi
"$VENV/bin/graphwiki" neo4j start
"$VENV/bin/graphwiki" materialize "$@"
cat <<MSG

Done. Next:
  $VENV/bin/graphwiki ask "What is Cypher?"
  cd $ROOT && DAGSTER_HOME=$DAGSTER_HOME $VENV/bin/dg dev   # UI on http://127.0.0.1:3000
  $VENV/bin/graphwiki neo4j stop
MSG
