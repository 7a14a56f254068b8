#!/usr/bin/env bash
# Runs every test suite in order and prints one closing line. Called by `make test` (after the
# native, ASan and wasm builds and the site are built).
set -uo pipefail
cd "$(dirname "$0")/.."
export NODE_PATH=/usr/share/nodejs
failed=0
passed=0
# Each suite's wall time is printed after it: `make test` has a time budget (README), and this says
# where it goes.
run() {
  local name=$1 start=$SECONDS; shift
  echo "== $name"
  if "$@"; then passed=$((passed + 1)); else echo "!! $name FAILED"; failed=$((failed + 1)); fi
  echo "-- $name: $((SECONDS - start)) s"
}
# esbuild bundles without checking types: the whole web/ tree is type-checked first.
run "web type check (tsc --noEmit)" node_modules/.bin/tsc --noEmit -p tsconfig.json
run "C++ layout (make format-check: clang-format --dry-run)" make --no-print-directory format-check
run "core unit + golden tests (doctest, native)" build/native/tw_tests --no-intro=true
run "core tests under ASan + UBSan" env ASAN_OPTIONS=detect_leaks=1 build/asan/tw_tests --no-intro=true
# No nullglob: a suite whose files are gone fails (node cannot find the pattern) instead of passing empty.
node_tests=(tests/repo/*.test.mjs tests/cli/*.test.mjs tests/golden/*.test.mjs tests/wasm/*.test.mjs tests/web/*.test.mjs)
e2e_tests=(tests/e2e/*.test.mjs)
run "node tests (repository, CLI, golden, wasm, web)" node --test --test-concurrency=1 "${node_tests[@]}"
# Debian's interpreter by path: python3-distributed is installed for it, and a python3 found first on
# PATH (pyenv, a virtualenv) would not see it. Tornado's deprecation warnings are Dask's, not ours.
run "Dask driver (cluster/ on a LocalCluster of 2 workers)" env PYTHONWARNINGS=ignore::DeprecationWarning \
  /usr/bin/python3 -m unittest discover -s tests/cluster
run "browser tests (Playwright + Chromium)" node --test --test-concurrency=1 "${e2e_tests[@]}"
echo "suites: $passed passed, $failed failed"
[ "$failed" -eq 0 ]
