#!/usr/bin/env bash
# Runs every test suite in order and prints one closing line. Called by `make test` (after the
# native, ASan and wasm builds and the site are built).
set -uo pipefail
cd "$(dirname "$0")/.."
export NODE_PATH=/usr/share/nodejs
failed=0
passed=0
run() {
  local name=$1; shift
  echo "== $name"
  if "$@"; then passed=$((passed + 1)); else echo "!! $name FAILED"; failed=$((failed + 1)); fi
}
# esbuild bundles without checking types: the whole web/ tree is type-checked first.
run "web type check (tsc --noEmit)" node_modules/.bin/tsc --noEmit -p tsconfig.json
run "core unit + golden tests (doctest, native)" build/native/tw_tests --no-intro=true
run "core tests under ASan + UBSan" env ASAN_OPTIONS=detect_leaks=1 build/asan/tw_tests --no-intro=true
shopt -s nullglob
node_tests=(tests/cli/*.test.mjs tests/golden/*.test.mjs tests/wasm/*.test.mjs tests/web/*.test.mjs)
if [ ${#node_tests[@]} -gt 0 ]; then run "node tests (CLI, golden, wasm, web)" node --test --test-concurrency=1 "${node_tests[@]}"; fi
e2e_tests=(tests/e2e/*.test.mjs)
if [ ${#e2e_tests[@]} -gt 0 ]; then run "browser tests (Playwright + Chromium)" node --test --test-concurrency=1 "${e2e_tests[@]}"; fi
echo "suites: $passed passed, $failed failed"
[ "$failed" -eq 0 ]
