#!/usr/bin/env python3
"""Whole processes (issue 19): `horari` as a user runs it, beside libical's C
program (Benchmarks/libical_ref.c) and, in the full run, the Python peers,
all measured in the same run.

    python3 Benchmarks/whole_process.py --horari .build/static/release/horari \\
        --libical .build/libical_ref [--quick] [--work DIR] [--peers-python PATH]

Each job is a child process: its wall time from fork to exit, its peak
resident set from os.wait4 (ru_maxrss). A job and its reference alternate
(round 1 Horari first, round 2 the reference first, ...), 3 rounds (--quick:
1, but for `book`, cheap enough for 3 always); a row shows the best time of
the rounds and the largest peak. With Radicale in the peers' Python,
`book` also runs against a gym kept in a CalDAV collection on it (issue
21; --quick: 1 and 20 years of history), beside the server's own PUT of
the class's resource. The inputs
are made by the committed generators (make_calendar.py, make_gym.py) in DIR
(default: a temporary folder, removed at the end) and reused when DIR already
holds them. The table on stdout is Markdown, for Benchmarks/RESULTS.md;
progress goes to stderr.

A row whose target is missed says MISSED; the script still exits 0 (it is a
benchmark, not a test), unless a child crashes or exits with an unexpected
status: then it exits 1. Python's standard library only.
"""
import argparse
import os
import platform
import resource
import shutil
import signal
import subprocess
import sys
import tempfile
import threading
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
MB = 1024 * 1024
FAILURES = []


def log(*words):
    print(*words, file=sys.stderr, flush=True)


# ---------------------------------------------------------------- children

class Run:
    """One child's outcome: seconds, peak bytes, exit status or signal."""

    message = None  # the first line of a failed child's standard error

    def __init__(self, argv, seconds, peak, status, signal_number, timed_out):
        self.argv, self.seconds, self.peak = argv, seconds, peak
        self.status, self.signal, self.timed_out = status, signal_number, timed_out

    @property
    def ok(self):
        return self.signal is None and self.status == 0 and not self.timed_out

    def outcome(self):
        if self.timed_out:
            return f"killed at the {self.seconds:.0f} s timeout"
        if self.signal is not None:
            name = signal.Signals(self.signal).name if self.signal in signal.Signals._value2member_map_ else "?"
            return f"aborted: signal {self.signal} ({name}) after {self.seconds:.1f} s"
        if self.status != 0:
            return f"exit {self.status} after {self.seconds:.1f} s"
        return f"finished in {self.seconds:.2f} s"


def run(argv, stdout=None, timeout=None, address_limit=None, expect=(0,), tolerate=False):
    """Runs argv as a child, stdin from /dev/null, stdout into the file
    `stdout` (else /dev/null), stderr kept for the log. Returns a Run.

    The peak is ru_maxrss from os.wait4. On Linux a child's ru_maxrss is at
    least the resident set it was forked with (the kernel keeps the larger
    of the two across exec), so this script keeps its own small; the floor
    is measured on /bin/true and printed with the machine line."""
    err_path = os.path.join(WORK, "stderr.txt")
    out_fd = os.open(stdout or os.devnull, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o644)
    err_fd = os.open(err_path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o644)
    in_fd = os.open(os.devnull, os.O_RDONLY)
    started = time.perf_counter()
    pid = os.fork()
    if pid == 0:  # the child: limits, descriptors, exec
        try:
            if address_limit:
                resource.setrlimit(resource.RLIMIT_AS, (address_limit, address_limit))
            os.dup2(in_fd, 0)
            os.dup2(out_fd, 1)
            os.dup2(err_fd, 2)
            os.execv(argv[0], argv)
        finally:
            os._exit(127)
    os.close(out_fd)
    os.close(err_fd)
    os.close(in_fd)
    timed_out = []
    timer = None
    if timeout:
        def kill():
            timed_out.append(True)
            try:
                os.kill(pid, signal.SIGKILL)
            except ProcessLookupError:
                pass
        timer = threading.Timer(timeout, kill)
        timer.start()
    _, status, usage = os.wait4(pid, 0)
    seconds = time.perf_counter() - started
    if timer:
        timer.cancel()
    result = Run(argv, seconds, usage.ru_maxrss * 1024,
                 os.WEXITSTATUS(status) if os.WIFEXITED(status) else None,
                 os.WTERMSIG(status) if os.WIFSIGNALED(status) else None, bool(timed_out))
    if result.signal is not None or result.timed_out or result.status not in expect:
        result.message = first_message(err_path)
    if not tolerate and (result.signal is not None or result.timed_out or result.status not in expect):
        with open(err_path, errors="replace") as f:
            tail = f.read()[-2000:]
        FAILURES.append(f"{' '.join(argv)}: {result.outcome()}\n{tail}")
        log(f"  FAILED: {' '.join(argv)}: {result.outcome()}\n{tail}")
    return result


