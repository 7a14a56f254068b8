# tracewise: the single entry point. `make run` builds and serves the app; `make test` runs every
# test suite. Both install what is missing (apt, npm) and rebuild only what is stale.
SHELL := /bin/bash
.DEFAULT_GOAL := build
.PHONY: run test test-corpus build deps native asan wasm site bench fuzz format format-check clean

APT_PACKAGES := cmake ninja-build g++ emscripten binaryen nlohmann-json3-dev doctest-dev zlib1g-dev chromium time python3-distributed \
  clang-format
PORT ?= 8000
export NODE_PATH := /usr/share/nodejs
EMCMAKE_FLAGS := -DCMAKE_CROSSCOMPILING_EMULATOR="/usr/bin/node;--no-experimental-fetch" \
  -DCMAKE_CXX_LINKER_LAUNCHER="env;NODE_PATH=/usr/share/nodejs" -DTW_MARCH=

CORE_SOURCES := $(shell find core cli wasm -name '*.cc' -o -name '*.h' 2>/dev/null) CMakeLists.txt
WEB_SOURCES := $(shell find web public -type f 2>/dev/null)
# Every C++ source of the project (simdjson comes from node_modules, nothing is vendored here).
CXX_FORMAT_SOURCES := $(shell find core cli wasm tests bench \( -name '*.h' -o -name '*.cc' -o -name '*.cpp' \) 2>/dev/null)

# --- dependencies ----------------------------------------------------------------------------
build/.apt-ok: Makefile
	@mkdir -p build
	@missing=$$(for p in $(APT_PACKAGES); do dpkg -s $$p >/dev/null 2>&1 || echo $$p; done; \
	  command -v node >/dev/null || echo nodejs; command -v npm >/dev/null || echo npm); \
	if [ -n "$$missing" ]; then \
	  echo "Installing Debian packages:" $$missing; \
	  apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq $$missing >/dev/null; \
	fi
	@touch $@

node_modules/.package-lock.json: package.json package-lock.json build/.apt-ok
	npm ci --no-audit --no-fund --loglevel=error
	@touch $@

deps: build/.apt-ok node_modules/.package-lock.json

# --- native: core library, CLI, doctest tests ----------------------------------------------------
build/native/build.ninja: CMakeLists.txt | deps
	cmake -S . -B build/native -G Ninja -DCMAKE_BUILD_TYPE=Release >/dev/null

native: deps build/native/build.ninja
	@ninja -C build/native --quiet tracewise tw_tests tw_craft_job tw_craft_diff

build/asan/build.ninja: CMakeLists.txt | deps
	cmake -S . -B build/asan -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo -DTW_SANITIZE=ON >/dev/null

asan: deps build/asan/build.ninja
	@ninja -C build/asan --quiet tw_tests tracewise

# --- wasm: core + Embind bindings ------------------------------------------------------------------
build/wasm/build.ninja: CMakeLists.txt | deps
	emcmake cmake -S . -B build/wasm -G Ninja -DCMAKE_BUILD_TYPE=Release $(EMCMAKE_FLAGS) >/dev/null

wasm: deps build/wasm/build.ninja
	@ninja -C build/wasm --quiet tracewise_wasm

# --- site: static files in build/site ------------------------------------------------------------
site: wasm
	@node web/build.mjs

build: native wasm site

# --- the two commands --------------------------------------------------------------------------------
run: build
	@echo "tracewise: serving build/site on http://127.0.0.1:$(PORT)/ (Ctrl-C stops)"
	@node web/serve.mjs build/site $(PORT)

test: build asan
	@bash tests/run_all.sh

# The corpus-wide tests (every trace of a MANIFEST.tsv: import counts, parts, decoders, detail
# sections, HTA reference numbers, wasm = native) over another corpus laid out like tests/data.
test-corpus: build
	@test -f "$(TRACES)/MANIFEST.tsv" || { echo "usage: make test-corpus TRACES=DIR (DIR/MANIFEST.tsv as in tests/data)" >&2; exit 2; }
	TW_TEST_DATA="$(abspath $(TRACES))" build/native/tw_tests --no-intro=true --test-suite=corpus
	TW_TEST_DATA="$(abspath $(TRACES))" node --test tests/wasm/summary_parity.test.mjs

bench: native wasm
	@ninja -C build/native --quiet tw_heap_phases tw_timeline_query
	@bash bench/run.sh

# The libFuzzer harness of the importer (bench/fuzz/README.md): its own clang build in build/fuzz,
# seeded from tests/data, FUZZ_RUNS executions in all (bench/fuzz/run.sh lists the other knobs).
# Not part of `make test`: it runs for a long while.
# FUZZ_SANITIZE=undefined drops ASan for long runs (several times the executions per second), each
# in its own build directory.
FUZZ_RUNS ?= 10000000
FUZZ_SANITIZE ?= address,undefined
comma := ,
FUZZ_BUILD := build/fuzz$(if $(filter address%,$(FUZZ_SANITIZE)),,-$(subst $(comma),-,$(FUZZ_SANITIZE)))
$(FUZZ_BUILD)/build.ninja: CMakeLists.txt | deps
	@dpkg -s clang >/dev/null 2>&1 || { apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq clang >/dev/null; }
	cmake -S . -B $(FUZZ_BUILD) -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo -DCMAKE_CXX_COMPILER=clang++ -DTW_FUZZ=ON \
	  -DTW_FUZZ_SANITIZERS=$(FUZZ_SANITIZE) >/dev/null

fuzz: deps $(FUZZ_BUILD)/build.ninja
	@ninja -C $(FUZZ_BUILD) -j2 --quiet import_fuzzer
	@FUZZ_RUNS=$(FUZZ_RUNS) FUZZ_DIR=$(FUZZ_BUILD) bash bench/fuzz/run.sh

# Layout: C++ by .clang-format (Debian's clang-format 14), TypeScript and JavaScript by prettier
# (.prettierrc.json). `format` rewrites both; `format-check` (a suite of `make test`) lists the C++
# files that drift and fails (tests/repo/format.test.mjs checks prettier's).
format: build/.apt-ok node_modules/.package-lock.json
	@clang-format -i $(CXX_FORMAT_SOURCES)
	@node_modules/.bin/prettier --write --log-level warn 'web/**/*.{ts,mjs}' 'tests/**/*.mjs' 'bench/*.mjs'

format-check: build/.apt-ok
	@clang-format --dry-run --Werror $(CXX_FORMAT_SOURCES)

clean:
	rm -rf build
