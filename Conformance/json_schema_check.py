#!/usr/bin/env python3
"""Validates every `horari … --format json` output against Docs/horari.schema.json.

    python3 Conformance/json_schema_check.py .build/release/horari

The referee is the `jsonschema` package (Draft 2020-12), from the peers'
virtual environment. Each command runs on the sample gym, the student
planner and the league fixtures, in a scratch copy; besides the schema, the
check asserts what a schema cannot say:

- no Swift enum payload key (`_0`, `_1`, …) anywhere;
- every `start`/`end` of a timed occurrence, and a task's `due`, `start` and
  `completed`, carries the offset of the zone named in `timeZone` at that
  instant (checked with Python's zoneinfo);
- `--page` takes back the list's `nextPage` token exactly as printed, and the
  next page starts after the last occurrence of the first.
"""
import json
import os
import shutil
import subprocess
import sys
import tempfile
from datetime import datetime
from zoneinfo import ZoneInfo

import jsonschema

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
SAMPLE = os.path.join(ROOT, "Examples", "Samples", "gym.ics")
FIXTURES = os.path.join(ROOT, "Tests", "Fixtures", "ics")


def main():
    horari = os.path.abspath(sys.argv[1])
    schema = json.load(open(os.path.join(ROOT, "Docs", "horari.schema.json"), encoding="utf-8"))
    jsonschema.Draft202012Validator.check_schema(schema)
    validator = jsonschema.Draft202012Validator(schema, format_checker=jsonschema.FormatChecker())
    work = tempfile.mkdtemp(prefix="horari-json-")
    try:
        gym = os.path.join(work, "gym.ics")
        shutil.copy(SAMPLE, gym)
        planner = os.path.join(FIXTURES, "planner.ics")
        league = os.path.join(FIXTURES, "league.ics")
        now = ["--now", "2026-11-22 10:00"]
        runs = [
            ["month", "2026-11", "--calendar", gym, "--today", "2026-11-22"],
            ["month", "2026-10", "--calendar", gym, "--time-zone", "America/New_York"],
            ["month", "2026-11", "--calendar", planner],
            ["week", "2026-11-25", "--calendar", gym],
            ["week", "2026-11-25", "--calendar", planner, "--locale", "ca_ES"],
            ["week", "2026-10-25", "--calendar", gym, "--time-zone", "Australia/Lord_Howe"],
            ["day", "2026-11-25", "--calendar", gym],
            ["day", "2026-11-25", "--calendar", planner],
            ["day", "2026-11-28", "--calendar", gym, "--time-zone", "Asia/Tokyo"],
            ["list", "--from", "2026-11-23", "--limit", "5", "--calendar", gym],
            ["list", "--from", "2026-10-01", "--calendar", league],
            ["list", "--from", "2026-10-01", "--calendar", os.path.join(FIXTURES, "league-rounds.ics"), "--time-zone", "Asia/Tokyo"],
            ["search", "yoga sala", "--limit", "5", "--calendar", gym],
            ["search", "no such words", "--calendar", gym],
            ["list", "--from", "2026-11-25", "--calendar", planner],
            ["occurrences", gym, "--from", "2026-11-23", "--to", "2026-11-30"],
            ["occurrences", planner, "--from", "2026-11-01", "--to", "2026-11-30", "--time-zone", "UTC"],
            ["classes", "timetable", "--calendar", gym],
            ["classes", "timetable", "--week", "2026-11-25", "--calendar", gym],
            ["sessions", "list", "--coach", "marc", "--calendar", gym] + now,
            ["sessions", "list", "--coach", "laia", "--past", "--calendar", gym] + now,
            ["sessions", "history", "--client", "anna", "--calendar", gym] + now,
            ["sessions", "history", "--client", "pau", "--coach", "marc", "--calendar", gym] + now,
            ["alarms", "--from", "2026-01-01", "--to", "2026-12-31", "--calendar", os.path.join(FIXTURES, "alarms.ics")],
            ["alarms", "--from", "2026-11-25", "--to", "2026-11-25", "--calendar", os.path.join(FIXTURES, "alarms_bad.ics"), "--time-zone", "Asia/Tokyo"],
            ["alarms", "--from", "2026-11-23", "--to", "2026-12-06", "--member", "marta", "--default=-PT1H", "--calendar", gym],
            ["alarms", "--from", "2026-11-23", "--to", "2026-12-06", "--client", "anna", "--coach", "marc", "--default=-P1D", "--calendar", gym],
            ["alarms", "--from", "2026-11-23", "--to", "2026-12-06", "--coach", "marc", "--default=-PT30M", "--default=-P1D", "--calendar", gym],
            ["list", "--pending", "--calendar", os.path.join(FIXTURES, "tasks.ics"), "--now", "2026-11-20 19:00"],
            ["list", "--pending", "--category", "chemistry", "--calendar", os.path.join(FIXTURES, "tasks.ics"), "--time-zone", "Asia/Tokyo"],
            ["list", "--pending", "--calendar", planner, "--now", "2026-11-25 21:00"],
            ["list", "--done", "--calendar", os.path.join(FIXTURES, "tasks.ics")],
            ["list", "--done", "--calendar", planner, "--time-zone", "America/New_York"],
        ]
        # The gym closed for Christmas with a booked member, so that the closure's runs have someone to tell.
        closure = [
            ["classes", "close", "2026-12-24..2026-12-26", "--reason", "Christmas", "--calendar", gym] + now,
            ["classes", "closures", "--calendar", gym] + now,
            ["classes", "closures", "--all", "--calendar", gym] + now,
            ["classes", "timetable", "--week", "2026-12-24", "--calendar", gym],
            # Every list answers --format json (issue 43, 13).
            ["coaches", "list", "--calendar", gym],
            ["clients", "list", "--coach", "marc", "--calendar", gym] + now,
            ["members", "list", "--calendar", gym],
            ["book", "--member", "marta", "--list", "--calendar", gym] + now,
            ["book", "--member", "aina", "--list", "--calendar", gym] + now,  # with a waitlist place
            ["classes", "hours", "--calendar", gym],
            ["classes", "hours", "--set", "MO-FR 07:00-22:00", "--set", "SA 09:00-14:00", "--calendar", gym] + now,
            ["classes", "policy", "--calendar", gym],
            ["gym", "address", "--calendar", gym],
            ["gym", "address", "Gimnàs Sants <desk@gym.example>", "--calendar", gym],
            ["sessions", "policy", "--calendar", gym],
            ["sessions", "policy", "--notice", "120", "--past", "allow", "--calendar", gym],
            ["classes", "policy", "--window", "14", "--cutoff", "12", "--weekly-limit", "3", "--calendar", gym],
        ]
        run(horari, ["book", "--member", "marta", "--class", "pilates", "--date", "2026-12-24", "--calendar", gym] + now, work)
        # A session with a colour and a workout type, so that both are in the output.
        run(horari, ["sessions", "add", "--coach", "marc", "--client", "anna", "--start", "2026-11-27 10:00",
                     "--color", "royalblue", "--type", "Strength", "--id", "s-json"] + ["--calendar", gym] + now, work)
        failures = 0
        commands = set()
        for args in runs + closure:
            out = run(horari, args + ["--format", "json"], work)
            doc = json.loads(out)
            commands.add(doc.get("command"))
            problems = [f"{'/'.join(map(str, e.absolute_path)) or '(top)'}: {e.message}" for e in validator.iter_errors(doc)]
            problems += enum_payload_keys(doc)
            problems += offsets(doc)
            if problems:
                failures += 1
                print(f"FAIL horari {' '.join(args)} --format json")
                for p in problems[:10]:
                    print("   ", p)
        failures += check_paging(horari, gym, work)
        # Every command the schema names is run at least once.
        expected = set(schema["properties"]["command"]["enum"])
        if commands != expected:
            print(f"FAIL: commands checked {sorted(commands)}, expected {sorted(expected)}")
            failures += 1
        print(f"json schema: {len(runs) + len(closure)} outputs of {len(commands)} commands checked against Docs/horari.schema.json, {failures} failing")
        return 1 if failures else 0
    finally:
        shutil.rmtree(work, ignore_errors=True)