def first_message(path):
    with open(path, errors="replace") as f:
        for line in f:
            if line.strip():
                return line.strip()[:160]
    return None


def count_lines(path):
    n = 0
    with open(path, "rb") as f:
        while True:
            block = f.read(1 << 20)
            if not block:
                return n
            n += block.count(b"\n")


class Pair:
    """Rounds of a job beside its reference: best time, largest peak."""

    def __init__(self):
        self.ours, self.theirs = [], []

    @staticmethod
    def best(runs):
        return min(r.seconds for r in runs)

    @staticmethod
    def peak(runs):
        return max(r.peak for r in runs)


def alternate(rounds, ours, theirs, label):
    """Runs ours() and theirs() `rounds` times each, alternating which goes
    first, and returns a Pair of their Runs."""
    pair = Pair()
    for i in range(rounds):
        order = [(ours, pair.ours, "horari"), (theirs, pair.theirs, "reference")]
        if i % 2:
            order.reverse()
        for job, into, who in order:
            r = job()
            into.append(r)
            log(f"  {label}, round {i + 1}, {who}: {r.seconds:.2f} s, peak {r.peak / MB:.0f} MB")
    return pair


# ---------------------------------------------------------------- figures

def mb(n):
    return f"{n / MB:.0f} MB" if n >= 10 * MB else f"{n / MB:.1f} MB"


def secs(s):
    return f"{s:.2f} s" if s < 100 else f"{s:.0f} s"


def verdict(value, limit):
    return "" if value <= limit else " — **MISSED**"


ROWS = []
FLAT = 1.5  # "memory should stay flat": a window's peak within this much of a month's


def row(measure, ours, reference, ratio, target):
    ROWS.append((measure, ours, reference, ratio, target))


def table(rows):
    lines = ["| measure | Horari | reference (same run) | ratio | target |", "|---|---|---|---|---|"]
    lines += ["| " + " | ".join(r) + " |" for r in rows]
    return "\n".join(lines)


# ---------------------------------------------------------------- machine

def first_line(argv):
    try:
        out = subprocess.run(argv, capture_output=True, text=True, timeout=60)
        return (out.stdout or out.stderr).strip().splitlines()[0]
    except (OSError, IndexError, subprocess.TimeoutExpired):
        return None


def machine_line(floor):
    model = "?"
    with open("/proc/cpuinfo") as f:
        for line in f:
            if line.startswith("model name"):
                model = line.split(":", 1)[1].strip()
                break
    with open("/proc/meminfo") as f:
        ram = int(f.readline().split()[1]) * 1024
    os_name = platform.system()
    try:
        with open("/etc/os-release") as f:
            for line in f:
                if line.startswith("PRETTY_NAME="):
                    os_name = line.split("=", 1)[1].strip().strip('"')
    except OSError:
        pass
    swift = first_line([os.environ.get("SWIFT", "swift"), "--version"]) or "swift: not found"
    swift = swift.split(" (")[0]
    libical = first_line(["pkg-config", "--modversion", "libical"]) or "?"
    load = " / ".join(f"{x:.2f}" for x in os.getloadavg())
    return (f"{os.cpu_count()} cores ({model}), {ram / 2**30:.0f} GiB, {os_name}, {swift}, libical {libical}, "
            f"Python {platform.python_version()}; load average at the start {load}; "
            f"a child's peak cannot read below {mb(floor)} (the launcher's own, /bin/true)")


