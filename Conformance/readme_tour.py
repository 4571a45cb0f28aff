#!/usr/bin/env python3
"""Runs the README's tour and compares every output with what the README shows.

    python3 Conformance/readme_tour.py .build/release/horari [--khal PATH/TO/khal]

Every fenced block of README.md (not ```swift, which the build compiles) whose
lines start with `$ horari` or `$ khal` is a transcript: each command runs in
turn, in one scratch folder, with the clock set to 2026-11-22 10:00 Europe/Madrid
by libfaketime (Debian's faketime), and must print exactly the lines below it
(trailing blanks aside; a line ending in "…" is a prefix). A shown answer to a
question ("[y/N] y") is typed into a pseudo-terminal from util-linux's script.
`> FILE` redirections are honoured; khal gets a configuration of its own.
The README's CalDAV server, http://127.0.0.1:5232, is a Radicale started here
on a free port (from this Python's packages) and stopped by its process id.
"""
import os
import re
import shlex
import shutil
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from clients_check import khal_config  # noqa: E402  (one khal set-up for both checks)
from radicale_server import Radicale  # noqa: E402

README_SERVER = "http://127.0.0.1:5232"

CLOCK = "2026-11-22 10:00:00"

def transcripts(readme):
    blocks, block, fence = [], None, None
    for line in open(readme, encoding="utf-8").read().split("\n"):
        if block is None and line.startswith("```"):
            fence = line[3:].strip()
            block = []
        elif block is not None and line.startswith("```"):
            if fence != "swift" and block and block[0].startswith(("$ horari", "$ khal")):
                blocks.append(block)
            block = None
        elif block is not None:
            block.append(line)
    for b in blocks:
        steps = []
        for line in b:
            if line.startswith("$ "):
                steps.append((line[2:], []))
            elif steps:
                steps[-1][1].append(line)
        yield steps

def main():
    horari = os.path.abspath(sys.argv[1])
    khal = os.path.abspath(sys.argv[sys.argv.index("--khal") + 1]) if "--khal" in sys.argv else "khal"
    readme = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "README.md")
    work = tempfile.mkdtemp(prefix="horari-tour-")
    # What reaches the gym from outside, which the README reads: answers a calendar program mails back, a coach's own calendar.
    answers = os.path.join(os.path.dirname(readme), "Examples", "Samples", "incoming")
    for name in sorted(os.listdir(answers)):
        shutil.copy(os.path.join(answers, name), work)
    config = khal_config(work, "gym")
    # A machine whose zone is not the gym's: the calendar keeps its own clock.
    # (libfaketime leaves the monotonic clock alone: the CalDAV client's timeouts run on it.)
    env = dict(os.environ, TZ="America/New_York", LC_ALL="C.UTF-8", FAKETIME_DONT_RESET="1", FAKETIME_DONT_FAKE_MONOTONIC="1",
               HORARI_CALDAV_USER="gym", HORARI_CALDAV_PASSWORD="front-desk", XDG_CACHE_HOME=os.path.join(work, "cache"))
    env.pop("NO_COLOR", None)
    failures = runs = 0
    server = Radicale(work) if README_SERVER in open(readme, encoding="utf-8").read() else None
    try:
        failures, runs = tour(readme, horari, khal, config, work, env, server)
    finally:
        if server:
            server.stop()
    print(f"readme_tour: {runs - failures} of {runs} README commands print what the README shows")
    sys.exit(1 if failures else 0)

def tour(readme, horari, khal, config, work, env, server):
    failures = runs = 0
    for steps in transcripts(readme):
        for command, expected in steps:
            if server:
                command = command.replace(README_SERVER, server.base)
                expected = [l.replace(README_SERVER, server.base) for l in expected]
            words = shlex.split(command)
            out_file = None
            if ">" in words:
                i = words.index(">")
                out_file, words = os.path.join(work, words[i + 1]), words[:i]
            if words[0] == "horari":
                words = [horari] + words[1:]
            elif words[0] == "khal":
                words = [khal, "-c", config, "--no-color"] + words[1:] if words[1] == "list" else [khal, "-c", config] + words[1:]
            # -f: the clock stands still at CLOCK (a debug build took over a second to start, and a DTSTAMP ticked to :01).
            words = ["faketime", "-f", CLOCK] + words
            answer = next((l for l in expected if l.endswith("[y/N] y")), None)
            if answer:
                r = subprocess.run(["script", "-qec", shlex.join(words), "/dev/null"], input="y\n", capture_output=True, text=True, cwd=work, env=env)
                # The terminal echoes the typed answer first; the README shows it after the question.
                got = r.stdout.replace("\r", "")
                got = re.sub(r"^y\n", "", got).replace("[y/N] ", "[y/N] y\n", 1)
            else:
                r = subprocess.run(words, capture_output=True, text=True, cwd=work, env=env)
                got = r.stdout + r.stderr
                if out_file:
                    open(out_file, "w").write(r.stdout)
                    got = r.stderr
            runs += 1
            got_lines = [l.rstrip() for l in got.rstrip("\n").split("\n")] if got.strip() else []
            want = [l.rstrip() for l in expected]
            same = len(got_lines) == len(want) and all(
                g == w or (w.endswith("…") and g.startswith(w[:-1])) for g, w in zip(got_lines, want))
            if not same:
                failures += 1
                print(f"FAIL $ {command}")
                for w in want: print("  want: " + w)
                for g in got_lines: print("  got:  " + g)
    return failures, runs

main()
