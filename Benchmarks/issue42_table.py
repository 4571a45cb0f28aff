#!/usr/bin/env python3
"""Issue 42's table, every row, before and after, from one run.

    .venv-conformance/bin/python Benchmarks/issue42_table.py --after .build/static/release/horari \\
        --before OLD --libical .build/libical_ref [--rounds 3]

`make release` builds the first. OLD is a release `horari` of an earlier
commit (the issue was measured on c8684e5). Each row's jobs run as whole
processes, before, after and the row's reference alternating round by
round (which goes first turns), so a busy moment falls on all of them; a
cell is the median with the spread (min–max); time is wall time unless the
row says CPU (user + system of the child, from os.wait4); peak is the
child's resident peak (ru_maxrss).

The rows, as the issue has them:
 1. a year of occurrences of a 50,000-event calendar (make_calendar.py):
    `occurrences --format jsonl` against libical_ref's `expand` (goal ≤ 0.5×);
 2. load + export of it: `export --out` against libical_ref's `serialize-once` (≤ 0.5×);
 3. peak memory of `import` and of row 1, over the file's size (≤ 2×);
 4. a booking in a 20-year gym against a 1-year one (make_gym.py; a fresh
    copy of the .ics each run; ≤ 1.2×);
 5. CPU while waiting 6 s on a server that accepts and never answers
    (`list --calendar http://…`) against `curl -m 6` (≈ 0);
 6. `occurrences --format json` against `--format jsonl`, 86,400 of a
    secondly rule (≤ 1.2×);
 7. the day view of a one-event file whose event lasts an hour and
    repeats every second (≤ 0.5 s);
 8. `freebusy` over a century of a minutely event (bounded: ≤ 1 GB, or
    refused naming its cap); a run is stopped at 60 s;
 9. syncing 10,000 members from Radicale (written into its storage before
    it starts): the first sync's and an unchanged sync's client CPU (≤ 5 s,
    ≤ 0.2 s), beside `month` of the same items in one .ics file.

Slow rows on the earlier binary (7 and 8 stopped at 60 s, 9's sync) run
it in one round only; that is said in the row. --quick (CI's `make
bench-quick`, so the harness does not rot): rows 4 to 9, one round, a
5,000-event file's rows 1 to 3 left out, 300 members; its figures say
nothing. Python's standard library and Radicale (for row 9).
"""
import argparse
import os
import platform
import shutil
import statistics
import subprocess
import sys
import tempfile
import threading
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "Conformance"))
sys.path.insert(0, HERE)
from window_bench import event, write  # noqa: E402
from waiting_bench import silent_server  # noqa: E402


class Run:
    def __init__(self, wall, cpu, peak_mb, code):
        self.wall, self.cpu, self.peak, self.code = wall, cpu, peak_mb, code


def run(args, env=None, limit=600, stdout=None):
    """One child: wall seconds, CPU seconds, peak MB, exit status (-9 when stopped at `limit`)."""
    out = open(stdout, "wb") if stdout else subprocess.DEVNULL
    try:
        start = time.perf_counter()
        child = subprocess.Popen(args, env=env, stdout=out, stderr=subprocess.DEVNULL)
        timer = threading.Timer(limit, child.kill)
        timer.start()
        _, status, usage = os.wait4(child.pid, 0)
        timer.cancel()
        return Run(time.perf_counter() - start, usage.ru_utime + usage.ru_stime, usage.ru_maxrss / 1024,
                   os.waitstatus_to_exitcode(status))
    finally:
        if stdout:
            out.close()


def log(*words):
    print(*words, file=sys.stderr, flush=True)


def rounds_of(jobs, rounds, label):
    """Runs each named job `rounds` times (a job may ask for fewer: (name, fn, max_rounds)),
    alternating the order; returns {name: [Run]}."""
    got = {name: [] for name, _, _ in jobs}
    for i in range(rounds):
        order = jobs if i % 2 == 0 else list(reversed(jobs))
        for name, job, most in order:
            if len(got[name]) >= most:
                continue
            r = job()
            got[name].append(r)
            log(f"  {label}: {name}, round {i + 1}: {r.wall:.2f} s wall, {r.cpu:.2f} s CPU, {r.peak:.0f} MB, exit {r.code}")
    return got


def med(runs, what="wall", unit="s"):
    values = [getattr(r, what) for r in runs]
    m = statistics.median(values)
    spread = f" ({min(values):.2f}–{max(values):.2f})" if len(values) > 1 else " (1 run)"
    codes = sorted({r.code for r in runs})
    note = "" if codes == [0] else ", " + ("stopped at 60 s" if -9 in codes else "exit " + "/".join(map(str, codes)))
    return m, f"{m:.2f} {unit}{spread}{note}"


