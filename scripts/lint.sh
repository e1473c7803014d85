#!/usr/bin/env bash
# The code gates, as configured in pyproject.toml: ruff's lint rules, ruff's format (checked,
# not applied) and mypy. `scripts/lint.sh --fix` applies ruff's safe fixes and the format instead.
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$ROOT"
VENV="$(scripts/setup.sh | tail -n1)"
if [ "${1:-}" = "--fix" ]; then
  "$VENV/bin/ruff" check --fix .
  "$VENV/bin/ruff" format .
else
  "$VENV/bin/ruff" check .
  "$VENV/bin/ruff" format --check .
fi
"$VENV/bin/mypy"
