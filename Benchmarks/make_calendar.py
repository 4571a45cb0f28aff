#!/usr/bin/env python3
"""The whole-process benchmarks' calendar: a synthetic .ics written as a
calendar app writes one, independently of Horari's own exporter.

    python3 Benchmarks/make_calendar.py OUT.ics [--events 50000] [--seed 7] [--zone Europe/Madrid]

50,000 VEVENTs in ten zones (one compact VTIMEZONE each, its rules as
RRULEs): 69% single timed events, 30% weekly series with COUNT or UNTIL (a
third of them with EXDATEs), 1% RECURRENCE-ID overrides of those series; most
carry a 150–250-byte DESCRIPTION; every line folded at 75 octets, CRLF. About
20.8 MB. Python's standard library only; a fixed seed gives the same file.
"""
import argparse
import random
from datetime import datetime, timedelta

# (TZID, standard offset, standard name, daylight offset, daylight name,
#  DST start rule, DST end rule, start DTSTART, end DTSTART) — the zones'
# current rules, as Google and Apple write a compact VTIMEZONE.
ZONES = [
    ("Europe/Madrid", "+0100", "CET", "+0200", "CEST", "FREQ=YEARLY;BYMONTH=3;BYDAY=-1SU", "FREQ=YEARLY;BYMONTH=10;BYDAY=-1SU", "19700329T020000", "19701025T030000"),
    ("Europe/London", "+0000", "GMT", "+0100", "BST", "FREQ=YEARLY;BYMONTH=3;BYDAY=-1SU", "FREQ=YEARLY;BYMONTH=10;BYDAY=-1SU", "19700329T010000", "19701025T020000"),
    ("America/New_York", "-0500", "EST", "-0400", "EDT", "FREQ=YEARLY;BYMONTH=3;BYDAY=2SU", "FREQ=YEARLY;BYMONTH=11;BYDAY=1SU", "19700308T020000", "19701101T020000"),
    ("America/Los_Angeles", "-0800", "PST", "-0700", "PDT", "FREQ=YEARLY;BYMONTH=3;BYDAY=2SU", "FREQ=YEARLY;BYMONTH=11;BYDAY=1SU", "19700308T020000", "19701101T020000"),
    ("Australia/Sydney", "+1000", "AEST", "+1100", "AEDT", "FREQ=YEARLY;BYMONTH=10;BYDAY=1SU", "FREQ=YEARLY;BYMONTH=4;BYDAY=1SU", "19701004T020000", "19700405T030000"),
    ("Pacific/Auckland", "+1200", "NZST", "+1300", "NZDT", "FREQ=YEARLY;BYMONTH=9;BYDAY=-1SU", "FREQ=YEARLY;BYMONTH=4;BYDAY=1SU", "19700927T020000", "19700405T030000"),
    ("Asia/Tokyo", "+0900", "JST", None, None, None, None, "19700101T000000", None),
    ("Asia/Kolkata", "+0530", "IST", None, None, None, None, "19700101T000000", None),
    ("America/Sao_Paulo", "-0300", "-03", None, None, None, None, "19700101T000000", None),
    ("Africa/Johannesburg", "+0200", "SAST", None, None, None, None, "19700101T000000", None),
]

WORDS = ("bring water towel warm-up stretching intervals core mobility rest notes level coach "
         "squat deadlift bench press rowing sprint recovery breathing balance, plank; cardio").split()
TITLES = ["Yoga", "Spinning", "HIIT", "Pilates", "Boxing", "Zumba", "Strength", "Swim", "Physio", "Team meeting"]
DAYS = ["MO", "TU", "WE", "TH", "FR", "SA", "SU"]


def fold(line):
    """RFC 5545 §3.1: lines longer than 75 octets continue after CRLF + space."""
    data = line.encode("utf-8")
    out, first = [], True
    while data:
        limit = 75 if first else 74
        cut = min(limit, len(data))
        while cut < len(data) and (data[cut] & 0xC0) == 0x80:
            cut -= 1
        out.append((b"" if first else b" ") + data[:cut])
        data, first = data[cut:], False
    return b"\r\n".join(out) + b"\r\n"


def text(value):
    return value.replace("\\", "\\\\").replace(";", "\\;").replace(",", "\\,").replace("\n", "\\n")


def vtimezone(z):
    tzid, std, stdname, dst, dstname, dstrule, stdrule, start, end = z
    lines = ["BEGIN:VTIMEZONE", "TZID:" + tzid]
    if dst is None:
        lines += ["BEGIN:STANDARD", "DTSTART:" + start, "TZOFFSETFROM:" + std, "TZOFFSETTO:" + std,
                  "TZNAME:" + stdname, "END:STANDARD"]
    else:
        lines += ["BEGIN:DAYLIGHT", "DTSTART:" + start, "RRULE:" + dstrule, "TZOFFSETFROM:" + std,
                  "TZOFFSETTO:" + dst, "TZNAME:" + dstname, "END:DAYLIGHT",
                  "BEGIN:STANDARD", "DTSTART:" + end, "RRULE:" + stdrule, "TZOFFSETFROM:" + dst,
                  "TZOFFSETTO:" + std, "TZNAME:" + stdname, "END:STANDARD"]
    lines.append("END:VTIMEZONE")
    return lines


