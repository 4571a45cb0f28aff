#!/usr/bin/env python3
"""What a view, free/busy and the JSON stream cost against their window (issue 42, 3 and 4).

Whole `horari` processes, each child's time and peak memory from os.wait4,
the cases alternating round by round, medians with the spread (min–max):

- `day` of an hour-long event repeating every second (86,400 occurrences
  touch the day; goal ≤ 0.5 s), beside `day` of a one-event file (a
  process's own start);
- `day` of N and 4N events on one day (goal: N = 50,000 within 2 s, and
  linear: the ratio of the two, each less a process's own start, near 4);
- `freebusy` over a century of a minutely event (goal: bounded, ≤ 1 GB or
  refused naming the cap) and over one year of it;
- `occurrences --format json` against `--format jsonl` over a day of a
  secondly event, no cap (86,400 occurrences; goal: json ≤ 1.2× jsonl).

With --before PATH, every case runs on that binary too (in the same
rounds), for a before/after from one run.

Usage: window_bench.py --horari .build/static/release/horari [--before OLD] [--rounds 5] [--quick]
--quick (CI's `make bench-quick`): N = 5,000, one round; its figures say nothing.
"""
import argparse
import os
import platform
import statistics
import subprocess
import sys
import shutil
import tempfile
import threading
import time


def header():
    return "BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:-//Horari bench//window//EN\r\n"


def write(path, body):
    with open(path, "w", newline="") as f:
        f.write(header() + body + "END:VCALENDAR\r\n")


def event(uid, start, length, extra=""):
    return f"BEGIN:VEVENT\r\nUID:{uid}\r\nDTSTAMP:20260101T000000Z\r\nDTSTART:{start}\r\nDURATION:{length}\r\nSUMMARY:{uid}\r\n{extra}END:VEVENT\r\n"


def one_day(path, n, seed=7):
    # A linear congruential generator: the same file on every machine. Written
    # as it is made: a child's peak (ru_maxrss) counts what this process held
    # when it forked, and a 200,000-event text held whole made every peak 135 MB.
    state = seed
    with open(path, "w", newline="") as f:
        f.write(header())
        for i in range(n):
            state = (state * 6364136223846793005 + 1442695040888963407) % 2**64
            minute = (state >> 33) % (23 * 60)
            length = [15, 30, 45, 60][(state >> 20) % 4]
            f.write(event(f"e{i}@bench", f"20261125T{minute // 60:02d}{minute % 60:02d}00Z", f"PT{length}M"))
        f.write("END:VCALENDAR\r\n")