# ---------------------------------------------------------------- inputs

def generate(script, out, *args):
    if os.path.exists(out):
        return out
    log(f"making {os.path.basename(out)}")
    r = run([sys.executable, os.path.join(HERE, script), out + ".tmp", *map(str, args)])
    if not r.ok:
        sys.exit(f"{script} failed")
    os.replace(out + ".tmp", out)
    return out


HOSTILE = """BEGIN:VCALENDAR\r
VERSION:2.0\r
PRODID:-//Horari//Hostile benchmark//EN\r
BEGIN:VTIMEZONE\r
TZID:Europe/Madrid\r
BEGIN:STANDARD\r
DTSTART:19701025T030000\r
TZOFFSETFROM:+0200\r
TZOFFSETTO:+0100\r
RRULE:FREQ=YEARLY;BYMONTH=10;BYDAY=-1SU\r
TZNAME:CET\r
END:STANDARD\r
BEGIN:DAYLIGHT\r
DTSTART:19700329T020000\r
TZOFFSETFROM:+0100\r
TZOFFSETTO:+0200\r
RRULE:FREQ=YEARLY;BYMONTH=3;BYDAY=-1SU\r
TZNAME:CEST\r
END:DAYLIGHT\r
END:VTIMEZONE\r
BEGIN:VEVENT\r
UID:every-second@horari.example\r
DTSTAMP:20250101T000000Z\r
DTSTART;TZID=Europe/Madrid:20250101T000000\r
DURATION:PT1S\r
RRULE:FREQ=SECONDLY\r
SUMMARY:Every second\r
END:VEVENT\r
END:VCALENDAR\r
"""


# ---------------------------------------------------------------- the run

