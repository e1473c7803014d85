#!/usr/bin/env bash
# Install, start Neo4j (with GDS) without Docker, and run the main ingest job on the
# bundled sample in data/sources through Dagster; then lint. Open the UI afterwards with
#   $VENV/bin/dg dev   (or: $VENV/bin/dagster dev -w workspace.yaml)
# With --llm local, a local model does the LLM's work: `graphwiki llm start` fetches the
# pinned weights and builds llama.cpp's server once (about 15 minutes on two cores), then
# serves it on 127.0.0.1; every step below reaches it through GRAPHWIKI_LLM=local.
set -euo pipefail
ARGS=()
while [ $# -gt 0 ]; do
  case "$1" in
    --llm) export GRAPHWIKI_LLM="$2"; shift 2 ;;
    --llm=*) export GRAPHWIKI_LLM="${1#--llm=}"; shift ;;
    *) ARGS+=("$1"); shift ;;
  esac
done
set -- "${ARGS[@]+"${ARGS[@]}"}"
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
if [ "${GRAPHWIKI_LLM:-}" = local ]; then
  "$VENV/bin/graphwiki" llm start
fi
"$VENV/bin/graphwiki" materialize "$@"
cat <<MSG

Done. Next:
  $VENV/bin/graphwiki ask "What is Cypher?"
  cd $ROOT && DAGSTER_HOME=$DAGSTER_HOME $VENV/bin/dg dev   # UI on http://127.0.0.1:3000
  $VENV/bin/graphwiki neo4j stop
MSG
if [ "${GRAPHWIKI_LLM:-}" = local ]; then
  echo "  GRAPHWIKI_LLM=local $VENV/bin/graphwiki ask ...   # the local model; stop it with: $VENV/bin/graphwiki llm stop"
fi
