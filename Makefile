# The two commands of the README, and the checks CI runs.
#
#   make demo           install what is missing, build, run the demo
#   make test           install, build with -Werror, run the suite (so a
#                       failure shows at once), fuzz briefly (clang), then
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

.PHONY: all deps build demo test test-only test-sanitize test-valgrind \
        fuzz-smoke bench install clean

all: build

deps:
	@./scripts/install-deps.sh

build: deps
	cmake -S . -B $(BUILD) -DTOKIO_WERROR=ON -DCMAKE_INSTALL_PREFIX=$(PREFIX) $(CMAKE_FLAGS)
	cmake --build $(BUILD) -j$(JOBS)

demo: build
	./scripts/demo.sh $(BUILD)/tokio

test: build
	$(MAKE) --no-print-directory test-only
	@if command -v clang >/dev/null 2>&1; then $(MAKE) --no-print-directory fuzz-smoke; \
	 else echo "clang not found: fuzz targets not run"; fi
	$(MAKE) --no-print-directory test-sanitize
	$(MAKE) --no-print-directory test-valgrind

test-only:
	cd $(BUILD) && ctest --output-on-failure -j$(JOBS)

# the sanitizers' options are the tests' environment (tests/CMakeLists.txt)
test-sanitize: deps
	cmake -S . -B $(BUILD)-asan -DTOKIO_WERROR=ON -DTOKIO_SANITIZE=ON -DCMAKE_BUILD_TYPE=Debug $(CMAKE_FLAGS)
	cmake --build $(BUILD)-asan -j$(JOBS)
	cd $(BUILD)-asan && ctest --output-on-failure -j$(JOBS)

test-valgrind: deps
	cmake -S . -B $(BUILD)-valgrind -DTOKIO_WERROR=ON -DTOKIO_VALGRIND=ON -DCMAKE_BUILD_TYPE=Debug $(CMAKE_FLAGS)
	cmake --build $(BUILD)-valgrind -j$(JOBS)
	cd $(BUILD)-valgrind && ctest --output-on-failure -j$(JOBS)

fuzz-smoke: deps
	CC=clang cmake -S . -B $(BUILD)-fuzz -DTOKIO_FUZZ=ON -DTOKIO_TESTS=OFF -DCMAKE_BUILD_TYPE=RelWithDebInfo $(CMAKE_FLAGS)
	cmake --build $(BUILD)-fuzz -j$(JOBS)
	./scripts/fuzz-smoke.sh $(BUILD)-fuzz $(FUZZ_SECONDS)

bench: build
	./bench/run.sh $(BUILD)

install: build
	cmake --install $(BUILD)

clean:
	rm -rf $(BUILD) $(BUILD)-asan $(BUILD)-valgrind $(BUILD)-fuzz