def main():
    global WORK
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--horari", default=os.path.join(ROOT, ".build/static/release/horari"))  # make release
    p.add_argument("--libical", default=os.path.join(ROOT, ".build/libical_ref"))
    p.add_argument("--quick", action="store_true", help="the 5,000-event file, one round, no Python peers")
    p.add_argument("--work", help="folder for the inputs and outputs (kept; inputs reused)")
    p.add_argument("--peers-python", default=os.path.join(ROOT, ".venv-conformance/bin/python"),
                   help="the peers' Python (icalendar, recurring-ical-events); skipped when absent or --quick")
    p.add_argument("--events", type=int, help="VEVENTs in the main file (default 50,000; --quick 5,000)")
    p.add_argument("--hostile-timeout", type=float, default=60)
    a = p.parse_args()
    horari, libical = os.path.abspath(a.horari), os.path.abspath(a.libical)
    for path in (horari, libical):
        if not os.access(path, os.X_OK):
            sys.exit(f"{path}: not an executable (make bench builds it)")
    WORK = os.path.abspath(a.work) if a.work else tempfile.mkdtemp(prefix="horari-whole-process-")
    os.makedirs(WORK, exist_ok=True)
    rounds = 1 if a.quick else 3
    events = a.events or (5_000 if a.quick else 50_000)
    peers = None if a.quick or not os.access(a.peers_python, os.X_OK) else a.peers_python
    began = time.perf_counter()
    try:
        floor = run(["/bin/true"]).peak
        machine = machine_line(floor)
        log(machine)
        big = generate("make_calendar.py", os.path.join(WORK, f"calendar-{events}.ics"), "--events", events)
        size = os.path.getsize(big)
        label = f"{events:,}-event file ({size / MB:.1f} MB)"
        years = [1, 2, 5, 10, 20]
        gyms = {y: generate("make_gym.py", os.path.join(WORK, f"gym-{y}y.ics"), "--years", y) for y in years}
        hostile = os.path.join(WORK, "hostile-secondly.ics")
        with open(hostile, "w", newline="") as f:
            f.write(HOSTILE)
        out = os.path.join(WORK, "out")
        os.makedirs(out, exist_ok=True)

        # occurrences over 2025 against libical's expansion of the same window
        def occurrences(path, first, last, into):
            return lambda: run([horari, "occurrences", path, "--from", first, "--to", last, "--format", "jsonl"], stdout=into)

        ours_out, ref_out = os.path.join(out, "occurrences.jsonl"), os.path.join(out, "libical-expand.txt")
        log(f"occurrences, {label}, 2025")
        occ_pair = pair = alternate(rounds, occurrences(big, "2025-01-01", "2026-01-01", ours_out),
                         lambda: run([libical, "expand", big, "2025-01-01", "2026-01-01"], stdout=ref_out), "occurrences")
        ours_n, ref_n = count_lines(ours_out), count_lines(ref_out)
        t, r = Pair.best(pair.ours), Pair.best(pair.theirs)
        count_note = "the same count" if ours_n == ref_n else f"**{ref_n - ours_n:+,}** lines"
        row(f"occurrences, {label}, 2025 ({ours_n:,} lines)", secs(t),
            f"libical expand: {secs(r)} ({ref_n:,} lines, {count_note})", f"{t / r:.2f}× the time",
            "≤ 1.0×" + verdict(t / r, 1.0))
        peak, ref_peak = Pair.peak(pair.ours), Pair.peak(pair.theirs)
        row(f"occurrences peak memory, {label}, 2025", f"{mb(peak)} ({peak / size:.2f}× the file)",
            f"libical expand: {mb(ref_peak)} ({ref_peak / size:.2f}× the file)", f"{peak / ref_peak:.2f}× the memory",
            "≤ 3× the file" + verdict(peak / size, 3.0))

        # import into a new calendar against libical's parse
        new = os.path.join(out, "imported.ics")

        def import_job():
            if os.path.exists(new):
                os.remove(new)
            return run([horari, "import", big, "--into", new, "--time-zone", "Europe/Madrid"])

        log(f"import, {label}")
        import_pair = pair = alternate(rounds, import_job, lambda: run([libical, "parse-once", big]), "import")
        peak, ref_peak = Pair.peak(pair.ours), Pair.peak(pair.theirs)
        row(f"import peak memory, {label}", f"{mb(peak)} ({peak / size:.2f}× the file)",
            f"libical parse: {mb(ref_peak)} ({ref_peak / size:.2f}× the file)", f"{peak / ref_peak:.2f}× the memory",
            "≤ 3× the file" + verdict(peak / size, 3.0))
        t, r = Pair.best(pair.ours), Pair.best(pair.theirs)
        row(f"import time, {label}", secs(t), f"libical parse: {secs(r)}", f"{t / r:.2f}× the time", "(context)")

        # export of the imported calendar against libical's parse + serialise of it
        exported, ref_exported = os.path.join(out, "exported.ics"), os.path.join(out, "libical-serialized.ics")
        new_size = os.path.getsize(new)
        log("export")
        pair = alternate(rounds, lambda: run([horari, "export", new, "--out", exported]),
                         lambda: run([libical, "serialize-once", new, ref_exported]), "export")
        t, r = Pair.best(pair.ours), Pair.best(pair.theirs)
        row(f"export, the imported calendar ({new_size / MB:.1f} MB)", f"{secs(t)}, peak {mb(Pair.peak(pair.ours))}",
            f"libical parse + serialise: {secs(r)}, peak {mb(Pair.peak(pair.theirs))}", f"{t / r:.2f}× the time",
            "≤ 1.3×" + verdict(t / r, 1.3))

        # validate against libical's parse
        log("validate")
        pair = alternate(rounds, lambda: run([horari, "validate", big]), lambda: run([libical, "parse-once", big]), "validate")
        t, r = Pair.best(pair.ours), Pair.best(pair.theirs)
        row(f"validate, {label}", f"{secs(t)}, peak {mb(Pair.peak(pair.ours))}",
            f"libical parse: {secs(r)}, peak {mb(Pair.peak(pair.theirs))}", f"{t / r:.2f}× the time",
            "≤ 1.5×" + verdict(t / r, 1.5))

        # book: a fresh copy of the gym each run; the years of history alternate
        def book(years):
            def job():
                gym = os.path.join(out, "gym.ics")
                shutil.copyfile(gyms[years], gym)
                return run([horari, "book", "--calendar", gym, "--member", "m0001", "--class", "yoga",
                            "--date", "2026-11-23", "--now", "2026-11-22 12:00"])
            return job

        log("book")
        booked = {y: [] for y in years}
        for i in range(3):  # cheap (under a second each): three rounds in the quick run too
            for y in (years if i % 2 == 0 else years[::-1]):
                booked[y].append(book(y)())
        one = Pair.best(booked[1])
        t = Pair.best(booked[20])
        row(f"book, 20 years of history ({os.path.getsize(gyms[20]) / MB:.1f} MB)",
            f"{secs(t)}, peak {mb(Pair.peak(booked[20]))}",
            f"1 year ({os.path.getsize(gyms[1]) / MB:.2f} MB): {secs(one)}, peak {mb(Pair.peak(booked[1]))}",
            f"{t / one:.2f}× the time", "≤ 2×" + verdict(t / one, 2.0))

        # the curves: occurrences' peak against the window, book against the history
        curves = []
        log("occurrences against the window")
        year = (Pair.best(occ_pair.ours), Pair.peak(occ_pair.ours), ours_n)
        points = []
        for name, first, last in (("a month (January 2025)", "2025-01-01", "2025-02-01"), ("a year (2025)", None, None),
                                  ("ten years (2025–2034)", "2025-01-01", "2035-01-01")):
            if first is None:
                points.append((name, *year))
                continue
            into = os.path.join(out, "occurrences-window.jsonl")
            r = occurrences(big, first, last, into)()
            points.append((name, r.seconds, r.peak, count_lines(into)))
        for name, t, peak, n in points:
            grown = peak / points[0][2]
            curves.append((f"occurrences, {label}", f"{name}, {n:,} lines", secs(t), mb(peak),
                           f"{grown:.2f}× the month's peak" + (" — **not flat**" if grown > FLAT else "")))
        for y in years:
            t, peak = Pair.best(booked[y]), Pair.peak(booked[y])
            curves.append(("book, a fresh copy of the gym", f"{y} year{'s' if y > 1 else ''} of history "
                           f"({os.path.getsize(gyms[y]) / MB:.2f} MB)", secs(t), mb(peak), f"{t / one:.2f}× the 1-year time"))

        # book against a real CalDAV server (Radicale, from the peers' Python)
        radicale_python = a.peers_python if os.access(a.peers_python, os.X_OK) else None
        if radicale_python:
            caldav_rows, caldav_curves = caldav_book(horari, radicale_python, [1, 20] if a.quick else years, out)
            for r in caldav_rows:
                row(*r)
            curves += caldav_curves
        else:
            log(f"book on Radicale skipped ({a.peers_python} missing: make corpus)")

        # a hostile file: one event every second, asked for a year
        log("hostile: FREQ=SECONDLY over 2025")
        r = run([horari, "occurrences", hostile, "--from", "2025-01-01", "--to", "2025-12-31", "--format", "jsonl"],
                stdout=os.path.join(out, "hostile.jsonl"), timeout=a.hostile_timeout, address_limit=2 * 1024 ** 3,
                tolerate=True)
        what = r.outcome()
        if r.message:
            what += f" (“{r.message}”)"
        if r.ok:
            what += f", {count_lines(os.path.join(out, 'hostile.jsonl')):,} lines"
        curves.append(("hostile: one `RRULE:FREQ=SECONDLY` event, `--max-per-series 2000` (the default)",
                       f"2025, {a.hostile_timeout:.0f} s timeout, 2 GiB address space", secs(r.seconds), mb(r.peak), what))

        # the Python peers (full run only): whole processes too
        if peers:
            bench = os.path.join(HERE, "peers_bench.py")
            log("Python peers: icalendar's parse of the whole file")
            r = run([peers, bench, "parse", big])
            t, peak = Pair.best(import_pair.ours), Pair.peak(import_pair.ours)
            row(f"import vs Python, {label}", f"{secs(t)}, peak {mb(peak)}",
                f"icalendar parse: {secs(r.seconds)}, peak {mb(r.peak)}", f"{t / r.seconds:.2f}× the time", "")
            small = generate("make_calendar.py", os.path.join(WORK, "calendar-5000.ics"), "--events", 5000)
            small_label = f"5,000-event file ({os.path.getsize(small) / MB:.1f} MB)"
            log("Python peers: recurring-ical-events over 2025, " + small_label)
            into = os.path.join(out, "occurrences-small.jsonl")
            ours = occurrences(small, "2025-01-01", "2026-01-01", into)()
            n = count_lines(into)
            peer_out = os.path.join(out, "peer-expand.txt")
            r = run([peers, bench, "expand", small, "2025", "2026"], stdout=peer_out)
            with open(peer_out) as f:
                found = f.read().split()
            found = int(found[1]) if len(found) > 1 else -1
            row(f"occurrences vs Python, {small_label}, 2025 ({n:,} lines)", f"{secs(ours.seconds)}, peak {mb(ours.peak)}",
                f"recurring-ical-events (parse + expand): {secs(r.seconds)}, peak {mb(r.peak)}, {found:,} found",
                f"{ours.seconds / r.seconds:.3f}× the time", "")
        else:
            log("Python peers skipped" + (" (--quick)" if a.quick else f" ({a.peers_python} missing: make corpus)"))

        # which occurrences libical and Horari disagree on (after every measurement:
        # reading the lines grows this process, and so the floor of the children's peaks)
        differences = compare(ours_out, ref_out)

        print(f"Whole processes, {'quick' if a.quick else 'full'} run ({rounds} round{'s' if rounds > 1 else ''}"
              f"{', book 3' if rounds < 3 else ''}; best time, largest peak): {machine}."
              + (" The targets are the issue's for the 50,000-event file; on this small one the process's"
                 " own base (runtime, libraries) outweighs the data." if a.quick else ""))
        print()
        print(table(ROWS))
        print()
        print(f"| curve | point | time | peak | (flat: a peak within {FLAT}× the month's) |")
        print("|---|---|---|---|---|")
        for c in curves:
            print("| " + " | ".join(c) + " |")
        print()
        print(differences)
        log(f"whole-process benchmark: {time.perf_counter() - began:.0f} s in all")
    finally:
        if not a.work:
            shutil.rmtree(WORK, ignore_errors=True)
    if FAILURES:
        log(f"{len(FAILURES)} child process(es) failed:")
        for f in FAILURES:
            log("  " + f.splitlines()[0])
        sys.exit(1)


