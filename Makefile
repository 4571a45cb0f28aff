# Horari — every set-up step lives here, so a fresh Debian machine with Swift
# needs nothing else: `make run` and `make test` install libical-dev first.
SWIFT ?= swift
SUDO := $(shell [ "$$(id -u)" = 0 ] || echo sudo)
PYTHON ?= python3
VENV := .venv-conformance

.PHONY: deps run test build-check conformance bench bench-quick clean

## Install libical-dev (and pkg-config) from Debian's packages when missing.
deps:
	@if ! pkg-config --exists libical 2>/dev/null; then \
		echo "Installing libical-dev and pkg-config with apt-get..."; \
		$(SUDO) apt-get update -qq && \
		DEBIAN_FRONTEND=noninteractive $(SUDO) apt-get install -y -qq libical-dev pkg-config >/dev/null; \
	fi

## The main job: a weekly class expanded by the recurrence engine.
run: deps
	$(SWIFT) run horari expand --rrule 'FREQ=WEEKLY;BYDAY=MO,WE;COUNT=8' --dtstart 20260302T183000 --tzid Europe/Madrid

## Build with zero warnings in our own code, then run the whole test suite.
test: deps build-check
	$(SWIFT) test

build-check:
	@mkdir -p .build
	$(SWIFT) build --build-tests 2>&1 | tee .build/build.log
	@if grep -E '/(Sources|Tests|Examples|Benchmarks)/.*warning:' .build/build.log; then \
		echo "error: the build has warnings (Swift 6 mode, zero warnings)"; exit 1; fi

## Differential check against python-dateutil (a virtual environment from PyPI).
conformance: deps
	@[ -x $(VENV)/bin/python ] || $(PYTHON) -m venv $(VENV) || { \
		echo "Installing python3-venv with apt-get..."; rm -rf $(VENV); \
		$(SUDO) apt-get update -qq && DEBIAN_FRONTEND=noninteractive $(SUDO) apt-get install -y -qq python3-venv >/dev/null && \
		$(PYTHON) -m venv $(VENV); }
	$(VENV)/bin/pip install -q 'python-dateutil==2.9.0.post0'
	$(SWIFT) build -c release --product horari
	$(VENV)/bin/python Conformance/dateutil_differential.py .build/release/horari --rules 3000

## Benchmarks against libical in the same process (release build).
bench: deps
	$(SWIFT) run -c release HorariBench

bench-quick: deps
	$(SWIFT) run -c release HorariBench --quick

clean:
	rm -rf .build $(VENV)
