#!/usr/bin/env python3
"""The CalDAV client before and after issue 29, in one run, against Radicale.

"Before" is the library's reference mode, HORARI_CALDAV_SESSION_PER_REQUEST=1:
a URLSession (and so a connection) of its own for every request, as the
client made before issue 29 (main at 3171234). It is the same code
otherwise, so the figures compare the transport alone. (One difference is
left: before, a call also blocked its thread on a semaphore; that costs no
time here, where one request runs at a time.) The two modes alternate,
round by round, so that a busy moment of the machine falls on both.

Measured (wall time of each whole process, the best of the rounds):
  gets     200 sequential GETs of one member through one client
           (Benchmarks/CalDAVBench): requests per second;
  month    `horari month` on a 2,000-member collection: with an empty cache
           (a sync, 20 multigets of 100) and with an up-to-date one (a sync);
  book     `horari book` of one member into a class of the sample gym, the
           desk's cache up to date.

Usage: caldav_bench.py --horari .build/release/horari --bench .build/release/CalDAVBench [--rounds 3]
Run it with the conformance environment's Python (it has Radicale):
  .venv-conformance/bin/python Benchmarks/caldav_bench.py ...
Not part of `make test`.
"""
import argparse
import datetime
import os
import platform
import shutil
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "Conformance"))
from radicale_server import Radicale  # noqa: E402

NOW = ["--now", "2026-11-23 09:00"]


def many_events(path, n):
    lines = ["BEGIN:VCALENDAR", "VERSION:2.0", "PRODID:-//Horari//bench//EN", "X-WR-TIMEZONE:Europe/Madrid"]
    for i in range(n):
        day = 1 + i % 28
        lines += ["BEGIN:VEVENT", "UID:bench-%d" % i, "DTSTAMP:20261101T000000Z",
                  "DTSTART:202611%02dT%02d0000Z" % (day, 6 + i % 12), "DURATION:PT1H", "SUMMARY:Event %d" % i, "END:VEVENT"]
    lines.append("END:VCALENDAR")
    with open(path, "w") as f:
        f.write("\r\n".join(lines) + "\r\n")


def timed(args, env):
    start = time.perf_counter()
    r = subprocess.run(args, capture_output=True, text=True, env=env, timeout=600)
    seconds = time.perf_counter() - start
    if r.returncode != 0:
        raise RuntimeError("%s: exit %d\n%s%s" % (" ".join(args), r.returncode, r.stdout[-500:], r.stderr[-800:]))
    return seconds, r.stdout


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--horari", required=True)
    parser.add_argument("--bench", required=True)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--members", type=int, default=2000)
    parser.add_argument("--gets", type=int, default=200)
    args = parser.parse_args()
    horari, bench = os.path.abspath(args.horari), os.path.abspath(args.bench)
    with tempfile.TemporaryDirectory() as work:
        server = Radicale(work)
        try:
            run(horari, bench, args, work, server)
        finally:
            server.stop()


def run(horari, bench, args, work, server):
    base = dict(os.environ, HORARI_CALDAV_USER="gym", HORARI_CALDAV_PASSWORD="bench", TZ="Europe/Madrid", NO_COLOR="1")
    env = {"after": dict(base), "before": dict(base, HORARI_CALDAV_SESSION_PER_REQUEST="1")}
    gym, big = server.base + "/gym/gym/", server.base + "/gym/big/"
    sample = os.path.join(HERE, "..", "Examples", "Samples", "gym.ics")
    many = os.path.join(work, "many.ics")
    many_events(many, args.members)
    setup = dict(base, XDG_CACHE_HOME=os.path.join(work, "setup"))
    timed([horari, "import", sample, "--into", gym], setup)
    timed([horari, "import", many, "--into", big], setup)
    members = ["m%d" % i for i in range(2 * args.rounds)]
    for m in members:
        timed([horari, "members", "add", m, "--name", "Member " + m, "--calendar", gym] + NOW, setup)
    figures = {(what, mode): [] for what in ("gets", "month-cold", "month-warm", "book") for mode in env}
    dates = iter(["2026-11-%02d" % d for d in (23, 25, 30)] + ["2026-12-%02d" % d for d in (2, 7, 9, 14, 16, 21, 23, 28, 30)])
    for r in range(args.rounds):
        for mode in ("before", "after"):
            e = env[mode]
            seconds, out = timed([bench, gym, "yoga.ics", str(args.gets)], e)
            figures[("gets", mode)].append(float(out.strip()))
            cache = os.path.join(work, "cache-%s-%d" % (mode, r))
            e = dict(e, XDG_CACHE_HOME=cache)
            figures[("month-cold", mode)].append(timed([horari, "month", "--today", "2026-11-23", "--calendar", big], e)[0])
            figures[("month-warm", mode)].append(timed([horari, "month", "--today", "2026-11-23", "--calendar", big], e)[0])
            timed([horari, "classes", "timetable", "--calendar", gym] + NOW, e)
            member = members.pop()
            figures[("book", mode)].append(timed([horari, "book", "--member", member, "--class", "yoga", "--date", next(dates),
                                                  "--calendar", gym] + NOW, e)[0])
            shutil.rmtree(cache, ignore_errors=True)
    report(figures, args)


def report(figures, args):
    cpu = ""
    try:
        cpu = next(l.split(":", 1)[1].strip() for l in open("/proc/cpuinfo") if l.startswith("model name"))
    except (OSError, StopIteration):
        pass
    print("Machine: %s, %d cores, %s; Python %s; %s; best of %d rounds, modes alternating"
          % (cpu or platform.processor(), os.cpu_count(), platform.platform(), platform.python_version(),
             datetime.date.today().isoformat(), args.rounds))
    print()
    print("| what | before (a session per request) | after (one session) | after / before |")
    print("|---|---:|---:|---:|")
    rows = [("gets", "%d sequential GETs, requests/s" % args.gets, max, "%.0f"),
            ("month-cold", "`month` on %d members, empty cache, s" % args.members, min, "%.2f"),
            ("month-warm", "`month` on %d members, cache up to date, s" % args.members, min, "%.2f"),
            ("book", "`book`, cache up to date, s", min, "%.2f")]
    for key, label, best, fmt in rows:
        b, a = best(figures[(key, "before")]), best(figures[(key, "after")])
        print("| %s | %s | %s | %.2f× |" % (label, fmt % b, fmt % a, a / b if b else float("nan")))


if __name__ == "__main__":
    main()
