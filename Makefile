# Linnet: two commands on a fresh machine, `make demo` and `make test`.
SHELL := /bin/bash
SWIFT ?= swift
APT_PACKAGES := libcurl4-openssl-dev libssl-dev libncurses-dev pkg-config tmux python3-venv
export LANG := C.UTF-8

.PHONY: all deps build test demo bench clean

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

build: deps
	$(SWIFT) build

test: deps
	$(SWIFT) test --disable-xctest

demo: deps
	$(SWIFT) build --product linnet
	@echo "demo: the simulator and the TUI are not built yet; linnet so far:"
	@.build/debug/linnet --version

bench: deps
	$(SWIFT) build -c release --product DecodeBench
	.build/release/DecodeBench

clean:
	rm -rf .build
