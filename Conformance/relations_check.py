#!/usr/bin/env python3
"""Horari's RELATED-TO (issue 44, 5) against icalendar's reading of it.

1. A league's season (Tests/Fixtures/ics/league-rounds.ics: rounds that
   name their season, a round that names its matches with RELTYPE=CHILD,
   matches that name their round), changed with the CLI as its user would
   (`add --parent`, `edit --parent`, `edit --no-parent`, `delete` of a
   round): after each step, icalendar reads `horari export` and works out
   each item's parent (the item's own PARENT first, then a CHILD another
   item states; a relation to an item not there, to itself, or closing a
   circle left out) and each part's number (its place among its parent's
   parts by start, from 1). `horari list --format json` must say the same
   `parent` and `ordinal` for every occurrence, and nothing for the rest.
   A changed occurrence must say what its series says; `search` must
   number what it finds as `list` does.
2. Both ways: the calendar as icalendar writes it back (`to_ical`), read by
   Horari, lists the same parents and numbers.
3. Lossless: every corpus file with a RELATED-TO (RFC 9074's snoozes,
   RFC 9253's URI and UID values and GAP) exported by Horari is read by
   icalendar to the same relations (value, value type, RELTYPE, GAP) as
   the original, component by component.

Usage: relations_check.py HORARI_BINARY CORPUS_DIR
"""
import datetime
import glob
import json
import os
import shutil
import subprocess
import sys
import tempfile
import zoneinfo

import icalendar

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
FIXTURE = os.path.join(ROOT, "Tests", "Fixtures", "ics", "league-rounds.ics")


def horari(binary, *args, check=True):
    out = subprocess.run([binary, *args], capture_output=True, text=True, env={**os.environ, "TZ": "UTC", "NO_COLOR": "1"})
    if check and out.returncode != 0:
        raise SystemExit(f"FAIL: horari {' '.join(args)} exited {out.returncode}: {out.stderr}")
    return out


def relations(component):
    """icalendar's reading of a component's RELATED-TO lines."""
    found = []
    for value in component.related_to:
        params = value.params
        kind = type(value).__name__  # vText, vUid or vUri
        found.append((str(value), kind, params.get("RELTYPE", "PARENT").upper(), params.get("GAP")))
    return found


def start_key(component, zone):
    """A part's place by start on the calendar's own clock (RFC 5545 §3.3.5:
    floating and all-day times read in the calendar's zone); no date, last."""
    if "DTSTART" not in component and "DUE" not in component:
        return float("inf")
    start = component.decoded("DTSTART" if "DTSTART" in component else "DUE")
    if not isinstance(start, datetime.datetime):
        start = datetime.datetime.combine(start, datetime.time(), zone)
    elif start.tzinfo is None:
        start = start.replace(tzinfo=zone)
    return start.timestamp()


def expected_tree(calendar):
    """Each item's parent and number, as the RFC reads the relations."""
    # The series, not its changed occurrences (which carry the series' lines).
    items = {c["UID"]: c for c in calendar.walk() if c.name in ("VEVENT", "VTODO", "VJOURNAL") and "UID" in c and "RECURRENCE-ID" not in c}
    zone = zoneinfo.ZoneInfo(str(calendar.get("X-WR-TIMEZONE", "UTC")))
    stated, from_parents = [], []
    for uid, component in items.items():
        for value, kind, reltype, _ in relations(component):
            if kind == "vUri" or value == uid or value not in items:
                continue
            if reltype == "PARENT":
                stated.append((uid, value))
            elif reltype == "CHILD":
                from_parents.append((value, uid))
    parents = {}

    def above(uid, other):
        seen = 0
        while other is not None and seen <= len(parents):
            if other == uid:
                return True
            other, seen = parents.get(other), seen + 1
        return False

    for child, parent in stated + from_parents:
        if child not in parents and not above(child, parent):
            parents[child] = parent
    ordinals = {}
    for parent in set(parents.values()):
        children = sorted((c for c, p in parents.items() if p == parent), key=lambda c: (start_key(items[c], zone), c))
        for i, child in enumerate(children):
            ordinals[child] = i + 1
    return parents, ordinals


def listed(binary, path, command=("list",)):
    out = horari(binary, *command, "--calendar", path, "--from", "2026-09-01", "--today", "2026-09-01", "--limit", "1000", "--format", "json")
    page = json.loads(out.stdout)
    seen = {}
    for section in page["sections"]:
        for o in section["occurrences"]:
            seen[o["uid"]] = (o.get("parent"), o.get("ordinal"))
    return seen


def compare(binary, path, step):
    exported = horari(binary, "export", path).stdout
    calendar = icalendar.Calendar.from_ical(exported)
    parents, ordinals = expected_tree(calendar)
    seen = listed(binary, path)
    failures = []
    # A changed occurrence says what its series says (another client reads it on its own).
    masters = {c["UID"]: relations(c) for c in calendar.walk() if "UID" in c and "RECURRENCE-ID" not in c}
    for c in calendar.walk():
        if "RECURRENCE-ID" in c and relations(c) != masters.get(c["UID"]):
            failures.append(f"{step}: {c['UID']} on {c['RECURRENCE-ID'].to_ical().decode()} says {relations(c)}, its series {masters.get(c['UID'])}")
    for uid, (parent, ordinal) in sorted(seen.items()):
        want = (parents.get(uid), ordinals.get(uid))
        if (parent, ordinal) != want:
            failures.append(f"{step}: {uid}: horari lists parent {parent} no. {ordinal}; icalendar reads {want[0]} no. {want[1]}")
    # What search finds is numbered as the whole calendar numbers it.
    found = listed(binary, path, ("search", "a"))
    if not found or any(seen.get(uid) != shown for uid, shown in found.items()):
        failures.append(f"{step}: search numbers the parts it finds otherwise than list: {found}")
    # Both ways: icalendar's own writing of the calendar, read by Horari.
    again = os.path.join(os.path.dirname(path), "by-icalendar.ics")
    with open(again, "wb") as f:
        f.write(calendar.to_ical())
    if listed(binary, again) != seen:
        failures.append(f"{step}: the calendar as icalendar writes it lists other parents or numbers")
    return failures, len(parents)


