#!/usr/bin/env python3
"""A gym calendar with YEARS of booking history, for the `book` benchmark.

    python3 Benchmarks/make_gym.py OUT.ics --years 20 [--members 2000]

The file is what `horari` itself stores (the sample's form,
Examples/Samples/gym.ics; the book's form is described in
Docs/SchedulingICalendar.md): five weekly classes in Europe/Madrid, 2,000
members as VJOURNALs, and for each past occurrence its class's
RECURRENCE-ID instance with its booked members as ATTENDEEs — the history
ends on 2026-11-22, the classes run on. Python's standard library only;
fixed seed.
"""
import argparse
import random
from datetime import date, timedelta

CLASSES = [  # id, title, weekdays (Mon=0), time, minutes, capacity
    ("yoga", "Yoga", (0, 2), "183000", 60, 12),
    ("pilates", "Reformer Pilates", (3,), "190000", 50, 8),
    ("spin", "Spinning", (4,), "070000", 45, 10),
    ("hiit", "HIIT", (1,), "200000", 45, 10),
    ("swim", "Swim technique", (5,), "100000", 60, 6),
]
DAYS = ["MO", "TU", "WE", "TH", "FR", "SA", "SU"]
END = date(2026, 11, 22)

VTIMEZONE = """BEGIN:VTIMEZONE
TZID:Europe/Madrid
BEGIN:STANDARD
DTSTART:19701025T030000
TZOFFSETFROM:+0200
TZOFFSETTO:+0100
RRULE:FREQ=YEARLY;BYMONTH=10;BYDAY=-1SU
TZNAME:CET
END:STANDARD
BEGIN:DAYLIGHT
DTSTART:19700329T020000
TZOFFSETFROM:+0100
TZOFFSETTO:+0200
RRULE:FREQ=YEARLY;BYMONTH=3;BYDAY=-1SU
TZNAME:CEST
END:DAYLIGHT
END:VTIMEZONE""".split("\n")


def folded(line):
    """A content line folded at 75 octets (RFC 5545 §3.1), as the exporter writes it (ASCII here)."""
    out = [line[:75]]
    line = line[75:]
    while line:
        out.append(" " + line[:74])
        line = line[74:]
    return out


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("out")
    p.add_argument("--years", type=int, default=20)
    p.add_argument("--members", type=int, default=2000)
    p.add_argument("--seed", type=int, default=11)
    a = p.parse_args()
    rng = random.Random(a.seed)
    first = END - timedelta(days=365 * a.years)
    first -= timedelta(days=first.weekday())  # a Monday
    lines = ["BEGIN:VCALENDAR", "VERSION:2.0", "PRODID:-//Horari//Benchmark gym//EN", "CALSCALE:GREGORIAN",
             "X-WR-CALNAME:Benchmark gym", "X-WR-TIMEZONE:Europe/Madrid", "X-HORARI-TIMEZONE:Europe/Madrid"]
    lines += VTIMEZONE
    members = [f"m{i:04d}" for i in range(a.members)]
    # Each class: its series, then its booked occurrences in date order, as
    # the book writes them.
    for cid, title, days, time, minutes, capacity in CLASSES:
        start = first + timedelta(days=days[0])
        lines += ["BEGIN:VEVENT", "UID:" + cid, "DTSTAMP:20261101T080000Z",
                  f"DTSTART;TZID=Europe/Madrid:{start:%Y%m%d}T{time}", f"DURATION:PT{minutes}M",
                  "RRULE:FREQ=WEEKLY;BYDAY=" + ",".join(DAYS[d] for d in days), "SUMMARY:" + title,
                  f"X-HORARI-CAPACITY:{capacity}", "END:VEVENT"]
        day = first
        while day < END:
            if day.weekday() in days:
                booked = rng.sample(members, rng.randint(2, min(6, capacity)))
                lines += ["BEGIN:VEVENT", "UID:" + cid, "DTSTAMP:20261101T080000Z",
                          f"RECURRENCE-ID;TZID=Europe/Madrid:{day:%Y%m%d}T{time}", f"DTSTART;TZID=Europe/Madrid:{day:%Y%m%d}T{time}",
                          f"DURATION:PT{minutes}M", "SUMMARY:" + title]
                for m in booked:
                    lines += folded(f"ATTENDEE;CN=Member {m[1:]};PARTSTAT=ACCEPTED;X-HORARI-MEMBER={m}:urn:x-horari:member:{m}")
                lines.append("END:VEVENT")
            day += timedelta(days=1)
    for m in members:
        lines += ["BEGIN:VJOURNAL", "DTSTAMP:20261101T080000Z", f"UID:member:{m}", f"SUMMARY:Member {m[1:]}",
                  "CATEGORIES:horari-member", "CLASS:PRIVATE", f"ATTENDEE;CN=Member {m[1:]}:urn:x-horari:member:{m}", "END:VJOURNAL"]
    lines.append("END:VCALENDAR")
    with open(a.out, "w", newline="") as f:
        f.write("".join(l + "\r\n" for l in lines))


if __name__ == "__main__":
    main()
