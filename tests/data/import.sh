#!/usr/bin/env bash
# Re-creates this folder's traces from a corpus laid out like the upstream repositories
# (SRC/MANIFEST.tsv, SRC/<local_path>, SRC/reference/): how tests/data was made, kept so that a
# refresh is one command. Plain JSON files over 256 KB are stored gzipped (deterministic `gzip -9n`),
# the rest byte for byte; MANIFEST.tsv is rewritten with the stored paths and sizes.
#   bash tests/data/import.sh SRC
set -euo pipefail
src=${1:?usage: import.sh SRC}
dst=$(cd "$(dirname "$0")" && pwd)
manifest_in="$src/MANIFEST.tsv"
manifest_out="$dst/MANIFEST.tsv"
# Files over 256 KB that are plain upstream are stored gzipped: the row gets the stored path and
# size and a note, its uncompressed_bytes stays (columns: see the header).
awk -F'\t' -v OFS='\t' -v src="$src" -v dst="$dst" '
  NR == 1 { print; next }
  {
    rel = $1; out = rel
    system("mkdir -p \"$(dirname \"" dst "/" rel "\")\"")
    cmd = "stat -c %s \"" src "/" rel "\""; cmd | getline size; close(cmd)
    if (rel ~ /\.json$/ && size > 262144) {
      out = rel ".gz"
      system("gzip -9 -n -c \"" src "/" rel "\" > \"" dst "/" out "\"")
      cmd = "stat -c %s \"" dst "/" out "\""; cmd | getline $5; close(cmd)
      $1 = out; $7 = "gzip"; $23 = ($23 == "" ? "" : $23 " | ") "stored gzipped here (upstream: plain)"
    } else {
      system("cp \"" src "/" rel "\" \"" dst "/" rel "\"")
    }
    print
  }' "$manifest_in" >"$manifest_out"
# HTA's numbers without its microsecond rounding (what the parity tests compare with), without the
# top-kernel tables no test reads.
mkdir -p "$dst/reference"
cp "$src/reference/environment.txt" "$src/reference/hta_test_assertions.tsv" "$dst/reference/"
rm -rf "$dst/reference/hta_no_ns_rounding"
cp -r "$src/reference/hta_no_ns_rounding" "$dst/reference/"
find "$dst/reference/hta_no_ns_rounding" -name top_kernels.csv -delete
chmod -R u+w,a+rX "$dst"
