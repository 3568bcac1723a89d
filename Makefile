# Thin wrapper over CMake. The two commands: `make demo` and `make test`.
MAKEFLAGS += --no-print-directory
JOBS ?= $(shell nproc 2>/dev/null || echo 2)
RELEASE_DIR := build/release
ASAN_DIR := build/asan
FUZZ_DIR := build/fuzz
TSAN_DIR := build/tsan
# The tests `make tsan` builds and runs under ThreadSanitizer: the threads
# suite and a few that read and write with the default thread count (one
# per core). test_encrypted_write is the slowest under TSan (about 9 minutes
# on a shared 2-core machine), there for its key-wipe check.
TSAN_TESTS ?= test_threads test_roundtrip test_arrow_export test_memory_limit test_readahead test_readahead_text test_dataset test_encrypted_write
empty :=
space := $(empty) $(empty)
PREFIX ?= /usr/local
FUZZ_SECONDS ?= 30

.PHONY: all deps release build-release demo test tsan fuzz fuzz-smoke valgrind lint coverage check-layers install docs clean

all: release

deps:
	@bash scripts/install-deps.sh

release: deps
	@$(MAKE) build-release

# The Release build alone (no package manager call; `make deps` first if the
# configure step reports a missing library).
build-release:
	@cmake -S . -B $(RELEASE_DIR) -DCMAKE_BUILD_TYPE=Release -DCMAKE_INSTALL_PREFIX=$(PREFIX) >/dev/null
	@cmake --build $(RELEASE_DIR) -j $(JOBS)

demo: release
	@bash scripts/demo.sh $(RELEASE_DIR)/parquetry

# The fuzz smoke runs (every libFuzzer target for FUZZ_SECONDS, default 30)
# and the valgrind check (about 30 s) come first so that ctest's summary is
# the last thing printed.
test: deps
	@cmake -S . -B $(ASAN_DIR) -DCMAKE_BUILD_TYPE=Debug -DPQT_SANITIZE=ON -DPQT_WERROR=ON >/dev/null
	@cmake --build $(ASAN_DIR) -j $(JOBS)
	@bash scripts/fuzz-smoke.sh $(FUZZ_SECONDS)
	@JOBS=$(JOBS) bash scripts/valgrind-check.sh
	@cd $(ASAN_DIR) && ctest --output-on-failure -j $(JOBS)

# ThreadSanitizer build (build/tsan) and the TSAN_TESTS subset under it;
# fails on any data race report.
tsan:
	@cmake -S . -B $(TSAN_DIR) -DCMAKE_BUILD_TYPE=Debug -DPQT_TSAN=ON -DPQT_WERROR=ON >/dev/null
	@cmake --build $(TSAN_DIR) -j $(JOBS) --target $(TSAN_TESTS)
	@cd $(TSAN_DIR) && TSAN_OPTIONS="halt_on_error=1 second_deadlock_stack=1 $(TSAN_OPTIONS)" \
		ctest --output-on-failure -j $(JOBS) -R '^($(subst $(space),|,$(strip $(TSAN_TESTS))))$$'

fuzz: deps
	@CC=clang cmake -S . -B $(FUZZ_DIR) -DCMAKE_BUILD_TYPE=RelWithDebInfo -DPQT_FUZZ=ON -DPQT_BUILD_TESTS=OFF >/dev/null
	@cmake --build $(FUZZ_DIR) -j $(JOBS)

# Every fuzz target for FUZZ_SECONDS on its seed corpus; fails on a finding.
fuzz-smoke:
	@bash scripts/fuzz-smoke.sh $(FUZZ_SECONDS)

# The conformance tests under valgrind's memcheck, in a plain Debug build
# (build/valgrind, no sanitizers); fails on any invalid access or leak.
valgrind: deps
	@JOBS=$(JOBS) bash scripts/valgrind-check.sh

# clang-tidy and cppcheck over src/ and cli/: zero findings, or justified inline.
lint:
	@JOBS=$(JOBS) bash scripts/lint.sh

# Line and branch coverage of every test (gcovr; report in build/coverage/html/).
coverage: deps
	@JOBS=$(JOBS) bash scripts/coverage.sh

# Includes point down the layers of ARCHITECTURE.md only.
check-layers:
	@bash tools/check_layers.sh

# Builds if needed, then copies into $(DESTDIR)$(PREFIX): never installs packages.
install: build-release
	@DESTDIR="$(DESTDIR)" cmake --install $(RELEASE_DIR) --prefix $(PREFIX)

# The generated pages of docs/: the API reference from include/*.h and the
# CLI reference from the help text (the man page's source); the test
# cli_test_docs_current fails when they are stale.
docs: build-release
	@bash tools/gen_api_docs.sh > docs/api.md
	@cmake --build $(RELEASE_DIR) --target parquetry_cli_docs >/dev/null
	@cp $(RELEASE_DIR)/cli-docs/cli.md docs/cli.md
	@echo "docs/api.md and docs/cli.md regenerated"

clean:
	rm -rf build