def season(binary):
    failures, relations_seen = [], 0
    with tempfile.TemporaryDirectory() as scratch:
        path = os.path.join(scratch, "league.ics")
        shutil.copy(FIXTURE, path)
        cal = ["--calendar", path, "--now", "2026-09-01 10:00"]
        steps = [
            ("as written", None),
            ("a match added to round c", ["add", "Gràcia v Sants", "--start", "2026-11-08 12:00", "--minutes", "90", "--parent", "round-c", "--id", "match-c2"]),
            ("a match added before round c's first", ["add", "Les Corts v Gràcia", "--start", "2026-11-07 10:00", "--minutes", "90", "--parent", "round-c", "--id", "match-c0"]),
            ("match b1 out of round b (named by the round)", ["edit", "match-b1", "--no-parent"]),
            ("match a2 moved to round b", ["edit", "match-a2", "--parent", "round-b"]),
            ("round c moved before round b", ["edit", "round-c", "--start", "2026-10-10", "--end", "2026-10-11"]),
            ("match b2 moved to round a (round b named it)", ["edit", "match-b2", "--parent", "round-a"]),
            ("a weekly training under the season", ["add", "Training", "--start", "2026-10-06 19:00", "--minutes", "60", "--repeat", "FREQ=WEEKLY;COUNT=6", "--parent", "season", "--id", "training"]),
            ("one training moved", ["edit", "training", "--occurrence", "2026-10-13", "--start", "2026-10-13 20:00"]),
            ("the training series under round b", ["edit", "training", "--parent", "round-b"]),
            ("a task for some day under round c", ["add", "Book the bus", "--someday", "--parent", "round-c", "--id", "bus"]),
            ("round a deleted", ["delete", "round-a", "--yes"]),
        ]
        for step, command in steps:
            if command:
                horari(binary, *command, *cal)
            found, count = compare(binary, path, step)
            failures += found
            relations_seen += count
    return failures, relations_seen


def corpus(binary, corpus_dir):
    failures, files = [], 0
    with tempfile.TemporaryDirectory() as scratch:
        for path in sorted(glob.glob(os.path.join(corpus_dir, "**", "*.ics"), recursive=True)):
            with open(path, "rb") as f:
                raw = f.read()
            if b"RELATED-TO" not in raw:
                continue
            files += 1
            try:
                original = icalendar.Calendar.from_ical(raw.decode("utf-8"), multiple=True)
            except Exception as e:  # icalendar cannot read it: nothing to compare with
                print(f"  {os.path.relpath(path, corpus_dir)}: icalendar does not read it ({e}); skipped")
                files -= 1
                continue
            # RFC 9253's examples are bare VEVENTs with no DTSTART, which
            # Horari refuses to show or export (the import says so, as an
            # error); each is given one so that its relations are compared.
            source = os.path.join(scratch, "source.ics")
            with open(source, "wb") as f:
                for calendar in original:
                    if calendar.name != "VCALENDAR":
                        wrapper = icalendar.Calendar()
                        wrapper.add("VERSION", "2.0")
                        wrapper.add("PRODID", "-//Horari//relations_check//EN")
                        wrapper.add_component(calendar)
                        calendar = wrapper
                    for c in calendar.walk("VEVENT"):
                        if "DTSTART" not in c:
                            c.add("DTSTART", datetime.datetime(2026, 1, 1, 9, tzinfo=datetime.timezone.utc))
                    f.write(calendar.to_ical())
            out = horari(binary, "export", source, check=False)
            if out.returncode != 0:
                failures.append(f"{os.path.relpath(path, corpus_dir)}: horari export exited {out.returncode}: {out.stderr.strip()}")
                continue
            written = icalendar.Calendar.from_ical(out.stdout)

            def each(calendars):
                # By component; one without a UID is given one on import, so
                # the UID is left out and the components compared as a set.
                return sorted((c.name, relations(c)) for calendar in calendars for c in calendar.walk() if "RELATED-TO" in c)

            before, after = each(original), each([written])
            if before != after:
                failures.append(f"{os.path.relpath(path, corpus_dir)}: icalendar reads {before} from the file, {after} from horari's export")
    return failures, files


def main():
    if len(sys.argv) != 3:
        raise SystemExit(__doc__)
    binary, corpus_dir = sys.argv[1], sys.argv[2]
    failures, count = season(binary)
    print(f"season: 12 states of the league, {count} parent relations in all, read alike by icalendar and horari list")
    found, files = corpus(binary, corpus_dir)
    failures += found
    print(f"corpus: {files} files with RELATED-TO, exported by horari and read by icalendar to the same relations")
    if files == 0:
        failures.append("no corpus file holds a RELATED-TO: is the corpus there?")
    for failure in failures:
        print("FAIL:", failure)
    sys.exit(1 if failures else 0)


if __name__ == "__main__":
    main()
