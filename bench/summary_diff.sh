#!/usr/bin/env bash
# Checks that two CLIs give byte-identical summaries (plain and --hta-compat) for every JSON trace
# under tests/data, or another corpus (an importer change must not change what is loaded).
# Usage: bench/summary_diff.sh OLD_CLI NEW_CLI [TRACES_DIR]   (exit 1 and the first diffs if any)
set -uo pipefail
old=$1 new=$2
dir=${3:-$(cd "$(dirname "$0")/.." && pwd)/tests/data}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
n=0 bad=0
while IFS= read -r -d '' f; do
  for flag in "" --hta-compat; do
    n=$((n + 1))
    "$old" summarize $flag "$f" >"$tmp/a" 2>"$tmp/ae"; ra=$?
    "$new" summarize $flag "$f" >"$tmp/b" 2>"$tmp/be"; rb=$?
    if [ $ra != $rb ] || ! cmp -s "$tmp/a" "$tmp/b" || ! cmp -s "$tmp/ae" "$tmp/be"; then
      bad=$((bad + 1))
      echo "DIFF ($ra/$rb) $flag $f"
      [ $bad -le 3 ] && diff <(tr ',' '\n' <"$tmp/a") <(tr ',' '\n' <"$tmp/b") | head -10
    fi
  done
done < <(find "$dir" -type f \( -name '*.json' -o -name '*.json.gz' \) -print0 | sort -z)
echo "summary_diff: $n runs, $bad differ"
[ $bad = 0 ]
