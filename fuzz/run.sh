#!/usr/bin/env bash
# Run every fuzz harness for N seconds each (default 60), coverage-guided with
# atheris (the `fuzz` extra: pip install -e '.[fuzz]').  Each run starts from
# the committed seed corpus (fuzz/corpus/<target>/, read-only here) and a
# scratch directory for what it finds; a crash is written to
# fuzz/crashes/<target>/ and the script exits 1.  It prints, per harness, the
# executions and libFuzzer's coverage figures (cov: edges, ft: features).
# Without atheris it replays the corpus and fuzz/regressions/ through each
# harness instead (no exploration) and says so.
#
# Usage: fuzz/run.sh [SECONDS] [TARGET ...]   targets: decode bundle build proof
set -euo pipefail
cd "$(dirname "$0")/.."
seconds="${1:-60}"
shift || true
targets=("$@")
if [ ${#targets[@]} -eq 0 ]; then targets=(decode bundle build proof); fi
python="${PYTHON:-python}"

if ! "$python" -c "import atheris" 2>/dev/null; then
  echo "fuzz: atheris is not installed (pip install -e '.[fuzz]'); replaying the corpus only"
  exec "$python" -m pytest -q -p no:cacheprovider tests/unit/hostile/test_fuzz_corpus.py
fi

status=0
for target in "${targets[@]}"; do
  scratch="$(mktemp -d)"
  crashes="fuzz/crashes/$target"
  mkdir -p "$crashes"
  log="$scratch/log"
  # -rss_limit_mb / -timeout: a hostile input may not cost more than this (issue 11).
  if "$python" "fuzz/fuzz_$target.py" "$scratch" "fuzz/corpus/$target" \
      -max_total_time="$seconds" -rss_limit_mb=2048 -timeout=30 -max_len=65536 \
      -print_final_stats=1 -artifact_prefix="$crashes/" >"$log" 2>&1; then
    result=ok
  else
    result=CRASH
    status=1
  fi
  runs=$(grep -Eo 'stat::number_of_executed_units: [0-9]+' "$log" | grep -Eo '[0-9]+$' || echo "?")
  last=$(grep -E '^#[0-9]+' "$log" | tail -1 | grep -Eo 'cov: [0-9]+ ft: [0-9]+ corp: [0-9]+/[^ ]+' || echo "cov: ?")
  echo "fuzz $target: $result, ${seconds}s, $runs executions, $last"
  if [ "$result" = CRASH ]; then
    tail -40 "$log"
    echo "fuzz $target: reproducer in $crashes/; add it to fuzz/regressions/$target/"
  fi
  rm -rf "$scratch"
  rmdir "$crashes" 2>/dev/null || true
done
rmdir fuzz/crashes 2>/dev/null || true
exit $status