CALDAV_MEMBERS = 200  # a member is one PUT on import; the rosters, not the members, make a class's resource grow


def caldav_book(horari, python, years, out):
    """`horari book` on a gym kept in a CalDAV collection on Radicale (issue
    21), its cache up to date, against the years of history; beside it, in
    the same run, the server's own part: a plain PUT of the class's resource
    as it stands (urllib, in this process), which the booking must make."""
    import base64
    import urllib.request
    sys.path.insert(0, os.path.join(ROOT, "Conformance"))
    from radicale_server import Radicale
    server = Radicale(os.path.join(WORK, "caldav"), python=python)
    saved = {k: os.environ.get(k) for k in ("HORARI_CALDAV_USER", "HORARI_CALDAV_PASSWORD", "XDG_CACHE_HOME")}
    os.environ.update(HORARI_CALDAV_USER="bench", HORARI_CALDAV_PASSWORD="bench", XDG_CACHE_HOME=os.path.join(WORK, "caldav-cache"))
    auth = "Basic " + base64.b64encode(b"bench:bench").decode()

    def put_back(url):
        """GET the class's resource, then PUT it back with If-Match: the server's cost of one write of it."""
        with urllib.request.urlopen(urllib.request.Request(url, headers={"Authorization": auth}), timeout=300) as r:
            body, etag = r.read(), r.headers["ETag"]
        started = time.perf_counter()
        request = urllib.request.Request(url, data=body, method="PUT", headers={
            "Authorization": auth, "If-Match": etag, "Content-Type": "text/calendar; charset=utf-8"})
        with urllib.request.urlopen(request, timeout=300):
            pass
        return time.perf_counter() - started, len(body)

    rows, curves = [], []
    try:
        booked, server_put, sizes = {}, {}, {}
        for y in years:
            gym = generate("make_gym.py", os.path.join(WORK, f"gym-{y}y-{CALDAV_MEMBERS}m.ics"), "--years", y, "--members", CALDAV_MEMBERS)
            url = f"{server.base}/bench/gym-{y}y/"
            log(f"book on Radicale: importing {y} year{'s' if y > 1 else ''} of history into {url}")
            run([horari, "import", gym, "--into", url])
            run([horari, "classes", "timetable", "--calendar", url, "--now", "2026-11-22 12:00"], stdout=os.devnull)
            # The first change on the server writes each class's earlier years in parts of their own (once): not timed.
            for command in ("book", "cancel"):
                run([horari, command, "--calendar", url, "--member", "m0001", "--class", "yoga", "--date", "2026-11-23", "--now", "2026-11-22 12:00"])
            booked[y], server_put[y] = [], []
        for i in range(3):
            for y in (years if i % 2 == 0 else years[::-1]):
                url = f"{server.base}/bench/gym-{y}y/"
                booked[y].append(run([horari, "book", "--calendar", url, "--member", "m0001", "--class", "yoga",
                                      "--date", "2026-11-23", "--now", "2026-11-22 12:00"]))
                run([horari, "cancel", "--calendar", url, "--member", "m0001", "--class", "yoga",
                     "--date", "2026-11-23", "--now", "2026-11-22 12:00"])
                t, size = put_back(url + "yoga.ics")
                server_put[y].append(t)
                sizes[y] = size
        one = Pair.best(booked[years[0]])
        last = years[-1]
        t = Pair.best(booked[last])
        rows.append((f"book on Radicale (CalDAV, cache up to date), {last} years of history",
                     f"{secs(t)}, peak {mb(Pair.peak(booked[last]))}",
                     f"1 year: {secs(one)}; the server's own PUT of the class (1 year → {last}): "
                     f"{secs(min(server_put[years[0]]))} → {secs(min(server_put[last]))}",
                     f"{t / one:.2f}× the time", "≤ 2×" + verdict(t / one, 2.0)))
        for y in years:
            t, put = Pair.best(booked[y]), min(server_put[y])
            curves.append(("book on Radicale (CalDAV), cache up to date", f"{y} year{'s' if y > 1 else ''} of history "
                           f"(the class's resource {sizes[y] / MB:.2f} MB)", secs(t), mb(Pair.peak(booked[y])),
                           f"{t / one:.2f}× the 1-year time; the server's PUT of the class {secs(put)}, "
                           f"the rest {secs(max(t - put, 0))}"))
    finally:
        server.stop()
        for k, v in saved.items():
            if v is None:
                os.environ.pop(k, None)
            else:
                os.environ[k] = v
    return rows, curves