def run(args, limit=60):
    """Seconds of wall time and peak resident kilobytes (Linux's unit) of one process, and its
    exit status (-9 when it was stopped at `limit` seconds: an earlier horari on the century of
    free/busy). The wait blocks; a timer stops a process that runs past the limit."""
    start = time.perf_counter()
    child = subprocess.Popen(args, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    timer = threading.Timer(limit, child.kill)
    timer.start()
    _, status, usage = os.wait4(child.pid, 0)
    timer.cancel()
    return time.perf_counter() - start, usage.ru_maxrss, os.waitstatus_to_exitcode(status)


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--horari", required=True)
    parser.add_argument("--before", help="an earlier horari, run in the same rounds")
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--quick", action="store_true")
    options = parser.parse_args()
    n = 5_000 if options.quick else 50_000
    rounds = 1 if options.quick else options.rounds
    work = tempfile.mkdtemp(prefix="horari-window-bench-")
    files = {name: os.path.join(work, name + ".ics") for name in ("single", "hour", "minutely", "secondly", "n", "4n")}
    write(files["single"], event("one@bench", "20260101T090000Z", "PT1H"))
    write(files["hour"], event("tick@bench", "20260101T000000Z", "PT1H", "RRULE:FREQ=SECONDLY\r\n"))
    write(files["minutely"], event("min@bench", "20260101T000000Z", "PT30S", "RRULE:FREQ=MINUTELY\r\n"))
    write(files["secondly"], event("sec@bench", "20260101T000000Z", "PT1S", "RRULE:FREQ=SECONDLY\r\n"))
    one_day(files["n"], n)
    one_day(files["4n"], 4 * n)
    cases = [
        ("day, one event (a process's start)", ["day", "2026-01-01", "--calendar", files["single"], "--time-zone", "UTC"]),
        ("day, an hour-long event every second", ["day", "2026-01-01", "--calendar", files["hour"], "--time-zone", "UTC"]),
        (f"day, {n:,} events on it", ["day", "2026-11-25", "--calendar", files["n"], "--time-zone", "UTC"]),
        (f"day, {4 * n:,} events on it", ["day", "2026-11-25", "--calendar", files["4n"], "--time-zone", "UTC"]),
        ("freebusy, a century of a minutely event", ["freebusy", "--calendar", files["minutely"], "--from", "2026-01-01", "--to", "2125-12-31", "--time-zone", "UTC"]),
        ("freebusy, a month of it" if options.quick else "freebusy, a year of it",
         ["freebusy", "--calendar", files["minutely"], "--from", "2026-01-01", "--to", "2026-01-31" if options.quick else "2026-12-31", "--time-zone", "UTC"]),
        ("occurrences --format jsonl, 86,400", ["occurrences", files["secondly"], "--from", "2026-01-01", "--to", "2026-01-01", "--max-per-series", "0", "--format", "jsonl"]),
        ("occurrences --format json, 86,400", ["occurrences", files["secondly"], "--from", "2026-01-01", "--to", "2026-01-01", "--max-per-series", "0", "--format", "json"]),
    ]
    binaries = [("after", options.horari)] + ([("before", options.before)] if options.before else [])
    times = {}
    # Round by round, every case on every binary, so a busy moment falls on all of them.
    for _ in range(rounds):
        for label, args in cases:
            for which, binary in binaries:
                # A binary that never ends a case (the century of free/busy before its cap) is stopped at 60 s (run).
                try:
                    result = run([binary] + args)
                except OSError as error:
                    sys.exit(f"window_bench: cannot run {binary}: {error}")
                times.setdefault((label, which), []).append(result)
    print(f"machine: {platform.node()}, {os.cpu_count()} cores, {platform.platform()}; {rounds} round(s), medians (min–max)")
    print()
    print("| case | " + " | ".join(f"{which}: s (spread), peak MB, exit" for which, _ in binaries) + " |")
    print("|---|" + "---|" * len(binaries))
    medians = {}
    for label, _ in cases:
        cells = []
        for which, _ in binaries:
            runs = times[(label, which)]
            seconds = [r[0] for r in runs]
            median = statistics.median(seconds)
            medians[(label, which)] = median
            peak = max(r[1] for r in runs) / 1024
            codes = sorted({r[2] for r in runs})
            killed = " (stopped at 60 s)" if -9 in codes else ""
            cells.append(f"{median:.2f} ({min(seconds):.2f}–{max(seconds):.2f}), {peak:.0f}, {'/'.join(map(str, codes))}{killed}")
        print(f"| {label} | " + " | ".join(cells) + " |")
    print()
    for which, _ in binaries:
        json = medians[("occurrences --format json, 86,400", which)]
        jsonl = medians[("occurrences --format jsonl, 86,400", which)]
        # Less a process's own start, so that what grows with the day is compared.
        start = medians[("day, one event (a process's start)", which)]
        small = medians[(f"day, {n:,} events on it", which)] - start
        large = medians[(f"day, {4 * n:,} events on it", which)] - start
        print(f"{which}: json / jsonl = {json / jsonl:.2f} (goal ≤ 1.2); day of {4 * n:,} / day of {n:,}, less a process's start = {large / small:.2f} (linear: 4)")
    shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    main()
