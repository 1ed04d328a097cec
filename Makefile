# Linnet: two commands on a fresh machine, `make demo` and `make test`.
SHELL := /bin/bash
SWIFT ?= swift
APT_PACKAGES := libcurl4-openssl-dev libssl-dev libncurses-dev libre2-dev pkg-config tmux python3-venv
export LANG := C.UTF-8
VENV := .venv
# Real third-party clients the simulator must satisfy, and the test runner for them.
PY_PACKAGES := tweepy==4.17.0 requests-oauthlib==2.0.0 oauthlib==3.3.1 pytest==9.2.0 openapi-schema-validator==0.8.1 \
	schemathesis==4.32.5 openapi-core==0.23.1

.PHONY: all deps bench-deps venv build test demo bench lint format fuzz sanitize soak soak-memory clean

all: build

# Installs only the Debian packages that are missing.
deps:
	@missing=""; \
	for p in $(APT_PACKAGES); do \
	  dpkg -s $$p >/dev/null 2>&1 || missing="$$missing $$p"; \
	done; \
	if [ -z "$$missing" ]; then echo "deps: all present ($(APT_PACKAGES))"; exit 0; fi; \
	echo "deps: installing$$missing"; \
	if [ "$$(id -u)" = 0 ]; then \
	  apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq $$missing; \
	elif command -v sudo >/dev/null 2>&1; then \
	  sudo apt-get update -qq && sudo DEBIAN_FRONTEND=noninteractive apt-get install -y -qq $$missing; \
	else \
	  echo "deps: missing packages and no root or sudo. Run as root:"; \
	  echo "  apt-get update && apt-get install -y$$missing"; exit 1; \
	fi

# The Python virtual environment, made once (its stamp names the packages).
venv: $(VENV)/.ready

$(VENV)/.ready: Makefile
	python3 -m venv $(VENV)
	$(VENV)/bin/pip install -q --disable-pip-version-check $(PY_PACKAGES)
	touch $@

build: deps
	$(SWIFT) build

test: deps venv
	$(SWIFT) build --product linnet
	Tests/run-swift-tests $(SWIFT) test --disable-xctest
	$(VENV)/bin/python -m pytest -q Tests/python

# The TUI on a simulated Twitter started in the same process, with live tweets.
demo: deps
	$(SWIFT) build --product linnet
	.build/debug/linnet demo

# The benchmarks also count instructions with valgrind (on a copy objcopy strips of DWARF).
bench-deps:
	@$(MAKE) --no-print-directory deps APT_PACKAGES="$(APT_PACKAGES) valgrind binutils"

bench: bench-deps
	$(SWIFT) build -c release --product DecodeBench
	$(SWIFT) build -c release --product SimLoadBench
	$(SWIFT) build -c release --product StoreBench
	$(SWIFT) build -c release --product TUIBench
	$(SWIFT) build -c release --product TextBench
	$(SWIFT) build -c release --product CostBench
	$(SWIFT) build -c release --product linnet
	.build/release/DecodeBench
	.build/release/SimLoadBench .build/release/linnet
	.build/release/StoreBench
	.build/release/TUIBench
	.build/release/TextBench
	.build/release/CostBench

# The formatter in the toolchain, with the checked-in .swift-format; lint fails on any finding.
LINT_PATHS := Sources Tests Benchmarks Package.swift
lint:
	$(SWIFT) format lint --strict --recursive $(LINT_PATHS)

format:
	$(SWIFT) format format --in-place --recursive $(LINT_PATHS)