def compare(ours_path, theirs_path):
    """Horari's jsonl beside libical's lines: occurrences by UID and wall start."""
    import json
    from collections import Counter
    ours, theirs = Counter(), Counter()
    with open(ours_path) as f:
        for line in f:
            o = json.loads(line)
            wall = o["start"][:19].replace("-", "").replace(":", "")  # 2025-01-01T07:00:00+01:00 -> 20250101T070000
            ours[(o["uid"], wall)] += 1
    with open(theirs_path) as f:
        for line in f:
            uid, start = line.split(" ", 2)[:2]
            theirs[(uid, start)] += 1
    text = (f"Occurrences over 2025: Horari {sum(ours.values()):,}, libical {sum(theirs.values()):,}; "
            f"by UID and wall-clock start, ")
    only_ours, only_theirs = ours - theirs, theirs - ours
    if not only_ours and not only_theirs:
        return text + "the same occurrences."
    def some(c):
        return ", ".join(f"{u} {t}" for u, t in sorted(c)[:3]) or "none"
    return (text + f"{sum(only_ours.values()):,} only in Horari's (e.g. {some(only_ours)}) and "
            f"{sum(only_theirs.values()):,} only in libical's (e.g. {some(only_theirs)}).")


if __name__ == "__main__":
    main()
