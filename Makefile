# Linnet: two commands on a fresh machine, `make demo` and `make test`.
SHELL := /bin/bash
SWIFT ?= swift
APT_PACKAGES := libcurl4-openssl-dev libssl-dev libncurses-dev pkg-config tmux python3-venv
export LANG := C.UTF-8
VENV := .venv
# Real third-party clients the simulator must satisfy, and the test runner for them.
PY_PACKAGES := tweepy==4.17.0 requests-oauthlib==2.0.0 oauthlib==3.3.1 pytest==9.2.0

.PHONY: all deps venv build test demo bench lint format clean

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

bench: deps
	$(SWIFT) build -c release --product DecodeBench
	$(SWIFT) build -c release --product SimLoadBench
	$(SWIFT) build -c release --product StoreBench
	$(SWIFT) build -c release --product TUIBench
	$(SWIFT) build -c release --product TextBench
	$(SWIFT) build -c release --product linnet
	.build/release/DecodeBench
	.build/release/SimLoadBench .build/release/linnet
	.build/release/StoreBench
	.build/release/TUIBench
	.build/release/TextBench

# The formatter in the toolchain, with the checked-in .swift-format; lint fails on any finding.
LINT_PATHS := Sources Tests Benchmarks Package.swift
lint:
	$(SWIFT) format lint --strict --recursive $(LINT_PATHS)

format:
	$(SWIFT) format format --in-place --recursive $(LINT_PATHS)

clean:
	rm -rf .build $(VENV)