def last_day(binary, work):
    """The `--to` that ends a window before a date's midnight: the date before it for a horari
    whose `--to` date is the end of that day (issue 41), the date itself for an earlier one,
    whose window ended at the date's start. Asked of the binary, not assumed."""
    probe = os.path.join(work, "probe.ics")
    write(probe, event("probe@bench", "20260101T120000Z", "PT1H"))
    out = subprocess.run([binary, "occurrences", probe, "--from", "2026-01-01", "--to", "2026-01-01", "--format", "jsonl"],
                         capture_output=True).stdout
    return (lambda date: date) if not out.strip() else (lambda date: previous_date(date))


def previous_date(date):
    import datetime
    return (datetime.date.fromisoformat(date) - datetime.timedelta(days=1)).isoformat()


def lines_of(path):
    with open(path, "rb") as f:
        return sum(block.count(b"\n") for block in iter(lambda: f.read(1 << 20), b""))


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--after", required=True)
    p.add_argument("--before", required=True)
    p.add_argument("--libical", required=True)
    p.add_argument("--rounds", type=int, default=3)
    p.add_argument("--rows", default="1,2,3,4,5,6,7,8,9")
    p.add_argument("--members", type=int, default=10000)
    p.add_argument("--quick", action="store_true")
    o = p.parse_args()
    if o.quick:
        o.rounds, o.rows, o.members = 1, "4,5,6,7,8,9", 300
    rows = {int(x) for x in o.rows.split(",")}
    binaries = {"before": os.path.abspath(o.before), "after": os.path.abspath(o.after)}
    work = tempfile.mkdtemp(prefix="horari-issue42-")
    table = []
    until = {w: last_day(b, work) for w, b in binaries.items()}

    def both(make, most_before=None, label=""):
        return [(w, make(b), most_before if (w == "before" and most_before) else o.rounds) for w, b in binaries.items()]

    try:
        py = sys.executable
        if rows & {1, 2, 3}:
            big = os.path.join(work, "calendar-50000.ics")
            subprocess.run([py, os.path.join(HERE, "make_calendar.py"), big, "--events", "50000"], check=True, stdout=subprocess.DEVNULL)
            size = os.path.getsize(big) / 1024 / 1024
            outs = os.path.join(work, "out")
            os.makedirs(outs)
            jobs = [(w, (lambda b, w: lambda: run([b, "occurrences", big, "--from", "2025-01-01", "--to", until[w]("2026-01-01"), "--format", "jsonl"],
                                                  stdout=os.path.join(outs, f"occ-{w}.jsonl")))(b, w), o.rounds) for w, b in binaries.items()]
            jobs.append(("libical", lambda: run([o.libical, "expand", big, "2025-01-01", "2026-01-01"], stdout=os.path.join(outs, "lib.txt")), o.rounds))
            occ = rounds_of(jobs, o.rounds, "occurrences")

            def export_job(b):
                def job():
                    return run([b, "export", big, "--out", os.path.join(outs, "export.ics")])
                return job
            jobs = both(export_job)
            jobs.append(("libical", lambda: run([o.libical, "serialize-once", big, os.path.join(outs, "lib.ics")]), o.rounds))
            exp = rounds_of(jobs, o.rounds, "export")

            def import_job(b):
                def job():
                    new = os.path.join(outs, "imported.ics")
                    if os.path.exists(new):
                        os.remove(new)
                    return run([b, "import", big, "--into", new, "--time-zone", "Europe/Madrid"])
                return job
            imp = rounds_of(both(import_job), o.rounds, "import")
            lib = med(occ["libical"])[0], med(exp["libical"])[0]
            counts = {w: lines_of(os.path.join(outs, f"occ-{w}.jsonl")) for w in binaries}
            counts["libical"] = lines_of(os.path.join(outs, "lib.txt"))
            if 1 in rows:
                table.append((f"1. a year of occurrences of a 50,000-event calendar ({size:.1f} MB), parse + expand + print",
                              *(f"{med(occ[w])[1]}; {med(occ[w])[0] / lib[0]:.2f}× libical ({counts[w]:,} lines)" for w in ("before", "after")),
                              f"libical expand {med(occ['libical'])[1]} ({counts['libical']:,} lines)", "≤ 0.5×"))
            if 2 in rows:
                table.append(("2. load + export of it",
                              *(f"{med(exp[w])[1]}; {med(exp[w])[0] / lib[1]:.2f}× libical" for w in ("before", "after")),
                              f"libical parse + serialise {med(exp['libical'])[1]}", "≤ 0.5×"))
            if 3 in rows:
                def peaks(w):
                    i, e = max(r.peak for r in imp[w]), max(r.peak for r in occ[w])
                    return f"import {i:.0f} MB ({i / size:.2f}×), occurrences {e:.0f} MB ({e / size:.2f}×)"
                table.append(("3. peak memory, import / occurrences, over the file's size", peaks("before"), peaks("after"),
                              f"libical's expand {max(r.peak for r in occ['libical']):.0f} MB", "≤ 2×"))
        if 4 in rows:
            gyms = {}
            for y in (1, 20):
                gyms[y] = os.path.join(work, f"gym-{y}y.ics")
                subprocess.run([py, os.path.join(HERE, "make_gym.py"), gyms[y], "--years", str(y)], check=True, stdout=subprocess.DEVNULL)

            # The book in SQLite too (issue 40), each binary's own import of the gym (the earlier one's schema may differ).
            stores = {(w, y, "ics"): gyms[y] for w in binaries for y in (1, 20)}
            for w, b in binaries.items():
                for y in (1, 20):
                    db = os.path.join(work, f"gym-{y}y-{w}.sqlite")
                    if run([b, "import", gyms[y], "--into", db]).code == 0:
                        stores[(w, y, "sqlite")] = db

            def book(b, source):
                def job():
                    gym = os.path.join(work, "gym-copy" + os.path.splitext(source)[1])
                    shutil.copyfile(source, gym)
                    return run([b, "book", "--calendar", gym, "--member", "m0001", "--class", "yoga", "--date", "2026-11-23", "--now", "2026-11-22 12:00"])
                return job
            jobs = [(f"{w} {y}y {kind}", book(binaries[w], path), o.rounds) for (w, y, kind), path in stores.items()]
            got = rounds_of(jobs, o.rounds, "book")
            for kind in ("ics", "sqlite"):
                cells = []
                for w in ("before", "after"):
                    if f"{w} 1y {kind}" not in got:
                        cells.append("no such store")
                        continue
                    one, twenty = med(got[f"{w} 1y {kind}"]), med(got[f"{w} 20y {kind}"])
                    cells.append(f"20 years {twenty[1]}, 1 year {one[1]}: {twenty[0] / one[0]:.2f}×")
                table.append((f"4. a booking with 20 years of rosters vs 1 year ({'.ics file' if kind == 'ics' else 'SQLite'})", *cells, "—", "≤ 1.2×"))
        if 5 in rows:
            port = silent_server()
            url = f"http://127.0.0.1:{port}/gym/"
            wait = "1" if o.quick else "6"
            env = dict(os.environ, HORARI_CALDAV_TIMEOUT=wait, XDG_CACHE_HOME=os.path.join(work, "wait-cache"))
            jobs = both(lambda b: lambda: run([b, "list", "--calendar", url], env=env))
            jobs.append(("curl", lambda: run(["curl", "-s", "-m", wait, url]), o.rounds))
            got = rounds_of(jobs, o.rounds, "waiting")
            table.append((f"5. waiting {wait} s on a CalDAV server that does not answer: CPU",
                          *(f"{med(got[w], 'cpu', 's of CPU')[1]} in {med(got[w])[0]:.1f} s" for w in ("before", "after")),
                          f"curl: {med(got['curl'], 'cpu', 's of CPU')[1]} in {med(got['curl'])[0]:.1f} s", "≈ 0"))
        files = {name: os.path.join(work, name + ".ics") for name in ("hour", "minutely", "secondly")}
        write(files["hour"], event("tick@bench", "20260101T000000Z", "PT1H", "RRULE:FREQ=SECONDLY\r\n"))
        write(files["minutely"], event("min@bench", "20260101T000000Z", "PT30S", "RRULE:FREQ=MINUTELY\r\n"))
        write(files["secondly"], event("sec@bench", "20260101T000000Z", "PT1S", "RRULE:FREQ=SECONDLY\r\n"))
        if 6 in rows:
            def occ_job(b, w, form):
                return lambda: run([b, "occurrences", files["secondly"], "--from", "2026-01-01", "--to", until[w]("2026-01-02"),
                                    "--max-per-series", "0", "--format", form], stdout=os.path.join(work, f"occ-{w}.{form}"))
            jobs = [(f"{w} {f}", occ_job(b, w, f), o.rounds) for w, b in binaries.items() for f in ("json", "jsonl")]
            got = rounds_of(jobs, o.rounds, "json")
            cells = []
            for w in ("before", "after"):
                j, l = med(got[f"{w} json"]), med(got[f"{w} jsonl"])
                cells.append(f"json {j[1]}, jsonl {l[1]} ({lines_of(os.path.join(work, f'occ-{w}.jsonl')):,} lines): {j[0] / l[0]:.2f}×")
            table.append(("6. 86,400 occurrences, `--format json` vs `--format jsonl`", *cells, "the same data as lines", "≤ 1.2×"))
        if 7 in rows:
            jobs = both(lambda b: lambda: run([b, "day", "2026-01-01", "--calendar", files["hour"], "--time-zone", "UTC"], limit=60), most_before=1)
            got = rounds_of(jobs, o.rounds, "day")
            table.append(("7. the day view of an hour-long event repeating every second",
                          *(f"{med(got[w])[1]}, {max(r.peak for r in got[w]):.0f} MB" for w in ("before", "after")), "—", "≤ 0.5 s"))
        if 8 in rows:
            jobs = both(lambda b: lambda: run([b, "freebusy", "--calendar", files["minutely"], "--from", "2026-01-01", "--to", "2125-12-31",
                                               "--time-zone", "UTC"], limit=60), most_before=1)
            got = rounds_of(jobs, o.rounds, "freebusy")
            table.append(("8. `freebusy` over 100 years of a minutely event",
                          *(f"{med(got[w])[1]}, {max(r.peak for r in got[w]):.0f} MB" for w in ("before", "after")), "—",
                          "≤ 1 GB, or refused naming the cap (exit 1)"))
        if 9 in rows:
            from radicale_server import Radicale
            from sync_bench import write_collection
            server = Radicale(os.path.join(work, "radicale"))
            try:
                write_collection(server.storage, "gym", "big", o.members)
                url = server.base + "/gym/big/"
                base = dict(os.environ, HORARI_CALDAV_USER="gym", HORARI_CALDAV_PASSWORD="bench", TZ="Europe/Madrid", NO_COLOR="1",
                            HORARI_CALDAV_TIMEOUT="600")
                month = ["month", "--today", "2026-11-23", "--calendar", url]
                run([binaries["after"]] + month, env=dict(base, XDG_CACHE_HOME=os.path.join(work, "warm")))  # Radicale's own cache
                local = os.path.join(work, "same.ics")
                run([binaries["after"], "export", "--calendar", url, "--out", local], env=dict(base, XDG_CACHE_HOME=os.path.join(work, "warm")))
                counter = [0]

                def sync(b):
                    def job():
                        counter[0] += 1
                        env = dict(base, XDG_CACHE_HOME=os.path.join(work, f"cache-{counter[0]}"))
                        first = run([b] + month, env=env)
                        again = run([b] + month, env=env)
                        return Run(first.wall, first.cpu, first.peak, first.code), again
                    return job
                pairs = {w: [] for w in binaries}
                files_ref = []
                for i in range(o.rounds):
                    for w, b in (binaries.items() if i % 2 == 0 else reversed(list(binaries.items()))):
                        if w == "before" and pairs[w]:
                            continue
                        pairs[w].append(sync(b)())
                        log(f"  sync: {w}, round {i + 1}: first {pairs[w][-1][0].cpu:.2f} s CPU, unchanged {pairs[w][-1][1].cpu:.2f} s CPU")
                    files_ref.append(run([binaries["after"], "month", "--today", "2026-11-23", "--calendar", local], env=base))
                cells = []
                for w in ("before", "after"):
                    first, again = med([x[0] for x in pairs[w]], "cpu"), med([x[1] for x in pairs[w]], "cpu")
                    cells.append(f"client CPU: first {first[1]}, unchanged {again[1]}")
                table.append((f"9. syncing a CalDAV collection of {o.members:,} members (`month`)", *cells,
                              f"`month` of the same items in one .ics: {med(files_ref, 'cpu', 's of CPU')[1]}", "first ≤ 5 s, unchanged ≤ 0.2 s"))
            finally:
                server.stop()
    finally:
        shutil.rmtree(work, ignore_errors=True)
    print(f"machine: {platform.node()}, {os.cpu_count()} cores, {platform.platform()}, {time.strftime('%Y-%m-%d %H:%M')}; "
          f"{o.rounds} rounds, medians (min–max)")
    print(f"before: {o.before}; after: {o.after}\n")
    print("| row | before | after | reference | goal |\n|---|---|---|---|---|")
    for r in table:
        print("| " + " | ".join(r) + " |")


if __name__ == "__main__":
    main()
