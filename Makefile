# Horari — every set-up step lives here, so a fresh Debian machine with Swift
# needs nothing else: `make run` and `make test` install libical-dev first.
SWIFT ?= swift
SUDO := $(shell [ "$$(id -u)" = 0 ] || echo sudo)
PYTHON ?= python3
VENV := .venv-conformance
# The peers that referee us, pinned so that their verdicts do not drift.
PEERS := 'python-dateutil==2.9.0.post0' 'icalendar==7.3.0' 'recurring-ical-events==3.8.2' \
	'x-wr-timezone==2.0.1' 'vobject==0.9.9' 'khal==0.14.1' 'Radicale==3.9.0'
# Real .ics files: the test corpora inside these source distributions.
CORPUS := $(VENV)/corpus
CORPUS_SDISTS := 'icalendar==7.3.0' 'recurring-ical-events==3.8.2' 'khal==0.14.1' 'python-dateutil==2.9.0.post0'

.PHONY: deps run test test-thread build-check snippets docs conformance bench bench-quick clean

## Install libical-dev (and pkg-config) from Debian's packages when missing.
deps:
	@if ! pkg-config --exists libical 2>/dev/null; then \
		echo "Installing libical-dev and pkg-config with apt-get..."; \
		$(SUDO) apt-get update -qq && \
		DEBIAN_FRONTEND=noninteractive $(SUDO) apt-get install -y -qq libical-dev pkg-config >/dev/null; \
	fi

## The main job: this month of the sample gym calendar embedded in horari (a bare `horari`).
run: deps
	$(SWIFT) run horari

## Build with zero warnings in our own code, then run the whole test suite.
test: deps build-check
	$(SWIFT) test

## The scheduling suites (the actor, 1,000 concurrent bookings) under ThreadSanitizer,
## in their own build folder so the plain build stays as it is.
test-thread: deps
	$(SWIFT) test --sanitize=thread --build-path .build/tsan --filter Scheduling

## The README's and the DocC articles' Swift snippets, run in a scratch folder
## (every build already compiles them: Plugins/CompileDocSnippets).
snippets: deps
	$(SWIFT) run DocSnippets Examples/Samples/gym.ics

## DocC archives for the four library modules (swift-docc-plugin); any warning fails.
docs: deps
	@mkdir -p .build
	@for t in CalendarCore ICalendarKit CalendarViews CalendarScheduling; do \
		$(SWIFT) package generate-documentation --target $$t > .build/docc-$$t.log 2>&1 || { cat .build/docc-$$t.log; exit 1; }; \
		if grep -q "warning:" .build/docc-$$t.log; then grep -A4 "warning:" .build/docc-$$t.log; exit 1; fi; \
		echo "$$t: documentation built without warnings"; done

build-check:
	@mkdir -p .build
	$(SWIFT) build --build-tests 2>&1 | tee .build/build.log
	@if grep -E '/(Sources|Tests|Examples|Benchmarks)/.*warning:' .build/build.log; then \
		echo "error: the build has warnings (Swift 6 mode, zero warnings)"; exit 1; fi

## Conformance against peers from PyPI: dateutil (recurrence), recurring-ical-events on
## ~317 real files (import), round trips validated by icalendar+vobject, khal and Radicale;
## month grids against ncal for every month 2000–2030.
conformance: deps
	@[ -x $(VENV)/bin/python ] || $(PYTHON) -m venv $(VENV) || { \
		echo "Installing python3-venv with apt-get..."; rm -rf $(VENV); \
		$(SUDO) apt-get update -qq && DEBIAN_FRONTEND=noninteractive $(SUDO) apt-get install -y -qq python3-venv >/dev/null && \
		$(PYTHON) -m venv $(VENV); }
	$(VENV)/bin/pip install -q $(PEERS)
	@[ -d $(CORPUS) ] || { mkdir -p $(CORPUS).tmp && cd $(CORPUS).tmp && \
		../bin/pip download -q --no-binary :all: --no-deps $(CORPUS_SDISTS) && \
		for f in *.tar.gz; do tar xzf "$$f" && rm "$$f"; done && cd .. && mv corpus.tmp corpus; }
	$(SWIFT) build -c release --product horari
	$(VENV)/bin/python Conformance/dateutil_differential.py .build/release/horari --rules 3000
	$(VENV)/bin/python Conformance/corpus_check.py .build/release/horari $(CORPUS)
	$(VENV)/bin/python Conformance/clients_check.py .build/release/horari Examples/Samples/gym.ics
	@command -v ncal >/dev/null || { echo "Installing ncal with apt-get..."; \
		$(SUDO) apt-get update -qq && DEBIAN_FRONTEND=noninteractive $(SUDO) apt-get install -y -qq ncal >/dev/null; }
	sh Conformance/ncal_check.sh .build/release/horari
	sh Conformance/booking_race.sh .build/release/horari $(VENV)/bin/python
	sh Conformance/cli_failures.sh .build/release/horari
	@command -v faketime >/dev/null || { echo "Installing faketime with apt-get..."; \
		$(SUDO) apt-get update -qq && DEBIAN_FRONTEND=noninteractive $(SUDO) apt-get install -y -qq faketime >/dev/null; }
	$(VENV)/bin/python Conformance/readme_tour.py .build/release/horari --khal $(VENV)/bin/khal
	for audience in "all" "public" "member marta" "coach marc"; do \
		$(VENV)/bin/python Conformance/clients_check.py .build/release/horari Examples/Samples/gym.ics --for $$audience || exit 1; done

## Benchmarks against libical in the same process (release build).
bench: deps
	$(SWIFT) run -c release HorariBench

bench-quick: deps
	$(SWIFT) run -c release HorariBench --quick

clean:
	rm -rf .build $(VENV)
