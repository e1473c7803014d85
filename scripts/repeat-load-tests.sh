#!/usr/bin/env bash
# The two load tests, each N times in a row in one pytest session (default 50), with the
# services the suite starts: a hang or an error in any run fails it, and the summary line
# counts the runs. A run that hangs is stopped by the suite's per-test timeout.
#   ./scripts/repeat-load-tests.sh [N]
set -euo pipefail
cd "$(dirname "$0")/.."
N="${1:-50}"
exec ./scripts/test.sh -q -p no:cacheprovider --count "$N" --repeat-scope function \
  tests/integration/test_query_load.py::test_eight_askers_during_an_ingest_get_no_error \
  tests/integration/test_serve_load.py::test_eight_clients_ask_while_a_source_is_ingested
