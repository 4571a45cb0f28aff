#!/usr/bin/env python3
"""Horari's alarm moments against Python's icalendar (issue 31, 1).

For every .ics file with a VALARM in the corpora (icalendar's and
recurring-ical-events' test calendars: Thunderbird, Google, Etar, RFC 9074's
examples) and for Horari's crafted cases (Tests/Fixtures/ics/alarms.ics:
clock changes both ways, a moved instance, an EXDATE, REPEAT, RELATED=END,
absolute triggers, an all-day event, a task with only DUE):

  the referee: recurring-ical-events expands the occurrences (each changed
  instance with its own VALARMs, as RFC 5545 has it) and icalendar's
  `Alarms` computes each occurrence's alarm times (`Alarms.times`: every
  alarm, acknowledged or not: Horari has no acknowledgement state);
  ours: `horari alarms --calendar FILE --from A --to B --time-zone Z --format json`.

Both sides are compared as sets of (UID, UTC instant) over the same window,
after two rules Horari documents and the referee has no notion of: nothing
rings for a cancelled item (STATUS:CANCELLED) or a completed task. Every
difference must be recorded in alarm_differences.json with its reason (and
every recorded one must still occur); the reasons are RFC 5545's, written in
Docs/Reminders.md:

  * a trigger in hours or minutes across a clock change: RFC 5545 §3.3.6
    makes hours exact, and icalendar adds them to the wall time (Python's
    aware arithmetic), an hour off on those nights;
  * a trigger further than a year away, a REPEAT without DURATION: Horari
    names the alarm as one that cannot go off (with its line) rather than
    guess; icalendar computes them.

Usage: alarms_check.py HORARI_BINARY CORPUS_DIR [--update]
Exit status 0 when everything matches the expectations, 1 otherwise.
"""
import datetime as dt
import json
import os
import re
import subprocess
import sys
import zoneinfo

import icalendar
import recurring_ical_events
from icalendar.alarms import Alarms

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(HERE)
DIFFERENCES = os.path.join(HERE, "alarm_differences.json")
CRAFTED = [("Tests/Fixtures/ics/alarms.ics", "Europe/Madrid"), ("Tests/Fixtures/ics/gym.ics", "Europe/Madrid")]
UTC = dt.timezone.utc


def files(corpus):
    for root, _, names in os.walk(corpus):
        for name in sorted(names):
            if name.endswith(".ics"):
                path = os.path.join(root, name)
                with open(path, "rb") as f:
                    if b"BEGIN:VALARM" in f.read():
                        yield path


def window(text):
    """From a year before the first event's or task's DTSTART or DUE to two
    years after the last (at most 40 years), as dates: each side reads them
    at midnight on the same clock."""
    years = []
    for block in re.findall(r"^BEGIN:(?:VEVENT|VTODO)\r?$(.*?)^END:(?:VEVENT|VTODO)\r?$", text, re.M | re.S):
        years += [int(m) for m in re.findall(r"^(?:DTSTART|DUE)[^:\r\n]*:(\d{4})", block, re.M)]
    first, last = (min(years), max(years)) if years else (2020, 2020)
    return dt.date(first - 1, 1, 1), dt.date(min(last + 3, first + 40), 1, 1)


def to_utc(t, zone):
    if not isinstance(t, dt.datetime):
        t = dt.datetime(t.year, t.month, t.day)
    if t.tzinfo is None:
        t = t.replace(tzinfo=zone)
    return t.astimezone(UTC)


def peer(path, zone_name, start, end):
    """{(uid, 'YYYY-MM-DDTHH:MM:SSZ')} and the UIDs icalendar could not compute."""
    zone = zoneinfo.ZoneInfo(zone_name)
    start, end = (dt.datetime(d.year, d.month, d.day, tzinfo=zone).astimezone(UTC) for d in (start, end))
    with open(path, "rb") as f:
        cal = icalendar.Calendar.from_ical(f.read())
    reach = dt.timedelta(days=400)
    found, failed = set(), set()
    for occ in recurring_ical_events.of(cal, components=["VEVENT", "VTODO"]).between(start - reach, end + reach):
        uid = str(occ.get("UID", ""))
        status = str(occ.get("STATUS", "")).upper()
        if status == "CANCELLED" or (occ.name == "VTODO" and status == "COMPLETED"):
            continue
        if not occ.walk("VALARM"):
            continue
        try:
            alarms = Alarms(occ)
            # When each alarm is set to go off, not Thunderbird's snooze
            # (X-MOZ-SNOOZE-TIME): Horari keeps no snooze or acknowledgement.
            alarms.snooze_until(None)
            # Floating and all-day results are placed on the clock by to_utc,
            # not by set_local_timezone: icalendar 7.3.0 fails on a date
            # result there (date.replace(tzinfo=…), a TypeError).
            times = [a.trigger for a in alarms.times]
        except Exception:  # icalendar: ComponentStartMissing, ComponentEndMissing, bad values
            failed.add(uid)
            continue
        for t in times:
            u = to_utc(t, zone)
            if start <= u < end:
                found.add((uid, u.strftime("%Y-%m-%dT%H:%M:%SZ")))
    return found, failed


