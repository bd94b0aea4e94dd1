# The two commands of the README, and the checks CI runs.
#
#   make demo           install what is missing, build, run the demo
#   make test           install, build with -Werror, run the suite (so a
#                       failure shows at once; the other three builds are
#                       made meanwhile), fuzz briefly (clang), then
#                       the suite under ASan+UBSan and the in-process tests
#                       under valgrind
#   make test-sanitize  the suite under AddressSanitizer + UBSan only
#   make test-valgrind  the in-process tests under valgrind (leaks are errors)
#   make fuzz-smoke     each libFuzzer target for FUZZ_SECONDS seconds
#   make bench          benchmarks (never pass/fail)
#   make install        cmake --install (PREFIX=/usr/local)

BUILD   ?= build
JOBS    ?= $(shell nproc 2>/dev/null || echo 2)
PREFIX  ?= /usr/local
FUZZ_SECONDS ?= 5
CMAKE_FLAGS ?=
ASAN_FLAGS = -DTOKIO_WERROR=ON -DTOKIO_SANITIZE=ON -DCMAKE_BUILD_TYPE=Debug $(CMAKE_FLAGS)
VALGRIND_FLAGS = -DTOKIO_WERROR=ON -DTOKIO_VALGRIND=ON -DCMAKE_BUILD_TYPE=Debug $(CMAKE_FLAGS)
FUZZ_FLAGS = -DTOKIO_FUZZ=ON -DTOKIO_TESTS=OFF -DCMAKE_BUILD_TYPE=RelWithDebInfo $(CMAKE_FLAGS)

.PHONY: all deps build demo test test-only test-trees test-sanitize test-valgrind \
        fuzz-smoke bench install clean

all: build

deps:
	@./scripts/install-deps.sh

build: deps
	cmake -S . -B $(BUILD) -DTOKIO_WERROR=ON -DCMAKE_INSTALL_PREFIX=$(PREFIX) $(CMAKE_FLAGS)
	cmake --build $(BUILD) -j$(JOBS)

demo: build
	./scripts/demo.sh $(BUILD)/tokio

# The plain suite keeps the cores busy only about half the time (its
# tests wait on the commands they run: 114 CPU s in 99 s on 2 cores), so
# the three other builds run meanwhile at the lowest priority (their log
# in $(BUILD)/trees.log); a plain failure stops them.  The sanitizer and
# valgrind suites then run one after the other, each at -j$(JOBS): side
# by side, each at -j1, they were slower on the shared 2-core VM (920 s,
# against 304 + 441 s; both pass), the first one's waits no longer
# filling idle cores.
test: build
	@setsid -w nice -n 19 $(MAKE) --no-print-directory test-trees \
	     >$(BUILD)/trees.log 2>&1 & trees=$$!; \
	 $(MAKE) --no-print-directory test-only || { \
	     kill -- -$$trees 2>/dev/null; wait $$trees; exit 1; }; \
	 echo "waiting for the sanitizer, valgrind and fuzzing builds"; \
	 wait $$trees || { tail -n 40 $(BUILD)/trees.log; exit 1; }
	@if command -v clang >/dev/null 2>&1; then $(MAKE) --no-print-directory fuzz-smoke; \
	 else echo "clang not found: fuzz targets not run"; fi
	$(MAKE) --no-print-directory test-sanitize
	$(MAKE) --no-print-directory test-valgrind

# the builds of test-sanitize, test-valgrind and fuzz-smoke, one after the
# other (each at -j$(JOBS))
test-trees: deps
	cmake -S . -B $(BUILD)-asan $(ASAN_FLAGS)
	cmake --build $(BUILD)-asan -j$(JOBS)
	cmake -S . -B $(BUILD)-valgrind $(VALGRIND_FLAGS)
	cmake --build $(BUILD)-valgrind -j$(JOBS)
	@if command -v clang >/dev/null 2>&1; then \
	 CC=clang cmake -S . -B $(BUILD)-fuzz $(FUZZ_FLAGS) && \
	 cmake --build $(BUILD)-fuzz -j$(JOBS); fi

test-only:
	cd $(BUILD) && ctest --output-on-failure -j$(JOBS)

# the sanitizers' options are the tests' environment (tests/CMakeLists.txt)
test-sanitize: deps
	cmake -S . -B $(BUILD)-asan $(ASAN_FLAGS)
	cmake --build $(BUILD)-asan -j$(JOBS)
	cd $(BUILD)-asan && ctest --output-on-failure -j$(JOBS)

# Debug, not the plain optimized build: valgrind's time here is in SQLite,
# HDF5, jansson and libc, so -O2 saved nothing (508 CPU s vs 488 for the
# 85 tests), and it made fork children of two tests report pointers held
# only in registers as lost.
test-valgrind: deps
	cmake -S . -B $(BUILD)-valgrind $(VALGRIND_FLAGS)
	cmake --build $(BUILD)-valgrind -j$(JOBS)
	cd $(BUILD)-valgrind && ctest --output-on-failure -j$(JOBS)

fuzz-smoke: deps
	CC=clang cmake -S . -B $(BUILD)-fuzz $(FUZZ_FLAGS)
	cmake --build $(BUILD)-fuzz -j$(JOBS)
	./scripts/fuzz-smoke.sh $(BUILD)-fuzz $(FUZZ_SECONDS)

bench: build
	./bench/run.sh $(BUILD)

install: build
	cmake --install $(BUILD)

clean:
	rm -rf $(BUILD) $(BUILD)-asan $(BUILD)-valgrind $(BUILD)-fuzz