def run(horari, args, cwd):
    env = {"PATH": "/usr/bin:/bin", "HOME": cwd, "XDG_DATA_HOME": os.path.join(cwd, "data"), "TZ": "UTC", "LANG": "C"}
    p = subprocess.run([horari] + args, cwd=cwd, env=env, capture_output=True, text=True)
    if p.returncode != 0:
        raise SystemExit(f"horari {' '.join(args)} failed ({p.returncode}): {p.stderr}")
    return p.stdout


def enum_payload_keys(value, path="(top)"):
    found = []
    if isinstance(value, dict):
        for k, v in value.items():
            if k.startswith("_") and k[1:].isdigit():
                found.append(f"{path}: Swift enum payload key {k!r}")
            found += enum_payload_keys(v, f"{path}/{k}")
    elif isinstance(value, list):
        for i, v in enumerate(value):
            found += enum_payload_keys(v, f"{path}/{i}")
    return found


def occurrences_of(value):
    if isinstance(value, dict):
        if "allDay" in value and "start" in value and "uid" in value:
            yield value
        for v in value.values():
            yield from occurrences_of(v)
    elif isinstance(value, list):
        for v in value:
            yield from occurrences_of(v)


def offsets(doc):
    """A timed occurrence's times carry the offset of the document's zone at that instant."""
    zone = ZoneInfo(doc["timeZone"])
    found = []
    for o in occurrences_of(doc):
        if o["allDay"]:
            continue
        for key in ("start", "end"):
            t = datetime.fromisoformat(o[key])
            expected = t.astimezone(zone).utcoffset()
            if t.utcoffset() != expected:
                found.append(f"{o['uid']} {key} {o[key]}: {doc['timeZone']} is at {expected} then")
    for s in doc.get("sessions", []):
        t = datetime.fromisoformat(s["start"])
        if t.utcoffset() != t.astimezone(zone).utcoffset():
            found.append(f"session {s['uid']} start {s['start']}: not on {doc['timeZone']}'s clock")
    for section in ("overdue", "upcoming", "someday", "done"):
        for task in doc.get(section, []) if doc.get("command", "").startswith("list --") else []:
            for key in ("due", "start", "completed"):
                if key in task and "T" in task[key]:
                    t = datetime.fromisoformat(task[key])
                    if t.utcoffset() != t.astimezone(zone).utcoffset():
                        found.append(f"task {task['uid']} {key} {task[key]}: not on {doc['timeZone']}'s clock")
    return found


def check_paging(horari, gym, work):
    first = json.loads(run(horari, ["list", "--from", "2026-11-23", "--limit", "3", "--calendar", gym, "--format", "json"], work))
    both = json.loads(run(horari, ["list", "--from", "2026-11-23", "--limit", "6", "--calendar", gym, "--format", "json"], work))
    token = first.get("nextPage")
    if not token:
        print("FAIL paging: the first page of three has no nextPage")
        return 1
    second = json.loads(run(horari, ["list", "--page", token, "--limit", "3", "--calendar", gym, "--format", "json"], work))
    ids = lambda d: [(o["uid"], o.get("recurrenceId")) for s in d["sections"] for o in s["occurrences"]]
    if ids(first) + ids(second) != ids(both):
        print(f"FAIL paging: pages {ids(first)} + {ids(second)} are not {ids(both)}")
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
