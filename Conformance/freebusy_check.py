#!/usr/bin/env python3
"""A calendar's busy time as Horari works it out and as Radicale's
free-busy-query REPORT (RFC 4791 §7.10) answers it, compared (issue 32, 4).

    python3 Conformance/freebusy_check.py .build/release/horari

Radicale is started from this Python's packages on 127.0.0.1 and stopped by
its process id. Into one collection go the sample gym (weekly classes,
sessions, a cancelled one) and a coach's own calendar with what free/busy
must tell apart: an event in another zone, a weekly rule with an exception
and a moved instance, a TENTATIVE event, a TRANSPARENT one, a CANCELLED one
and one across midnight. For several windows, `horari freebusy --calendar
URL` (reading the collection as any client would) and the server's REPORT
must give the same BUSY and BUSY-TENTATIVE periods, read by `icalendar`.

The one difference, by decision: Radicale writes a cancelled event as an
FBTYPE=FREE period. A FREE period takes no time; Horari writes no period
for what takes none. FREE periods are listed, not compared.

The same check runs on `horari sessions free --format ics` for the sample's
coach: its BUSY periods must cover every session of the coach in the window
(with the buffer), and its BUSY-UNAVAILABLE ones the hours not worked.
"""
import os
import shutil
import subprocess
import sys
import tempfile
import urllib.request

import icalendar

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from radicale_server import Radicale  # noqa: E402

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
SAMPLE = os.path.join(ROOT, "Examples", "Samples", "gym.ics")
USER = "marc"

OWN = """BEGIN:VCALENDAR
VERSION:2.0
PRODID:-//Horari conformance//freebusy//EN
BEGIN:VTIMEZONE
TZID:Europe/London
BEGIN:STANDARD
DTSTART:19701025T020000
RRULE:FREQ=YEARLY;BYMONTH=10;BYDAY=-1SU
TZOFFSETFROM:+0100
TZOFFSETTO:+0000
TZNAME:GMT
END:STANDARD
BEGIN:DAYLIGHT
DTSTART:19700329T010000
RRULE:FREQ=YEARLY;BYMONTH=3;BYDAY=-1SU
TZOFFSETFROM:+0000
TZOFFSETTO:+0100
TZNAME:BST
END:DAYLIGHT
END:VTIMEZONE
BEGIN:VEVENT
UID:own-dentist
DTSTAMP:20261120T100000Z
DTSTART;TZID=Europe/London:20261126T090000
DTEND;TZID=Europe/London:20261126T100000
SUMMARY:Dentist
END:VEVENT
BEGIN:VEVENT
UID:own-run
DTSTAMP:20261120T100000Z
DTSTART:20261123T110000Z
DURATION:PT1H
RRULE:FREQ=WEEKLY;BYDAY=MO,TH;COUNT=8
EXDATE:20261130T110000Z
SUMMARY:Running club
END:VEVENT
BEGIN:VEVENT
UID:own-run
DTSTAMP:20261120T100000Z
RECURRENCE-ID:20261203T110000Z
DTSTART:20261203T140000Z
DURATION:PT1H30M
SUMMARY:Running club (moved)
END:VEVENT
BEGIN:VEVENT
UID:own-maybe
DTSTAMP:20261120T100000Z
DTSTART:20261127T170000Z
DTEND:20261127T180000Z
STATUS:TENTATIVE
SUMMARY:Maybe drinks
END:VEVENT
BEGIN:VEVENT
UID:own-note
DTSTAMP:20261120T100000Z
DTSTART:20261127T080000Z
DTEND:20261127T090000Z
TRANSP:TRANSPARENT
SUMMARY:A reminder that takes no time
END:VEVENT
BEGIN:VEVENT
UID:own-off
DTSTAMP:20261120T100000Z
DTSTART:20261128T100000Z
DTEND:20261128T120000Z
STATUS:CANCELLED
SUMMARY:Called off
END:VEVENT
BEGIN:VEVENT
UID:own-night
DTSTAMP:20261120T100000Z
DTSTART:20261128T220000Z
DTEND:20261129T020000Z
SUMMARY:Night shift
END:VEVENT
END:VCALENDAR
""".replace("\n", "\r\n")

WINDOWS = [("20261123T000000Z", "20261130T000000Z"), ("20261126T093000Z", "20261126T113000Z"),
           ("20261128T230000Z", "20261205T000000Z"), ("20261101T000000Z", "20270101T000000Z")]


def periods(text, kinds=("BUSY", "BUSY-TENTATIVE", "BUSY-UNAVAILABLE")):
    cal = icalendar.Calendar.from_ical(text)
    out, free = [], []
    for fb in cal.walk("VFREEBUSY"):
        lines = fb.get("FREEBUSY", [])
        lines = lines if isinstance(lines, list) else [lines]
        for line in lines:
            kind = line.params.get("FBTYPE", "BUSY")
            for start, end in ([line.dt] if isinstance(line.dt, tuple) else line.dt):
                if isinstance(end, __import__("datetime").timedelta):
                    end = start + end
                item = (start.strftime("%Y%m%dT%H%M%SZ"), end.strftime("%Y%m%dT%H%M%SZ"), kind)
                (out if kind in kinds else free).append(item)
    return sorted(out), sorted(free)


