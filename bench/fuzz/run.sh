#!/usr/bin/env bash
# `make fuzz`: seeds the corpus from the test traces, then runs the libFuzzer harness
# (bench/fuzz/README.md). Environment (all optional):
#   FUZZ_RUNS     executions in all jobs together     (default 10000000)
#   FUZZ_JOBS     fuzzing processes at once           (default 2: one per core of the CI machine)
#   FUZZ_MAX_LEN  largest input in bytes              (default 262144)
#   FUZZ_TIMEOUT  seconds one input may take          (default 10)
#   FUZZ_DIR      build directory                     (default build/fuzz)
#   FUZZ_SECONDS  stop each job after this long       (default: no limit)
set -euo pipefail
cd "$(dirname "$0")/../.."
ROOT=$(pwd)
RUNS=${FUZZ_RUNS:-10000000}
JOBS=${FUZZ_JOBS:-2}
MAX_LEN=${FUZZ_MAX_LEN:-262144}
TIMEOUT=${FUZZ_TIMEOUT:-10}
DIR=${FUZZ_DIR:-build/fuzz}
SECONDS_CAP=${FUZZ_SECONDS:-0}
BIN="$DIR/import_fuzzer"
[ -x "$BIN" ] || { echo "fuzz: missing $BIN (make fuzz builds it)" >&2; exit 1; }

# Seeds: every trace of tests/data/MANIFEST.tsv, uncompressed; one over 64 KB is cut to its first
# 64 KB and closed with `]}` (or `]` for a bare array), so the mutations start near a whole trace
# without spending their time on megabytes. Written once: the corpus then grows with what the
# fuzzer finds, and a later run starts from there.
mkdir -p "$DIR/corpus" "$DIR/artifacts"
if [ -z "$(ls -A "$DIR/corpus")" ]; then
  tail -n +2 tests/data/MANIFEST.tsv | cut -f1 | while read -r rel; do
    src="tests/data/$rel"
    [ -f "$src" ] || continue
    out="$DIR/corpus/seed-$(echo "$rel" | tr '/' '_' | sed 's/\.gz$//')"
    # (head closes the pipe early on a large file: its reader's SIGPIPE is expected)
    { if [[ "$src" == *.gz ]]; then gzip -dc "$src"; else cat "$src"; fi || true; } | head -c 65536 >"$out"
    if [ "$(stat -c %s "$out")" -ge 65536 ]; then
      if [ "$(head -c 1 "$out")" = "[" ]; then printf ']' >>"$out"; else printf ']}' >>"$out"; fi
    fi
  done
  echo "fuzz: $(ls "$DIR/corpus" | wc -l) seeds in $DIR/corpus"
fi

# -jobs runs JOBS processes, each to its share of the executions; their logs are $DIR/fuzz-N.log.
# A crash, timeout or leak leaves its input in $DIR/artifacts/ and stops that job.
PER_JOB=$(((RUNS + JOBS - 1) / JOBS))
cd "$DIR"
echo "fuzz: $JOBS jobs x $PER_JOB executions, inputs up to $MAX_LEN bytes (logs: $DIR/fuzz-*.log)"
status=0
# -entropic=0: libFuzzer's entropic schedule spent two thirds of the time updating feature
# frequencies over the core's many coverage points (the plain schedule runs about four times the
# executions a second here).
./import_fuzzer -runs="$PER_JOB" -jobs="$JOBS" -workers="$JOBS" -max_len="$MAX_LEN" -timeout="$TIMEOUT" \
  -entropic=0 -max_total_time="$SECONDS_CAP" \
  -dict="$ROOT/bench/fuzz/json.dict" -artifact_prefix=artifacts/ -print_final_stats=1 corpus || status=$?
for log in fuzz-*.log; do
  grep -h "stat::number_of_executed_units\|stat::average_exec_per_sec\|ERROR: \|SUMMARY: " "$log" | sed "s/^/$log: /"
done
ls artifacts | sed 's/^/fuzz: found /'
exit $status
