#!/usr/bin/env python3
"""The gym's bookings on a second CalDAV server nobody here wrote: Xandikos
(from PyPI, git-backed), started here on 127.0.0.1 and stopped by its
process id (issue 41, point 15).

Xandikos checks a write's If-Match, then parses the old and new texts (for
its commit message), then takes its lock and writes: two writes that
checked one tag can both be taken, the second over the first. horari
confirms every change by reading back what the server holds, twice (the
second look a little later: CollectionStore.confirm), and makes again a
change the server lost.

1. import: the sample gym is imported into a new collection.
2. the race, RUNS times: 12 desks (each its own cache, as 12 machines) book
   the last 6 places of a Yoga class (12 places) at once; in half the runs
   their writes are held by a proxy till all 12 have come, so they surely
   race. Never more told "Booked" than places; every one told "Booked" on
   the server's roster as the `caldav` package reads it; the roster full;
   the others told the class is full.
3. horari doctor says Xandikos is NOT safe for bookings (its race of
   conditional writes found two taken), exit 1. The probe's race is a
   matter of chance (about one round in three takes two writes here), so
   a doctor that found nothing is asked once more.
4. a desk whose booking found a lost update (if any did) has it said by
   horari doctor from its own cache.

Usage: xandikos_check.py HORARI_BINARY SAMPLE.ics [RUNS]
Exit status 0 when every check passes, 1 otherwise.
"""
import os
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from caldav_check import NOW, Desk, check, failures, roster  # noqa: E402
from radicale_server import Proxy, Xandikos  # noqa: E402

PLACES, LEFT, DESKS = 12, 6, 12
# Yoga meets on Mondays and Wednesdays at 18:30 (Europe/Madrid).
DATES = ["2026-12-02", "2026-12-07", "2026-12-09", "2026-12-14", "2026-12-16", "2026-12-21", "2026-12-23", "2026-12-28"]


def race(horari, work, server, url, run, held):
    date = DATES[run]
    front = Desk(horari, work, "front")
    members = ["x%d_%d" % (run, i) for i in range(PLACES - LEFT + DESKS)]
    for m in members:
        r = front.run(["members", "add", m, "--name", "Member %s" % m] + NOW, url)
        if r.returncode:
            check(False, "members added for run %d" % (run + 1), r.stderr)
            return []
    for m in members[:PLACES - LEFT]:
        r = front.run(["book", "--member", m, "--class", "yoga", "--date", date] + NOW, url)
        if r.returncode:
            check(False, "the first %d places booked for run %d" % (PLACES - LEFT, run + 1), r.stderr)
            return []
    racers = members[PLACES - LEFT:]
    desks = [Desk(horari, work, "desk-%s" % m) for m in racers]
    target, proxy = url, None
    if held:
        proxy = Proxy(("127.0.0.1", server.port))
        proxy.hold("PUT", DESKS, 30)
        target = proxy.base + "/gym/calendars/gym/"
    start = time.time()
    try:
        runs = [d.start(["book", "--member", m, "--class", "yoga", "--date", date] + NOW, target) for d, m in zip(desks, racers)]
        results = [(m, p.wait(timeout=600), p.stdout.read(), p.stderr.read()) for m, p in zip(racers, runs)]
    finally:
        if proxy:
            proxy.stop()
    seconds = time.time() - start
    booked = sorted(m for m, code, out, _ in results if code == 0 and out.startswith("Booked %s into Yoga" % m))
    full = [m for m, code, _, err in results if code == 1 and "is full" in err]
    seen = roster(url, "yoga", date.replace("-", "") + "T183000")
    odd = "\n".join("%s: exit %d %s %s" % (m, c, o.strip(), e.strip()) for m, c, o, e in results if m not in booked and m not in full)
    lost = [d for d in desks if (d.state(url).get("lostUpdates") if os.path.exists(os.path.join(d.state_folder(url), "state.json")) else None)]
    check(len(booked) == LEFT and len(full) == DESKS - LEFT and set(booked) <= set(seen) and len(seen) == PLACES,
          "run %d (%s): %d desks at once for the last %d places%s: %d told booked, %d told it is full, every one booked on the "
          "server's roster (%d on it; %.1f s; %d desk(s) found a lost update and booked again)"
          % (run + 1, date, DESKS, LEFT, ", their writes held till all came" if held else "", len(booked), len(full), len(seen),
             seconds, len(lost)),
          "%s\nroster: %s\nbooked: %s\nnot on the roster: %s" % (odd, seen, booked, sorted(set(booked) - set(seen))))
    return lost


def main():
    horari, sample = os.path.abspath(sys.argv[1]), os.path.abspath(sys.argv[2])
    runs = int(sys.argv[3]) if len(sys.argv) > 3 else 6
    with tempfile.TemporaryDirectory() as work:
        server = Xandikos(work)
        try:
            url = server.base + "/gym/calendars/gym/"
            front = Desk(horari, work, "front")
            r = subprocess.run([horari, "import", sample, "--into", url], capture_output=True, text=True, env=front.env(), timeout=300)
            check(r.returncode == 0, "import: the sample imported into a new collection on Xandikos", r.stderr)
            if r.returncode:
                return
            lost = []
            for run in range(runs):
                lost += race(horari, work, server, url, run, held=run % 2 == 1)
            # 3. horari doctor: not safe (the probe's race is chance: asked once more if it found nothing).
            doctor = Desk(horari, work, "doctor")
            tries = []
            for _ in range(2):
                r = doctor.run_plain(["doctor", url])
                tries.append(r)
                if r.returncode == 1:
                    break
            check(r.returncode == 1 and "Bookings are NOT safe" in r.stdout and "NO  writes with one If-Match at once" in r.stdout,
                  "horari doctor on Xandikos: bookings are NOT safe (%s), exit 1 (%d run(s))"
                  % (next((l.split(": no: ", 1)[1] for l in r.stdout.splitlines() if l.startswith("NO  writes")), "?"), len(tries)),
                  "\n".join("exit %d: %s%s" % (t.returncode, t.stdout, t.stderr) for t in tries))
            # 4. a desk that found a lost update has it said by doctor from its own cache.
            if lost:
                r = lost[0].run_plain(["doctor", url])
                check(r.returncode == 1 and "NO  lost updates found by this machine's changes" in r.stdout,
                      "horari doctor from a desk whose booking found a lost update says so (and NOT safe)",
                      "exit %d: %s%s" % (r.returncode, r.stdout, r.stderr))
            else:
                print("--    no desk found a lost update in these runs, so doctor's record of them is not checked here "
                      "(caldav_check.py check 15 does, through a proxy)")
            r = front.run(["validate", "--strict"], url)
            check(r.returncode == 0, "the collection validates strictly after the races", r.stdout + r.stderr)
        finally:
            server.stop()
    if failures:
        print("\n%d Xandikos check(s) failed" % len(failures))
        sys.exit(1)
    print("\nevery Xandikos check passed")


if __name__ == "__main__":
    main()
