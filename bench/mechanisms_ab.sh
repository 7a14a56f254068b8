#!/usr/bin/env bash
# One interleaved A/B per speed mechanism of the page (docs/performance.md): the site as built
# (build/site) against one built without the mechanism (web/build.mjs --without NAME, into
# build/ab/without-NAME), each on the file that shows what it is for, with bench/site_ab.mjs (fresh
# browser per run, medians). Not a test: it prints tables.
# Usage: bench/mechanisms_ab.sh [NAME...]   (default: all; ROUNDS=5; needs make build and the
# files of make bench in bench/out)
set -euo pipefail
cd "$(dirname "$0")/.."
export NODE_PATH=/usr/share/nodejs
ROUNDS=${ROUNDS:-5}
OUT=${BENCH_OUT:-bench/out}  # the files of make bench
names=("$@")
# Default: every mechanism web/load/switches.ts names (each needs its case below).
[ ${#names[@]} -gt 0 ] || mapfile -t names < <(grep -oP "^  '\\K[a-z-]+(?=',)" web/load/switches.ts)
for f in build/site/index.html "$OUT/kineto_256mb.json" "$OUT/kineto_1024mb.json" "$OUT/kineto_1024mb.json.gz"; do
  [ -e "$f" ] || { echo "mechanisms_ab: missing $f (make build; make bench makes bench/out)" >&2; exit 1; }
done

without() {  # builds the site without $1, prints its folder
  local dir="build/ab/without-$1"
  node web/build.mjs --without "$1" --out "$dir" >/dev/null
  echo "$dir"
}

for name in "${names[@]}"; do
  echo "## $name"
  case "$name" in
    inflate) node bench/site_ab.mjs build/site "$(without inflate)" "$OUT/kineto_1024mb.json.gz" "$ROUNDS" | tail -4 ;;
    feed) node bench/site_ab.mjs build/site "$(without feed)" "$OUT/kineto_1024mb.json.gz" "$ROUNDS" | tail -4 ;;
    parts) AB_WAIT=2500 node bench/site_ab.mjs build/site "$(without parts)" "$OUT/kineto_1024mb.json" "$ROUNDS" | tail -4 ;;
    spare|warm-up)
      node bench/site_ab.mjs build/site "$(without "$name")" "$OUT/kineto_256mb.json" "$ROUNDS" | tail -4 ;;
    *) echo "mechanisms_ab: unknown mechanism $name" >&2; exit 2 ;;
  esac
done
