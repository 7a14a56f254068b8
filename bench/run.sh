#!/usr/bin/env bash
# Import benchmark (`make bench`): generates large Kineto traces by replicating a real one over time
# (bench/gen_trace.py), then imports each with the native CLI and with the wasm build in node, side by
# side in one run, and prints one table row per file.
#
# Environment (all optional):
#   BENCH_SIZES   sizes in MiB to generate            (default "256 1024")
#   BENCH_SOURCE  the real trace to replicate         (default HTA's nccl_data.json.gz, Kineto, 40k events)
#   BENCH_OUT     where generated traces go           (default bench/out, gitignored)
#   BENCH_REPEAT  runs per measurement, best is kept  (default 1)
#   NATIVE        the CLI to measure                  (default build/native/tracewise)
#   WASM_DIR      the wasm build to measure           (default build/wasm)
#
# Columns: native MB/s = uncompressed bytes / wall time of `tracewise stats` (read + gunzip + import +
# finalize); cpuMB/s = the same over user+sys CPU time (robust when other work shares the cores);
# RSS = its peak resident set; anal s = `summarize` wall minus `stats` wall (the analyses).
# wasm MB/s = uncompressed bytes / (first push .. finish) in node on one thread (gunzip by node's
# zlib on the same thread); heap = the wasm memory at its largest through finish(); anal s =
# summaryJson() time; +sum MB = the wasm memory after the summary (analyses allocate too).
# model B/ev = TraceModel::memory_bytes() / events (wasm build, 32-bit pointers).
# x = peak memory / uncompressed size; the target is <= 0.35 at 1 GB.
set -euo pipefail
cd "$(dirname "$0")/.."
export NODE_PATH=/usr/share/nodejs
SIZES=${BENCH_SIZES:-"256 1024"}
SOURCE=${BENCH_SOURCE:-tests/data/hta/tests/data/nccl_parser_config/nccl_data.json.gz}
OUT=${BENCH_OUT:-bench/out}
REPEAT=${BENCH_REPEAT:-1}
NATIVE=${NATIVE:-build/native/tracewise}
WASM_DIR=${WASM_DIR:-build/wasm}

for f in "$NATIVE" "$WASM_DIR/tracewise.wasm" "$SOURCE"; do
  [ -e "$f" ] || { echo "bench: missing $f (run make build first)" >&2; exit 1; }
done
[ -x /usr/bin/time ] || { echo "bench: needs /usr/bin/time (apt-get install time)" >&2; exit 1; }
mkdir -p "$OUT"

# --- data: generated once, reused while the source and generator are unchanged --------------------
# "Unchanged" by content (a stamp of their sha256 sums), not by mtime: a fresh checkout of the same
# source trace must not make a 1 GB regeneration. A missing stamp is written for the files already there.
stamp="$OUT/.inputs.sha256"
inputs=$(sha256sum bench/gen_trace.py "$SOURCE" | awk '{print $1}' | tr '\n' ' ')
stale=0
if [ -s "$stamp" ] && [ "$(cat "$stamp")" != "$inputs" ]; then stale=1; fi
files=()
for mb in $SIZES; do
  plain="$OUT/kineto_${mb}mb.json"
  if [ ! -s "$plain" ] || [ $stale = 1 ]; then
    echo "bench: generating $plain" >&2
    python3 bench/gen_trace.py "$SOURCE" "$plain.tmp" "$mb" && mv "$plain.tmp" "$plain"
  fi
  if [ ! -s "$plain.gz" ] || [ "$plain.gz" -ot "$plain" ]; then
    echo "bench: compressing $plain" >&2
    gzip -6 -c "$plain" > "$plain.gz.tmp" && mv "$plain.gz.tmp" "$plain.gz"
  fi
  files+=("$plain" "$plain.gz")
done
echo "$inputs" > "$stamp"

# --- measurements -----------------------------------------------------------------------------------
# Prints "wall_s cpu_s peak_rss_kb" for one run of the command (stdout discarded).
timed() {
  local t
  t=$(mktemp)
  /usr/bin/time -o "$t" -f "%e %U %S %M" "$@" >/dev/null 2>&1 || { echo "bench: failed: $*" >&2; rm -f "$t"; exit 1; }
  awk '{printf "%s %.2f %s\n", $1, $2 + $3, $4}' <(tail -1 "$t")
  rm -f "$t"
}
best_of() {  # the run with the least wall time over REPEAT runs
  local best="" r
  for _ in $(seq "$REPEAT"); do
    r=$(timed "$@")
    if [ -z "$best" ] || awk -v a="${r%% *}" -v b="${best%% *}" 'BEGIN{exit !(a<b)}'; then best=$r; fi
  done
  echo "$best"
}

echo "machine: $(nproc) cores, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | xargs), node $(node --version), load $(cut -d' ' -f1-3 /proc/loadavg)"
echo "native: $NATIVE   wasm: $WASM_DIR   source: $SOURCE"
fmt='%-22s %8s %8s %6s | %7s %7s %7s %6s %7s | %7s %7s %7s %6s %7s %7s\n'
printf "$fmt" file 'MB' events 'B/ev' 'MB/s' 'cpuMB/s' 'RSS MB' 'x' 'anal s' 'MB/s' 'cpuMB/s' 'heap MB' 'x' 'anal s' '+sum MB'
printf "$fmt" '' '' '' model '-- native' '' '' '' '' '-- wasm' '' '' '' '' ''
for f in "${files[@]}"; do
  read -r imp_s imp_cpu rss_kb <<<"$(best_of "$NATIVE" stats "$f")"
  read -r sum_s _ _ <<<"$(best_of "$NATIVE" summarize "$f")"
  w=""
  for _ in $(seq "$REPEAT"); do
    r=$(node bench/wasm_bench.mjs "$WASM_DIR" "$f")
    if [ -z "$w" ] || node -e "const [a,b]=process.argv.slice(1).map(JSON.parse);process.exit(a.import_s<b.import_s?0:1)" "$r" "$w"; then w=$r; fi
  done
  node -e '
    const [fmtArg, name, impS, impCpu, rssKb, sumS, wj] = process.argv.slice(1);
    const fmt = fmtArg.replace(/\\n$/, "\n");
    const w = JSON.parse(wj), mb = w.bytes / 1e6, MiB = 1 << 20;
    const f = (v, d) => Number(v).toFixed(d);
    const cells = [name, f(mb, 1), String(w.events), f(w.model_bytes / w.events, 1),
      f(mb / impS, 0), f(mb / impCpu, 0), f(rssKb * 1024 / MiB, 0), f(rssKb * 1024 / w.bytes, 3),
      f(Math.max(0, sumS - impS), 2),
      f(mb / w.import_s, 0), f(mb / w.import_cpu_s, 0), f(w.heap_bytes / MiB, 0), f(w.heap_bytes / w.bytes, 3),
      f(w.summary_s, 2), f(w.heap_after_summary_bytes / MiB, 0)];
    let i = 0;
    process.stdout.write(fmt.replace(/%(-?)(\d+)s/g, (_, left, width) => {
      const c = cells[i++]; return left ? c.padEnd(+width) : c.padStart(+width);
    }));
  ' "$fmt" "$(basename "$f")" "$imp_s" "$imp_cpu" "$rss_kb" "$sum_s" "$w"
done