def description(rng):
    target = rng.randint(150, 250)
    words = []
    while len(" ".join(words)) < target:
        words.append(rng.choice(WORDS))
    return " ".join(words)[:target]


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("out")
    p.add_argument("--events", type=int, default=50_000)
    p.add_argument("--seed", type=int, default=7)
    p.add_argument("--zone", help="the calendar's own zone, as Google writes it (X-WR-TIMEZONE); none by default")
    a = p.parse_args()
    rng = random.Random(a.seed)
    base = datetime(2024, 1, 1)
    stamp = "20261101T120000Z"
    with open(a.out, "wb") as f:
        head = ["BEGIN:VCALENDAR", "VERSION:2.0", "PRODID:-//Horari//Benchmark calendar//EN", "CALSCALE:GREGORIAN",
                "X-WR-CALNAME:Whole-process benchmark"] + (["X-WR-TIMEZONE:" + a.zone] if a.zone else [])
        for z in ZONES:
            head += vtimezone(z)
        f.write(b"".join(fold(l) for l in head))
        overrides = max(1, a.events // 100)
        series = []  # (uid, tzid, start) of weekly series, for the overrides
        for i in range(a.events - overrides):
            tzid = ZONES[i % len(ZONES)][0]
            start = base + timedelta(days=rng.randrange(3 * 366), hours=rng.randint(6, 21), minutes=rng.choice([0, 15, 30, 45]))
            minutes = rng.choice([30, 45, 60, 90])
            uid = f"bench-{i:06d}@horari.example"
            lines = ["BEGIN:VEVENT", "UID:" + uid, "DTSTAMP:" + stamp,
                     f"DTSTART;TZID={tzid}:{start:%Y%m%dT%H%M%S}",
                     f"DTEND;TZID={tzid}:{start + timedelta(minutes=minutes):%Y%m%dT%H%M%S}",
                     "SUMMARY:" + text(f"{rng.choice(TITLES)} {i}")]
            if rng.random() < 0.9:
                lines.append("DESCRIPTION:" + text(description(rng)))
            if rng.random() < 0.3:
                lines.append("LOCATION:" + text(rng.choice(["Studio B, Harbour Gym", "Sala 1", "Pool", "Room 4 (second floor)"])))
            if i % 10 < 3:  # 30%: a weekly series
                rule = f"FREQ=WEEKLY;BYDAY={DAYS[start.weekday()]}"
                if rng.random() < 0.5:
                    rule += f";COUNT={rng.randint(5, 150)}"
                else:
                    rule += f";UNTIL={start + timedelta(days=rng.randint(30, 1000)):%Y%m%d}T235959Z"
                lines.append("RRULE:" + rule)
                excluded = []
                if rng.random() < 1 / 3:
                    excluded = sorted(rng.sample(range(1, 20), rng.randint(1, 4)))
                    for k in excluded:
                        lines.append(f"EXDATE;TZID={tzid}:{start + timedelta(weeks=k):%Y%m%dT%H%M%S}")
                series.append((uid, tzid, start, minutes, i, excluded))
            lines.append("END:VEVENT")
            f.write(b"".join(fold(l) for l in lines))
        for k in range(overrides):
            uid, tzid, start, minutes, i, excluded = series[(k * 7919) % len(series)]
            # An instance the series has (not one an EXDATE removed: peers
            # disagree on whether such a change still shows).
            week = rng.choice([w for w in range(1, 5) if w not in excluded] or [5])
            original = start + timedelta(weeks=week)
            moved = original + timedelta(hours=rng.choice([-2, -1, 1, 2]))
            lines = ["BEGIN:VEVENT", "UID:" + uid, "DTSTAMP:" + stamp,
                     f"RECURRENCE-ID;TZID={tzid}:{original:%Y%m%dT%H%M%S}",
                     f"DTSTART;TZID={tzid}:{moved:%Y%m%dT%H%M%S}",
                     f"DTEND;TZID={tzid}:{moved + timedelta(minutes=minutes):%Y%m%dT%H%M%S}",
                     "SUMMARY:" + text(f"{rng.choice(TITLES)} {i} (moved)"), "SEQUENCE:1",
                     "DESCRIPTION:" + text(description(rng)), "END:VEVENT"]
            f.write(b"".join(fold(l) for l in lines))
        f.write(fold("END:VCALENDAR"))


if __name__ == "__main__":
    main()
