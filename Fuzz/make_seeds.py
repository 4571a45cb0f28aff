#!/usr/bin/env python3
"""Builds the fuzzers' starting corpora from real files (standard library only).

    python3 Fuzz/make_seeds.py OUT [CORPUS_DIR ...]

OUT/import gets every .ics under the CORPUS_DIRs (the peers' test files that
`make conformance` downloads), under Tests/Fixtures/ics (our
broken-file corpus) and the sample calendar. OUT/recurrence gets, for every
component with an RRULE in those files, its DTSTART, RRULE, RDATE and EXDATE
lines, and every rule of dateutil's test suite (Fixtures/dateutil_rrule_cases.json).
Inputs are named by their SHA-1, so re-running adds nothing twice.
"""
import hashlib
import json
import os
import re
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
FIXTURES = os.path.join(ROOT, "Tests", "Fixtures")
RECURRENCE = ("DTSTART", "RRULE", "RDATE", "EXDATE")


def save(folder, data):
    os.makedirs(folder, exist_ok=True)
    path = os.path.join(folder, hashlib.sha1(data).hexdigest())
    if not os.path.exists(path):
        with open(path, "wb") as f:
            f.write(data)


def ics_files(roots):
    for root in roots:
        for folder, _, names in os.walk(root):
            for name in sorted(names):
                if name.lower().endswith(".ics"):
                    yield os.path.join(folder, name)


def recurrence_seeds(data):
    """One seed per component that has an RRULE: its recurrence lines, unfolded."""
    text = re.sub(r"\r?\n[ \t]", "", data.decode("utf-8", "replace"))
    lines = []
    for line in text.splitlines():
        upper = line.upper()
        if upper.startswith("BEGIN:"):
            lines = []
        elif upper.startswith("END:"):
            if any(l.upper().startswith("RRULE") for l in lines):
                yield ("\n".join(lines) + "\n").encode()
            lines = []
        elif upper.split(";")[0].split(":")[0] in RECURRENCE:
            lines.append(line)


def main():
    if len(sys.argv) < 2:
        sys.exit(__doc__)
    out, roots = sys.argv[1], sys.argv[2:]
    files = list(ics_files(roots + [os.path.join(FIXTURES, "ics")]))
    files.append(os.path.join(ROOT, "Examples", "Samples", "gym.ics"))
    for path in files:
        with open(path, "rb") as f:
            data = f.read()
        save(os.path.join(out, "import"), data)
        for seed in recurrence_seeds(data):
            save(os.path.join(out, "recurrence"), seed)
    with open(os.path.join(FIXTURES, "dateutil_rrule_cases.json")) as f:
        for case in json.load(f)["cases"]:
            save(os.path.join(out, "recurrence"), f"DTSTART:{case['dtstart']}\nRRULE:{case['rrule']}\n".encode())
    for kind in ("import", "recurrence"):
        print(f"{kind}: {len(os.listdir(os.path.join(out, kind)))} seeds in {os.path.join(out, kind)}")


if __name__ == "__main__":
    main()
