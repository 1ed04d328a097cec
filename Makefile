# Linnet: two commands on a fresh machine, `make demo` and `make test`.
SHELL := /bin/bash
SWIFT ?= swift
APT_PACKAGES := libcurl4-openssl-dev libssl-dev libncurses-dev libre2-dev libyaml-dev pkg-config tmux python3-venv groff-base \
	libchafa-dev libglib2.0-dev libjpeg62-turbo-dev libpng-dev libwebp-dev libgif-dev
# What the tests in real terminals need: xterm and kitty under Xvfb, screenshots, the chafa command.
TEST_APT_PACKAGES := xvfb xterm kitty imagemagick xdotool chafa fonts-noto-color-emoji
export LANG := C.UTF-8
VENV := .venv
# Real third-party clients the simulator must satisfy, and the test runner for them.
PY_PACKAGES := tweepy==4.17.0 requests-oauthlib==2.0.0 oauthlib==3.3.1 pytest==9.2.0 openapi-schema-validator==0.8.1 \
	schemathesis==4.32.5 openapi-core==0.23.1

.PHONY: all deps test-deps bench-deps venv build test test-terminals demo bench hot-order lint format fuzz sanitize soak soak-memory clean \
	release install uninstall deb dist-deps dist-check

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

test: test-deps venv
	$(SWIFT) build --product linnet
	Tests/run-swift-tests $(SWIFT) test --disable-xctest
	d=$$(mktemp -d /tmp/linnet-pytest.XXXXXX) && $(VENV)/bin/python -m pytest -q -p no:cacheprovider --basetemp="$$d/t" Tests/python; \
	  rc=$$?; rm -rf "$$d"; exit $$rc

# Only the tests that run real terminals: xterm and kitty under Xvfb, tmux, pseudo-terminals
# (about a minute and a half; `make test` runs them too).
TERMINAL_TESTS := Tests/python/test_real_terminals.py Tests/python/test_terminal_layout.py \
	Tests/python/test_picture_protocols.py Tests/python/test_width_remeasure.py
test-terminals: test-deps venv
	$(SWIFT) build --product linnet
	d=$$(mktemp -d /tmp/linnet-pytest.XXXXXX) && $(VENV)/bin/python -m pytest -q -p no:cacheprovider --basetemp="$$d/t" \
	  $(TERMINAL_TESTS); rc=$$?; rm -rf "$$d"; exit $$rc

# The TUI on a simulated Twitter started in the same process, with live tweets.
demo: deps
	$(SWIFT) build --product linnet
	.build/debug/linnet demo

test-deps:
	@$(MAKE) --no-print-directory deps APT_PACKAGES="$(APT_PACKAGES) $(TEST_APT_PACKAGES)"

# The benchmarks also count instructions with valgrind (on a copy objcopy strips of DWARF),
# and read Linnet against less on pseudo-terminals, locally and over ssh (an sshd of their own
# on loopback). openssh-server is installed only where no systemd runs (a container, CI): on a
# desktop its package would start sshd on port 22 for good; install it yourself there.
BENCH_SSHD := $(shell [ -d /run/systemd/system ] || echo openssh-server)
bench-deps:
	@$(MAKE) --no-print-directory deps APT_PACKAGES="$(APT_PACKAGES) valgrind binutils chafa less openssh-client $(BENCH_SSHD)"

# What ships: Swift's libraries inside, bound at load; none of its own symbols exported (the
# static stdlib's link arguments export 8,600, which every lookup at load goes through); concrete
# generic types reached by their accessors rather than by mangled names, which the runtime would
# decode and check against every conformance record at first use (DECISIONS.md, 2026-11-27).
# Linked by lld, each function in a section of its own, those a key runs laid out together in
# the order HOT_ORDER lists (`make hot-order` writes it again): a key after a pause reads its
# code from a third of the pages (DECISIONS.md, 2026-11-29). A name no longer there is skipped.
HOT_ORDER := Sources/linnet/hot-order.txt
RELEASE_BUILD := -c release --static-swift-stdlib --disable-local-rpath -Xlinker -z -Xlinker now \
	-Xlinker --no-export-dynamic -Xswiftc -Xfrontend -Xswiftc -disable-concrete-type-metadata-mangled-name-accessors \
	-Xswiftc -use-ld=lld -Xswiftc -Xfrontend -Xswiftc -function-sections \
	$(if $(wildcard $(HOT_ORDER)),-Xlinker --symbol-ordering-file=$(CURDIR)/$(HOT_ORDER) -Xlinker --no-warn-symbol-ordering)