def ours(horari, path, zone_name, start, end):
    cmd = [horari, "alarms", "--calendar", path, "--from", start.strftime("%Y-%m-%d"), "--to", (end - dt.timedelta(days=1)).strftime("%Y-%m-%d"),
           "--time-zone", zone_name, "--format", "json"]
    p = subprocess.run(cmd, capture_output=True, timeout=300)
    if p.returncode != 0:
        return None, p.stderr.decode("utf-8", "replace").strip()
    doc = json.loads(p.stdout)
    found = set()
    for a in doc["alarms"]:
        t = dt.datetime.fromisoformat(a["time"]).astimezone(UTC)
        found.add((a["uid"], t.strftime("%Y-%m-%dT%H:%M:%SZ")))
    return found, sorted(p["uid"] for p in doc["problems"])


def main():
    if len(sys.argv) < 3:
        print(__doc__)
        return 2
    horari, corpus = sys.argv[1], sys.argv[2]
    update = "--update" in sys.argv
    recorded = json.load(open(DIFFERENCES)) if os.path.exists(DIFFERENCES) else {}
    cases = [(os.path.join(REPO, p), z) for p, z in CRAFTED] + [(p, "UTC") for p in files(corpus)]
    results, failures, agree, moments = {}, [], 0, 0
    for path, zone in cases:
        key = os.path.relpath(path, REPO) if path.startswith(REPO + os.sep) and "/.venv" not in path else os.path.relpath(path, corpus)
        text = open(path, encoding="utf-8", errors="replace").read()
        start, end = window(text)
        # The crafted files are read on their own clock (their floating and
        # all-day times are Madrid's), the corpus on UTC, on both sides.
        mine, problems = ours(horari, path, zone, start, end)
        if mine is None:
            failures.append(f"{key}: horari failed: {problems}")
            continue
        try:
            theirs, failed = peer(path, zone, start, end)
        except Exception as e:  # the referee cannot read the file at all
            theirs, failed = set(), {f"(file: {type(e).__name__})"}
        entry = {}
        if mine - theirs:
            entry["ours_only"] = sorted(" ".join(x) for x in mine - theirs)
        if theirs - mine:
            entry["peer_only"] = sorted(" ".join(x) for x in theirs - mine)
        if problems:
            entry["horari_problems"] = problems
        if failed:
            entry["peer_failed"] = sorted(failed)
        moments += len(mine)
        if mine == theirs and not failed:
            agree += 1
        if entry:
            results[key] = entry
            want = {k: v for k, v in recorded.get(key, {}).items() if k != "reason"}
            if not update and want != entry:
                failures.append(f"{key}: differs from the peer as not recorded:\n  now      {json.dumps(entry, sort_keys=True)}\n  recorded {json.dumps(want, sort_keys=True)}")
        elif key in recorded and not update:
            failures.append(f"{key}: recorded as different, but now agrees: remove it from alarm_differences.json")
    if update:
        for key, entry in results.items():
            entry["reason"] = recorded.get(key, {}).get("reason", "TODO: why (RFC 5545 section)")
        json.dump(results, open(DIFFERENCES, "w"), indent=1, sort_keys=True, ensure_ascii=False)
        print(f"wrote {DIFFERENCES}: review the reasons")
    for key, entry in recorded.items():
        if not entry.get("reason") or entry["reason"].startswith("TODO"):
            failures.append(f"{key}: a recorded difference has no reason")
    print(f"alarms: {len(cases)} files, {moments} alarm moments; icalendar computes the same moments for {agree} "
          f"files; {len(results)} differ, each as recorded in alarm_differences.json with its reason")
    for f in failures:
        print("FAIL", f)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
