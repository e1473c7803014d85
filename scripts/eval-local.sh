#!/usr/bin/env bash
# The evals with the pinned local model (GRAPHWIKI_LLM=local), one JSON per eval in OUT_DIR.
# Usage: scripts/eval-local.sh OUT_DIR [EVAL ...]   (EVAL: er-general er-invented
#   er-products-dev er-products-test contradictions answers multihop extraction ingest-sample)
# Every call goes through the LLM cache of $GRAPHWIKI_HOME/eval, so a re-run costs nothing.
# On two cores the 1.5B model writes about 5 tokens/s: the whole list takes hours, so the
# slowest evals run on their report half only (see the README's "Local model").
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
OUT="${1:?usage: scripts/eval-local.sh OUT_DIR [EVAL ...]}"; shift
mkdir -p "$OUT"
GW="${GRAPHWIKI_BIN:-graphwiki}"
export GRAPHWIKI_LLM=local GRAPHWIKI_EVAL_KEEP_NEO4J=1
"$GW" llm start
ALL=(er-general contradictions er-invented er-products-test er-products-dev answers multihop extraction ingest-sample)
for name in "${@:-${ALL[@]}}"; do
  echo "== $name $(date -u +%H:%M:%S)" >&2
  case "$name" in
    er-general)       cmd=(eval er --pairs "$ROOT/evals/er/general.jsonl" --no-population) ;;
    er-invented)      cmd=(eval er --pairs "$ROOT/evals/er/invented.jsonl" --no-population) ;;
    er-products-dev)  cmd=(eval er --pairs "$ROOT/evals/er/products_dev.jsonl" --no-population) ;;
    er-products-test) cmd=(eval er --pairs "$ROOT/evals/er/products_test.jsonl" --no-population) ;;
    contradictions)   cmd=(eval contradictions --pairs "$ROOT/evals/contradictions/pairs.jsonl") ;;
    answers)          cmd=(eval answers) ;;
    multihop)         cmd=(eval multihop --corpus "$ROOT/evals/multihop/seed/corpus.jsonl"
                           --questions "$ROOT/evals/multihop/seed/questions.jsonl" --k 5 --no-sweep) ;;
    extraction)       cmd=(eval extraction --gold "$ROOT/evals/extraction/redocred.jsonl" --split report
                           --limit "${EXTRACTION_DOCS:-8}") ;;
    ingest-sample)    cmd=(bench ingest --corpus "$ROOT/evals/multihop/seed/corpus.jsonl" --no-rerun) ;;
    *) echo "unknown eval $name" >&2; exit 2 ;;
  esac
  started=$(date +%s)
  "$GW" "${cmd[@]}" --json > "$OUT/$name.json" 2> "$OUT/$name.log" || echo "   $name failed (see $OUT/$name.log)" >&2
  echo "   $name: $(( $(date +%s) - started ))s" >&2
done