# libFuzzer (with AddressSanitizer; linked with lld, which gold cannot do here) on every
# harness in Sources/FuzzHarnesses, seeded from Tests/Fuzz; not part of make test, which
# replays the corpus. FUZZ_RUNS per harness, or
# FUZZ_SECONDS each, whichever ends first. A crash input is written to .build-fuzz/crashes.
FUZZ_RUNS ?= 1000000
FUZZ_SECONDS ?= 600
FUZZ_HARNESSES := framer json text toml cache oauth keys listener v2join address secret
fuzz: deps
	$(SWIFT) build --product LinnetFuzz --scratch-path .build-fuzz -Xswiftc -sanitize=fuzzer,address -Xswiftc -DFUZZING \
	  -Xswiftc -Xclang-linker -Xswiftc -fuse-ld=lld
	@mkdir -p .build-fuzz/crashes; failed=0; \
	for h in $(FUZZ_HARNESSES); do \
	  mkdir -p .build-fuzz/corpus/$$h; \
	  ASAN_OPTIONS=detect_leaks=1 SWIFT_BACKTRACE=enable=no LINNET_FUZZ=$$h .build-fuzz/debug/LinnetFuzz -detect_leaks=1 .build-fuzz/corpus/$$h Tests/Fuzz/$$h \
	    -runs=$(FUZZ_RUNS) -max_total_time=$(FUZZ_SECONDS) -max_len=65536 -timeout=10 -rss_limit_mb=2048 \
	    -artifact_prefix=.build-fuzz/crashes/$$h- -print_final_stats=1 > .build-fuzz/$$h.log 2>&1; rc=$$?; \
	  execs=$$(sed -n 's/^stat::number_of_executed_units: *//p' .build-fuzz/$$h.log); \
	  echo "bench: fuzz_$${h}_execs $${execs:-0} execs"; \
	  if [ $$rc != 0 ]; then failed=$$((failed+1)); echo "fuzz: $$h failed (exit $$rc), see .build-fuzz/$$h.log"; fi; \
	done; \
	echo "bench: fuzz_crashes $$failed harnesses"; [ $$failed = 0 ]

# The sync soak SOAK_ROUNDS times, each with a new seed (printed), while one busy loop per core
# keeps the machine loaded; a failing round names its seed (LINNET_SOAK_SEED reruns it).
SOAK_ROUNDS ?= 20
soak: deps
	$(SWIFT) build --build-tests
	@busy=""; for c in $$(seq $$(nproc)); do (while :; do :; done) & busy="$$busy $$!"; done; \
	failed=0; \
	for r in $$(seq $(SOAK_ROUNDS)); do \
	  seed=$$(od -An -N4 -tu4 /dev/urandom | tr -d ' '); \
	  if LINNET_SOAK_SEED=$$seed $(SWIFT) test --skip-build --disable-xctest --filter SoakTests > .build/soak-$$r.log 2>&1; then \
	    echo "soak: round $$r seed $$seed passed: $$(grep -o 'soak: [0-9]* tweets.*' .build/soak-$$r.log)"; \
	  else failed=$$((failed+1)); echo "soak: round $$r seed $$seed FAILED, see .build/soak-$$r.log"; fi; \
	done; \
	kill $$busy; echo "bench: soak_failures $$failed of $(SOAK_ROUNDS) rounds"; [ $$failed = 0 ]

# Memory over time: SOAK_TWEETS new tweets (1,000,000) from the simulator's firehose at
# SOAK_RATE a second (5,000) through libcurl, the framer and the decoder into a capped store,
# resident memory sampled every 10 s; the end must be within 10% of where it levelled off.
soak-memory: deps
	$(SWIFT) build -c release --product linnet
	$(SWIFT) build -c release --product SimLoadBench
	.build/release/SimLoadBench .build/release/linnet --soak

# The Swift tests under ThreadSanitizer (suppressions explained in DECISIONS.md), then under
# AddressSanitizer (leak checks off: see DECISIONS.md).
sanitize: deps venv
	$(SWIFT) build --product linnet
	$(SWIFT) build --build-tests --sanitize=thread --scratch-path .build-tsan
	TSAN_OPTIONS="suppressions=$(CURDIR)/Tests/sanitizers/tsan.supp halt_on_error=1" \
	  Tests/run-swift-tests $(SWIFT) test --skip-build --disable-xctest --sanitize=thread --scratch-path .build-tsan
	$(SWIFT) build --build-tests --sanitize=address --scratch-path .build-asan -Xswiftc -Xclang-linker -Xswiftc -fuse-ld=lld
	ASAN_OPTIONS="detect_leaks=0 halt_on_error=1" SWIFT_BACKTRACE=enable=no \
	  Tests/run-swift-tests $(SWIFT) test --skip-build --disable-xctest --sanitize=address --scratch-path .build-asan

clean:
	rm -rf .build $(VENV)