def report(base, start, end):
    body = ('<?xml version="1.0" encoding="utf-8"?><C:free-busy-query xmlns:C="urn:ietf:params:xml:ns:caldav">'
            f'<C:time-range start="{start}" end="{end}"/></C:free-busy-query>').encode()
    req = urllib.request.Request(base, data=body, method="REPORT", headers={"Content-Type": "application/xml", "Depth": "1"})
    req.add_header("Authorization", "Basic bWFyYzptYXJj")
    with urllib.request.urlopen(req, timeout=60) as r:
        return r.read().decode()


def main():
    horari = os.path.abspath(sys.argv[1])
    work = tempfile.mkdtemp(prefix="horari-freebusy-")
    failures = []
    server = Radicale(work)
    try:
        env = dict(os.environ, XDG_CACHE_HOME=os.path.join(work, "cache"), HORARI_CALDAV_USER=USER, HORARI_CALDAV_PASSWORD=USER,
                   TZ="Asia/Tokyo", NO_COLOR="1")
        env.pop("HORARI_CALDAV_URL", None)
        url = server.base + "/%s/own/" % USER
        own = os.path.join(work, "own.ics")
        open(own, "w", newline="").write(OWN)
        for source in (SAMPLE, own):
            r = subprocess.run([horari, "import", source, "--into", url], capture_output=True, text=True, env=env, timeout=300)
            if r.returncode != 0:
                raise SystemExit(f"FAIL: importing {source} into Radicale: {r.stderr.strip()}")
        compared = 0
        for start, end in WINDOWS:
            server_busy, server_free = periods(report(url, start, end))
            day = lambda t: f"{t[0:4]}-{t[4:6]}-{t[6:8]}"
            # The window is whole days in UTC for the CLI, its --to the last day
            # included (a window ending at midnight ends the day before); narrower
            # windows are clipped here.
            last = __import__("datetime").date.fromisoformat(day(end))
            if end[9:] == "000000Z":
                last -= __import__("datetime").timedelta(days=1)
            r = subprocess.run([horari, "freebusy", "--calendar", url, "--from", day(start), "--to", last.isoformat(),
                                "--time-zone", "UTC"], capture_output=True, text=True, env=env, timeout=300)
            if r.returncode != 0:
                failures.append(f"horari freebusy {start}..{end}: {r.stderr.strip()}")
                continue
            ours, _ = periods(r.stdout)
            ours = sorted((max(s, start), min(e, end), k) for s, e, k in ours if s < end and e > start)
            compared += len(ours)
            if ours != server_busy:
                failures.append(f"{start}..{end}: Radicale says {server_busy}, horari {ours}")
            print(f"freebusy_check: {start}..{end}: {len(ours)} busy periods agree" if ours == server_busy else "",
                  f"(Radicale's FREE periods, for cancelled events, not compared: {server_free})" if server_free else "")
        # The coach's own availability: sessions with buffers, hours not worked.
        sample = os.path.join(work, "gym.ics")
        shutil.copy(SAMPLE, sample)
        r = subprocess.run([horari, "sessions", "free", "--coach", "marc", "--from", "2026-11-23", "--to", "2026-11-27", "--format", "ics",
                            "--calendar", sample, "--now", "2026-11-22 10:00"], capture_output=True, text=True, env=env, timeout=300)
        if r.returncode != 0:
            failures.append(f"sessions free --format ics: {r.stderr.strip()}")
        else:
            coach, _ = periods(r.stdout)
            busy = [p for p in coach if p[2] == "BUSY"]
            unavailable = [p for p in coach if p[2] == "BUSY-UNAVAILABLE"]
            # The sample's 17:00 Madrid session on Thursday 26 with Marc's 10-minute buffer, 15:50Z to 17:10Z.
            if ("20261126T155000Z", "20261126T171000Z", "BUSY") not in busy:
                failures.append(f"the session of 2026-11-26 17:00 with its buffer is not BUSY: {busy}")
            if ("20261122T230000Z", "20261123T080000Z", "BUSY-UNAVAILABLE") not in unavailable:
                failures.append(f"the night before Monday's 09:00 is not BUSY-UNAVAILABLE: {unavailable}")
            for a in busy:
                for b in unavailable:
                    if a[0] < b[1] and b[0] < a[1]:
                        failures.append(f"{a} and {b} say one instant twice")
        print(f"freebusy_check: {compared} busy periods compared with Radicale's free-busy-query over {len(WINDOWS)} windows, {len(failures)} failures")
        for f in failures:
            print("FAIL:", f)
        sys.exit(1 if failures else 0)
    finally:
        server.stop()
        shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    main()
