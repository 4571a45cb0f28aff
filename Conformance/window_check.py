#!/usr/bin/env python3
"""A view of a calendar kept in SQLite reads only its window (issue 40, 2):
for every real file of the corpora, the window must hold every item the
view shows.

A calendar in a database keeps each item's reach in time (the instants its
occurrences, overrides and RDATEs can touch, with five days of margin), and
`month`, `week` and `day` read only the items whose reach touches the view.
A reach too short would drop an item silently. So, for every .ics file in
the test corpora of icalendar, recurring-ical-events, khal and
python-dateutil (real producers' files: Google, Apple, Outlook, Exchange,
SabreDAV, the RFCs' examples):

1. the file is given an X-WR-TIMEZONE when it has none (a calendar that
   names no zone is shown on the zone most of its items start in, which
   takes every item, so it is read whole; with the zone named, the window
   alone is read — the case under test), and imported into a new SQLite
   database and into a new .ics file (`horari import FILE --into NEW`: the
   same calendar, made the same way, with the zone a new calendar records);
2. the months its occurrences start in are listed (`horari occurrences`,
   2000–2030), and for the first, the middle and the last of them, and the
   month before the first, `horari month M --format json` on the .ics and
   on the database must print the same; so must `week` and `day` of the
   first occurrence's date, and the first month as text (its short IDs
   stay unique in the whole calendar only if the database names the items
   it left unread). Every view must succeed on the .ics: a view that fails
   alike on both would agree without showing anything.

Files Horari does not import cleanly are counted and passed over (the
corpus check covers them). Exit status 0 when every view agrees, 1
otherwise.

Usage: window_check.py HORARI_BINARY CORPUS_DIR
"""
import concurrent.futures as cf
import json
import os
import re
import subprocess
import sys
import tempfile

TODAY = "2026-11-25"


def run(cmd, timeout=180):
    p = subprocess.run(cmd, capture_output=True, timeout=timeout)
    return p.returncode, p.stdout, p.stderr


def with_zone(text):
    """The file's text with an X-WR-TIMEZONE after its first BEGIN:VCALENDAR, unless it has one."""
    if re.search(r"^X-WR-TIMEZONE[;:]", text, re.M | re.I):
        return text
    return re.sub(r"(BEGIN:VCALENDAR\r?\n)", r"\1X-WR-TIMEZONE:Europe/Madrid\r\n", text, count=1, flags=re.I)


def months_of(horari, path):
    rc, out, _ = run([horari, "occurrences", path, "--from", "2000-01-01", "--to", "2030-01-01T00:00:00",
                      "--format", "jsonl", "--max-per-series", "200"])
    if rc != 0:
        return None, None
    starts = []
    for line in out.decode("utf-8", "replace").splitlines():
        try:
            starts.append(json.loads(line)["start"][:10])
        except (ValueError, KeyError, TypeError):
            pass
    if not starts:
        return [], None
    months = sorted({s[:7] for s in starts})
    first = months[0]
    year, month = int(first[:4]), int(first[5:7])
    before = "%04d-%02d" % ((year, month - 1) if month > 1 else (year - 1, 12))
    chosen = sorted({before, months[0], months[len(months) // 2], months[-1]})
    return chosen, min(starts)


def check_file(horari, corpus, path, workdir):
    rel = os.path.relpath(path, corpus)
    with open(path, "rb") as f:
        text = f.read().decode("utf-8", "replace")
    base = os.path.join(workdir, re.sub(r"[^A-Za-z0-9]+", "_", rel))
    source, ics, db = base + ".source.ics", base + ".ics", base + ".sqlite"
    with open(source, "w", encoding="utf-8", newline="") as f:
        f.write(with_zone(text))
    for into in (ics, db):
        rc, _, _ = run([horari, "import", source, "--into", into])
        if rc != 0 or not os.path.exists(into):
            return rel, "skipped", []
    months, first_day = months_of(horari, ics)
    if months is None:
        return rel, "skipped", []
    json_form = ["--format", "json"]
    views = [["month", m] + json_form for m in months]
    if first_day and re.match(r"^\d{4}-\d{2}-\d{2}$", first_day):
        views += [["week", first_day] + json_form, ["day", first_day] + json_form]
    if months:
        views.append(["month", months[1] if len(months) > 1 else months[0], "--color", "never"])
    problems = []
    for view in views:
        answers = []
        for place in (ics, db):
            rc, out, err = run([horari] + view + ["--calendar", place, "--today", TODAY])
            answers.append((rc, out))
        if answers[0][0] != 0:
            problems.append("%s %s: fails on the .ics (exit %d), so there is nothing to compare" % (view[0], view[1], answers[0][0]))
        elif answers[0] != answers[1]:
            ours, theirs = (a[1].decode("utf-8", "replace").splitlines() for a in answers)
            n = next((i for i, (a, b) in enumerate(zip(ours, theirs)) if a != b), min(len(ours), len(theirs)))
            line = lambda lines: lines[n].strip() if n < len(lines) else "(nothing more)"
            problems.append("%s %s: line %d, the .ics says %s (exit %d), the database %s (exit %d)" % (
                view[0], view[1], n + 1, line(ours)[:100], answers[0][0], line(theirs)[:100], answers[1][0]))
    return rel, "checked", problems


def main():
    if len(sys.argv) != 3:
        print(__doc__.strip().splitlines()[-1])
        return 2
    horari, corpus = os.path.abspath(sys.argv[1]), os.path.abspath(sys.argv[2])
    files = sorted(os.path.join(d, n) for d, _, names in os.walk(corpus) for n in names if n.endswith(".ics"))
    if not files:
        print("FAIL no .ics files under %s" % corpus)
        return 1
    checked = skipped = 0
    failures = []
    with tempfile.TemporaryDirectory(prefix="horari-window-") as workdir:
        with cf.ThreadPoolExecutor(max_workers=os.cpu_count() or 2) as pool:
            for rel, state, problems in pool.map(lambda p: check_file(horari, corpus, p, workdir), files):
                if state == "skipped":
                    skipped += 1
                    continue
                checked += 1
                failures += ["%s: %s" % (rel, p) for p in problems]
    for line in failures:
        print("FAIL " + line)
    print("windowed views: %d files checked (month, week and day on the .ics and in SQLite), %d not imported cleanly and passed over, %d disagreements"
          % (checked, skipped, len(failures)))
    # The check must have checked something: a corpus Horari could not import at all would pass vacuously.
    if checked * 2 < len(files):
        print("FAIL only %d of %d files were checked" % (checked, len(files)))
        return 1
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
