#!/usr/bin/env bash
# Install, run the tests that need no service, then start a disposable Neo4j (with GDS) and
# the local model, run the tests that need them, and stop Neo4j.
# The test server has its own home and port; the user's graph is never touched.
# Arguments go to pytest in both tiers (a file, -k, -x); `--tier fast` runs only the first.
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$ROOT"
TIER=all
if [ "${1:-}" = "--tier" ]; then TIER="$2"; shift 2; fi
VENV="$(scripts/setup.sh | tail -n1)"
# pytest's "no tests collected" (5) is no failure when a tier has none of the chosen tests.
tier() { "$VENV/bin/python" -m pytest "$@" || { code=$?; [ "$code" = 5 ] || exit "$code"; }; }
# A marker of the caller's own (`-m ui`) picks the tests itself: one run, with services.
PICKED=no
for arg in "$@"; do [ "$arg" = -m ] && PICKED=yes; done
if [ "$PICKED" = no ]; then
  echo "== tests without services (no Neo4j, no model server)" >&2
  tier -m "not integration" --durations=10 "$@"
  [ "$TIER" = fast ] && exit 0
fi
# The UI test drives Debian's Chromium headless; a fresh machine has none, so install it.
if ! command -v chromium >/dev/null 2>&1 || ! command -v chromedriver >/dev/null 2>&1; then
  if command -v apt-get >/dev/null 2>&1 && [ "$(id -u)" = 0 ]; then
    echo "Installing chromium and chromedriver for the UI test (apt-get)" >&2
    apt-get update -qq >/dev/null
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium chromium-driver fonts-liberation >/dev/null
  else
    echo "warning: chromium/chromedriver missing and cannot be installed here; the UI test will fail" \
         "(apt-get install chromium chromium-driver fonts-liberation)" >&2
  fi
fi
export GRAPHWIKI_TEST_BOLT_PORT="${GRAPHWIKI_TEST_BOLT_PORT:-7690}"
export GRAPHWIKI_TEST_HOME="${GRAPHWIKI_TEST_HOME:-$(mktemp -d -t graphwiki-test.XXXXXX)}"
export GRAPHWIKI_TEST_PASSWORD="${GRAPHWIKI_TEST_PASSWORD:-graphwiki-test}"
launcher() {
  GRAPHWIKI_HOME="$GRAPHWIKI_TEST_HOME" GRAPHWIKI_NEO4J_BOLT_PORT="$GRAPHWIKI_TEST_BOLT_PORT" \
    NEO4J_PASSWORD="$GRAPHWIKI_TEST_PASSWORD" "$VENV/bin/graphwiki" neo4j "$@"
}
trap 'launcher stop >/dev/null 2>&1 || true' EXIT
launcher start
export GRAPHWIKI_TEST_KEEP_NEO4J=1  # the script owns the server's lifetime
# The real-model tests serve SmolLM2-135M with llama.cpp: fetch the weights and build the
# server once (cached in ~/.cache/graphwiki, about 25 minutes the first time), before pytest
# starts, so a first run's build is not charged to a test's timeout.
GRAPHWIKI_LLM_LOCAL_MODEL=smollm2-135m "$VENV/bin/graphwiki" llm prepare
echo "== tests with services" >&2
if [ "$PICKED" = no ]; then tier -m integration --durations=25 "$@"; else tier --durations=25 "$@"; fi
