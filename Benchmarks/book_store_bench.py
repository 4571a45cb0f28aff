#!/usr/bin/env python3
"""A booking, and a month, on the same gym kept in an .ics file and in SQLite.

    python3 Benchmarks/book_store_bench.py --horari .build/static/release/horari [--rounds 7] [--quick]

Whole processes, as a desk runs them: `horari book` then `horari cancel` of
one member's place (so every round starts from the same book), and
`horari month`, on a 1-year and a 20-year gym of 2,000 members
(Benchmarks/make_gym.py) kept as `gym.ics` and as `gym.sqlite` (imported
from it); and `horari month` and `horari day` of a 50,000-event calendar
(Benchmarks/make_calendar.py, 2024–2029, with the X-WR-TIMEZONE Google
writes) kept both ways, which in SQLite reads only the items that can
touch the view; and moving in: `horari import` of a 1-year gym of 10,000
members into a new `.sqlite`, beside the same into a new `.ics`. The stores
alternate within each round; each figure is the
median of the rounds with its spread (min–max), and the largest peak
resident memory of any one of its processes (os.wait4). A bare
`horari --version` is measured alongside: what any process costs here.
"""
import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))


def timed(cmd, cwd, env):
    """Wall seconds and peak RSS (MB) of one process (its own, from wait4)."""
    start = time.perf_counter()
    p = subprocess.Popen(cmd, cwd=cwd, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    err = p.stderr.read()
    _, status, usage = os.wait4(p.pid, 0)
    elapsed = time.perf_counter() - start
    p.returncode = os.waitstatus_to_exitcode(status)
    if p.returncode != 0:
        raise SystemExit(f"{' '.join(cmd)} failed ({p.returncode}): {err.decode().strip()}")
    # ru_maxrss is in KiB on Linux.
    return elapsed, usage.ru_maxrss / 1024


def fmt(values):
    return f"{statistics.median(values) * 1000:.0f} ms ({min(values) * 1000:.0f}–{max(values) * 1000:.0f})"


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--horari", required=True)
    ap.add_argument("--rounds", type=int, default=7)
    ap.add_argument("--quick", action="store_true", help="1-year gym only, 3 rounds")
    a = ap.parse_args()
    horari = os.path.abspath(a.horari)
    rounds = 3 if a.quick else a.rounds
    env = dict(os.environ, TZ="UTC", LC_ALL="C.UTF-8")
    work = tempfile.mkdtemp(prefix="horari-book-store-bench-")
    years = [1] if a.quick else [1, 20]
    now = ["--now", "2026-11-22 10:00"]
    rows = []
    bare = [timed([horari, "--version"], work, env)[0] for _ in range(rounds)]
    for y in years:
        ics = os.path.join(work, f"gym{y}.ics")
        db = os.path.join(work, f"gym{y}.sqlite")
        subprocess.run([sys.executable, os.path.join(HERE, "make_gym.py"), ics, "--years", str(y), "--members", "2000"], check=True, capture_output=True)
        subprocess.run([horari, "import", ics, "--into", db], cwd=work, env=env, check=True, capture_output=True)
        size = os.path.getsize(ics) / 1e6
        results = {(store, job): [] for store in ("ics", "sqlite") for job in ("book", "month")}
        peaks = {}
        for r in range(rounds):
            order = ("ics", "sqlite") if r % 2 == 0 else ("sqlite", "ics")
            for store in order:
                cal = ics if store == "ics" else db
                t, peak = timed([horari, "book", "--member", "m0007", "--class", "yoga", "--date", "2026-11-30", "--calendar", cal] + now, work, env)
                timed([horari, "cancel", "--member", "m0007", "--class", "yoga", "--date", "2026-11-30", "--calendar", cal] + now, work, env)
                results[(store, "book")].append(t)
                peaks[(store, "book")] = max(peaks.get((store, "book"), 0), peak)
                t, peak = timed([horari, "month", "2026-11", "--calendar", cal], work, env)
                results[(store, "month")].append(t)
                peaks[(store, "month")] = max(peaks.get((store, "month"), 0), peak)
        for job in ("book", "month"):
            i, s = results[("ics", job)], results[("sqlite", job)]
            rows.append((f"{job}, {y}-year gym ({size:.1f} MB .ics)", fmt(i), fmt(s), statistics.median(s) / statistics.median(i),
                         peaks[("ics", job)], peaks[("sqlite", job)]))
    # Moving in: a 1-year gym of 10,000 members imported into a new store, a .sqlite against a new .ics.
    members = 1_000 if a.quick else 10_000
    source = os.path.join(work, "members.ics")
    subprocess.run([sys.executable, os.path.join(HERE, "make_gym.py"), source, "--years", "1", "--members", str(members)], check=True, capture_output=True)
    size = os.path.getsize(source) / 1e6
    results = {"ics": [], "sqlite": []}
    peaks = {}
    for r in range(rounds):
        order = ("ics", "sqlite") if r % 2 == 0 else ("sqlite", "ics")
        for store in order:
            target = os.path.join(work, f"moved-in.{store}")
            if os.path.exists(target):
                os.remove(target)
            t, peak = timed([horari, "import", source, "--into", target], work, env)
            results[store].append(t)
            peaks[store] = max(peaks.get(store, 0), peak)
    i, s = results["ics"], results["sqlite"]
    rows.append((f"import, {members:,} members ({size:.1f} MB)", fmt(i), fmt(s), statistics.median(s) / statistics.median(i), peaks["ics"], peaks["sqlite"]))
    # A 50,000-event calendar: a view reads its window from SQLite, the whole file from the .ics.
    events = 5_000 if a.quick else 50_000
    ics = os.path.join(work, "events.ics")
    db = os.path.join(work, "events.sqlite")
    subprocess.run([sys.executable, os.path.join(HERE, "make_calendar.py"), ics, "--events", str(events), "--zone", "Europe/Madrid"], check=True, capture_output=True)
    subprocess.run([horari, "import", ics, "--into", db], cwd=work, env=env, check=True, capture_output=True)
    size = os.path.getsize(ics) / 1e6
    views = {"month": ["month", "2026-11"], "day": ["day", "2026-11-25"]}
    results = {(store, job): [] for store in ("ics", "sqlite") for job in views}
    peaks = {}
    for r in range(rounds):
        order = ("ics", "sqlite") if r % 2 == 0 else ("sqlite", "ics")
        for store in order:
            cal = ics if store == "ics" else db
            for job, args in views.items():
                t, peak = timed([horari] + args + ["--calendar", cal, "--color", "never"], work, env)
                results[(store, job)].append(t)
                peaks[(store, job)] = max(peaks.get((store, job), 0), peak)
    for job in views:
        i, s = results[("ics", job)], results[("sqlite", job)]
        rows.append((f"{job}, {events:,} events ({size:.1f} MB .ics)", fmt(i), fmt(s), statistics.median(s) / statistics.median(i),
                     peaks[("ics", job)], peaks[("sqlite", job)]))
    print(f"horari --version (a bare process): {fmt(bare)}")
    print(f"{'what':40} {'.ics file':>22} {'SQLite':>22} {'SQLite / file':>14} {'peak, file':>11} {'peak, SQLite':>13}")
    for what, i, s, ratio, pi, ps in rows:
        print(f"{what:40} {i:>22} {s:>22} {ratio:>13.2f}× {pi:>8.0f} MB {ps:>10.0f} MB")
    subprocess.run(["rm", "-rf", work])


if __name__ == "__main__":
    main()
