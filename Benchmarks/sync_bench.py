#!/usr/bin/env python3
"""Syncing a CalDAV collection of N members (issue 42, 2): a first sync into
an empty cache and an unchanged sync after it, as `horari month` on the
collection makes them, against Radicale on 127.0.0.1.

    .venv-conformance/bin/python Benchmarks/sync_bench.py HORARI [--members 10000] [--rounds 3]

The collection is written into Radicale's own storage folder before it
starts (one .ics a member, as Radicale keeps them): setting up 10,000
members by PUT took about 800 s here, and what is measured is the client's
sync, not the server's ingest. Each round: `horari month` with a new cache
(the first sync: a listing and the multigets), then again (nothing
changed), and `month` on the same items exported to one .ics file: what
reading and importing them costs with no server, so that the unchanged
sync's own cost is its difference from it. Reported per run: wall time, and the client's own CPU (user +
system of the horari process, from wait4), which is what the issue's goal
(≤ 5 s first, ≤ 0.2 s unchanged, of client time) is about; the server's
time is Radicale's. Medians with min–max over the rounds.
"""
import argparse
import json
import os
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "Conformance"))
from radicale_server import Radicale  # noqa: E402


def write_collection(storage, user, name, n):
    folder = os.path.join(storage, user, name)
    os.makedirs(folder)
    with open(os.path.join(folder, ".Radicale.props"), "w") as f:
        json.dump({"C:supported-calendar-component-set": "VEVENT,VTODO,VJOURNAL", "tag": "VCALENDAR",
                   "C:calendar-timezone": "", "D:displayname": name}, f)
    for i in range(n):
        day = 1 + i % 28
        text = "\r\n".join(["BEGIN:VCALENDAR", "VERSION:2.0", "PRODID:-//Horari//bench//EN", "BEGIN:VEVENT", f"UID:bench-{i}",
                            "DTSTAMP:20261101T000000Z", f"DTSTART:202611{day:02d}T{6 + i % 12:02d}0000Z", "DURATION:PT1H",
                            f"SUMMARY:Event {i}", "END:VEVENT", "END:VCALENDAR"]) + "\r\n"
        with open(os.path.join(folder, f"bench-{i}.ics"), "w") as f:
            f.write(text)


def timed(args, env):
    started = time.monotonic()
    process = subprocess.Popen(args, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    _, status, usage = os.wait4(process.pid, 0)
    wall = time.monotonic() - started
    err = process.stderr.read().decode()
    if os.waitstatus_to_exitcode(status) != 0:
        raise SystemExit(f"{' '.join(args)} failed: {err}")
    return wall, usage.ru_utime + usage.ru_stime, usage.ru_maxrss / 1024


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("horari")
    parser.add_argument("--members", type=int, default=10000)
    parser.add_argument("--rounds", type=int, default=3)
    args = parser.parse_args()
    work = tempfile.mkdtemp(prefix="horari-sync-bench-")
    try:
        server = Radicale(work)
        try:
            write_collection(server.storage, "gym", "big", args.members)
            url = server.base + "/gym/big/"
            base = dict(os.environ, HORARI_CALDAV_USER="gym", HORARI_CALDAV_PASSWORD="bench", TZ="Europe/Madrid", NO_COLOR="1",
                        HORARI_CALDAV_TIMEOUT="600")  # Radicale's first listing of 10,000 items builds its cache: over 30 s
            # Radicale builds its own item cache on the first listing: one read outside the rounds.
            timed([args.horari, "month", "--today", "2026-11-23", "--calendar", url], dict(base, XDG_CACHE_HOME=os.path.join(work, "warm-server")))
            # The reference in the same run: the same items in one .ics file, whose `month` reads and
            # imports them as a synced collection's does from its cache, with no server at all.
            local = os.path.join(work, "same.ics")
            timed([args.horari, "export", "--calendar", url, "--out", local], dict(base, XDG_CACHE_HOME=os.path.join(work, "warm-server")))
            first, again, file = [], [], []
            for r in range(args.rounds):
                env = dict(base, XDG_CACHE_HOME=os.path.join(work, f"cache-{r}"))
                first.append(timed([args.horari, "month", "--today", "2026-11-23", "--calendar", url], env))
                again.append(timed([args.horari, "month", "--today", "2026-11-23", "--calendar", url], env))
                file.append(timed([args.horari, "month", "--today", "2026-11-23", "--calendar", local], env))
                print(f"round {r + 1}: first {first[-1][0]:.2f} s wall, {first[-1][1]:.2f} s CPU, {first[-1][2]:.0f} MB; "
                      f"unchanged {again[-1][0]:.2f} s wall, {again[-1][1]:.2f} s CPU; the .ics {file[-1][1]:.2f} s CPU", flush=True)
        finally:
            server.stop()
    finally:
        shutil.rmtree(work, ignore_errors=True)
    print(f"\n| sync of {args.members:,} members | wall | client CPU | peak |\n|---|---|---|---|")
    for what, runs in (("first (empty cache)", first), ("unchanged", again), ("the same items in one .ics file (no server)", file)):
        wall, cpu, peak = ([x[i] for x in runs] for i in range(3))
        print(f"| {what} | {statistics.median(wall):.2f} s ({min(wall):.2f}–{max(wall):.2f}) | "
              f"{statistics.median(cpu):.2f} s ({min(cpu):.2f}–{max(cpu):.2f}) | {statistics.median(peak):.0f} MB |")


if __name__ == "__main__":
    main()