# Built as `make release` builds what ships, all products alike so modules compile once; only
# the commit's name is left out, which would compile every module again for each commit.
BENCH_BUILD := $(RELEASE_BUILD)
bench: bench-deps
	$(SWIFT) build $(BENCH_BUILD) --product DecodeBench
	$(SWIFT) build $(BENCH_BUILD) --product SimLoadBench
	$(SWIFT) build $(BENCH_BUILD) --product StoreBench
	$(SWIFT) build $(BENCH_BUILD) --product TUIBench
	$(SWIFT) build $(BENCH_BUILD) --product TextBench
	$(SWIFT) build $(BENCH_BUILD) --product CostBench
	$(SWIFT) build $(BENCH_BUILD) --product PictureBench
	$(SWIFT) build $(BENCH_BUILD) --product linnet
	.build/release/DecodeBench
	.build/release/SimLoadBench .build/release/linnet
	.build/release/StoreBench
	.build/release/TUIBench .build/release/linnet
	.build/release/TextBench
	.build/release/CostBench
	.build/release/PictureBench

# The functions a key runs (counted in `TUIBench --count cold`), for the release link's layout;
# the release programs are linked again with it at their next build (SwiftPM does not watch
# the list).
hot-order: bench-deps
	$(SWIFT) build $(BENCH_BUILD) --product TUIBench
	Benchmarks/HotOrder/hot-order .build/release/TUIBench $(HOT_ORDER)
	rm -f .build/release/linnet .build/release/*Bench

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
	$(SWIFT) build $(BENCH_BUILD) --product linnet
	$(SWIFT) build $(BENCH_BUILD) --product SimLoadBench
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

# --- Release, install and the Debian package -------------------------------------------------
VERSION := $(shell sed -n 's/.*static let string = "\(.*\)"/\1/p' Sources/TwitterAPI/LinnetVersion.swift)
COMMIT := $(shell git rev-parse --short=12 HEAD 2>/dev/null || echo unknown)
# The commit's day, so the same commit makes the same man pages.
COMMIT_DAY := $(shell date -u -d @$$(git log -1 --format=%ct 2>/dev/null || date +%s) +%Y-%m-%d)
DIST := dist
PREFIX ?= /usr/local
DESTDIR ?=
ZSH_COMPLETIONS ?= share/zsh/site-functions

# One binary with the Swift runtime and Foundation inside, stripped, with its man pages and
# completions beside it in dist/ (what install and deb copy).
release: deps
	$(SWIFT) build $(RELEASE_BUILD) --product linnet -Xcc '-DLINNET_COMMIT="$(COMMIT)"'
	$(SWIFT) build --product generate-manual
	rm -rf $(DIST) && mkdir -p $(DIST)/man $(DIST)/completions $(DIST)/generated-man
	strip --strip-unneeded --remove-section=.comment --remove-section=.note -o $(DIST)/linnet .build/release/linnet
	@if ldd $(DIST)/linnet | grep -Ei 'libswift|Foundation|libdispatch|BlocksRuntime'; then \
	  echo "release: dist/linnet links a Swift library"; exit 1; fi
	@if readelf -d $(DIST)/linnet | grep -Ei 'rpath|runpath'; then echo "release: dist/linnet has a library search path"; exit 1; fi
	.build/debug/generate-manual $(DIST)/linnet --multi-page --date $(COMMIT_DAY) --output-directory $(DIST)/generated-man
	$(DIST)/linnet manual-sections > $(DIST)/generated-man/sections.mdoc
	python3 Tools/manpages.py $(DIST)/generated-man $(DIST)/generated-man/sections.mdoc $(DIST)/man
	rm -rf $(DIST)/generated-man
	$(DIST)/linnet --generate-completion-script bash | sed '1{/^#!/d}' > $(DIST)/completions/linnet.bash
	$(DIST)/linnet --generate-completion-script zsh > $(DIST)/completions/_linnet
	$(DIST)/linnet --generate-completion-script fish > $(DIST)/completions/linnet.fish
	@echo "release: $(DIST)/linnet $$($(DIST)/linnet --version), needs: $$(objdump -p $(DIST)/linnet | awk '$$1 == "NEEDED" {print $$2}' | tr '\n' ' ')"
	@awk -v b=$$(stat -c %s $(DIST)/linnet) 'BEGIN { printf "bench: release_binary_mb %.1f MB (goal <= 25: %s)\n", b/1048576, b/1048576 <= 25 ? "met" : "not met" }'

# What install puts where, relative to PREFIX: one line a file, "source target mode".
define INSTALL_FILES
$(DIST)/linnet bin/linnet 755
$(foreach f,$(wildcard $(DIST)/man/*.1),$(f) share/man/man1/$(notdir $(f)) 644
)$(DIST)/completions/linnet.bash share/bash-completion/completions/linnet 644
$(DIST)/completions/_linnet $(ZSH_COMPLETIONS)/_linnet 644
$(DIST)/completions/linnet.fish share/fish/vendor_completions.d/linnet.fish 644
$(foreach f,$(sort $(wildcard Themes/*.toml)),$(f) share/linnet/themes/$(notdir $(f)) 644
)README.md share/doc/linnet/README.md 644
LICENSE share/doc/linnet/LICENSE 644
endef
export INSTALL_FILES

# Copies what release made; run `make release` first (install does not build, so it can run
# as root from a tree a user built).
install:
	@test -x $(DIST)/linnet || { echo "install: no $(DIST)/linnet; run make release first"; exit 1; }
	@echo "$$INSTALL_FILES" | while read -r src dst mode; do \
	  [ -n "$$src" ] || continue; \
	  install -D -m $$mode "$$src" "$(DESTDIR)$(PREFIX)/$$dst" || exit 1; \
	  echo "installed $(DESTDIR)$(PREFIX)/$$dst"; \
	done

# Removes exactly what install put, then the folders of Linnet's own that are left empty.
uninstall:
	@test -d $(DIST)/man || { echo "uninstall: no $(DIST)/man to list the pages by; run make release first"; exit 1; }
	@echo "$$INSTALL_FILES" | while read -r src dst mode; do \
	  [ -n "$$dst" ] || continue; \
	  rm -f "$(DESTDIR)$(PREFIX)/$$dst" && echo "removed $(DESTDIR)$(PREFIX)/$$dst"; \
	done
	@for d in share/linnet/themes share/linnet share/doc/linnet; do rmdir "$(DESTDIR)$(PREFIX)/$$d" 2>/dev/null || true; done

# The .deb, with Debian's own tools: dpkg-shlibdeps for Depends, dpkg-gencontrol for the
# control file, dpkg-deb to build; lintian checks it (in a TMPDIR of its own, removed after:
# it leaves its ELF caches, mldbm-elf-*, there).
DEB_VERSION := $(VERSION)-1
DEB_ARCH := $(shell dpkg --print-architecture)
DEB := $(DIST)/linnet_$(DEB_VERSION)_$(DEB_ARCH).deb
DEB_TREE := .build-deb

dist-deps:
	@$(MAKE) --no-print-directory deps APT_PACKAGES="$(APT_PACKAGES) dpkg-dev fakeroot lintian mmdebstrap bubblewrap zstd binutils"

deb: dist-deps release
	rm -rf $(DEB_TREE) && mkdir -p $(DEB_TREE)/debian
	cp packaging/debian/control packaging/debian/copyright $(DEB_TREE)/debian/
	sed -e 's/@VERSION@/$(DEB_VERSION)/' -e "s/@DATE@/$$(date -u -R -d $(COMMIT_DAY))/" packaging/debian/changelog > $(DEB_TREE)/debian/changelog
	$(MAKE) --no-print-directory install DESTDIR=$(CURDIR)/$(DEB_TREE)/debian/linnet PREFIX=/usr \
	  ZSH_COMPLETIONS=share/zsh/vendor-completions > /dev/null
	cd $(DEB_TREE)/debian/linnet/usr/share && rm doc/linnet/LICENSE && gzip -9n man/man1/*.1 \
	  && cp ../../../copyright doc/linnet/copyright && gzip -9n -c ../../../changelog > doc/linnet/changelog.Debian.gz
	mkdir -p $(DEB_TREE)/debian/linnet/DEBIAN
	cd $(DEB_TREE) && dpkg-shlibdeps -Tdebian/linnet.substvars debian/linnet/usr/bin/linnet \
	  && dpkg-gencontrol -plinnet -Tdebian/linnet.substvars -Pdebian/linnet
	cd $(DEB_TREE)/debian/linnet && find usr -type f | sort | xargs md5sum > DEBIAN/md5sums
	find $(DEB_TREE)/debian/linnet -type d -exec chmod 755 {} + && chmod 644 $(DEB_TREE)/debian/linnet/DEBIAN/*
	find $(DEB_TREE)/debian/linnet/usr -type f -exec chmod 644 {} + && chmod 755 $(DEB_TREE)/debian/linnet/usr/bin/linnet
	dpkg-deb --root-owner-group -Zxz --build $(DEB_TREE)/debian/linnet $(DEB)
	@echo "deb: $(DEB) ($$(stat -c %s $(DEB)) bytes), $$(dpkg-deb -f $(DEB) Depends)"
	t=$$(mktemp -d) && TMPDIR=$$t lintian --fail-on error --tag-display-limit 0 $(DEB); \
	  rc=$$?; rm -rf "$$t"; exit $$rc

# make install into a folder and make uninstall from it, then the .deb in a fresh Debian root,
# used there as a new user would (Tools/dist-check).
dist-check: deb
	@d=$$(mktemp -d /tmp/linnet-install.XXXXXX); trap 'rm -rf "$$d"' EXIT; \
	$(MAKE) --no-print-directory install DESTDIR=$$d PREFIX=/usr/local > /dev/null \
	  && echo "dist-check: make install DESTDIR=... put $$(find $$d -type f | wc -l) files" \
	  && $(MAKE) --no-print-directory uninstall DESTDIR=$$d PREFIX=/usr/local > /dev/null \
	  && left=$$(find $$d -type f | wc -l) \
	  && echo "dist-check: make uninstall left $$left files" && [ $$left = 0 ]
	Tools/dist-check $(DEB)
