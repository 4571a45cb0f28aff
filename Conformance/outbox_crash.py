#!/usr/bin/env python3
"""Kills horari with SIGKILL at random moments of closures and class changes
on a database calendar, and checks that the messages they owe survive.

    python3 Conformance/outbox_crash.py .build/release/horari [--runs 30]
    python3 Conformance/outbox_crash.py .build/release/horari --file
    python3 Conformance/outbox_crash.py .build/release/horari --folder
    python3 Conformance/outbox_crash.py .build/debug/horari --postgres-bin /usr/lib/postgresql/15/bin

The first on an SQLite calendar; the second on the sample's own `.ics` file,
which keeps what a change owes as journals of its own, in the same save
(read back with Python's `icalendar`); the third on a folder of one `.ics`
per UID (a vdir), whose change of several files is journalled first; the
fourth on a PostgreSQL 15 the
script starts itself (Conformance/pg_cluster.py: a cluster in a temporary
folder, on 127.0.0.1, stopped by its process ID), `--calendar postgres://…`,
read back with `psql`.

The sample gym is imported into an SQLite calendar, its members given
addresses and booked into Yoga on many dates. Then `horari classes close DATE
--outbox out/` runs thirty times (one date each) and `horari classes change
yoga --from DATE --time HH:MM --outbox out/` thirty times, each killed with
SIGKILL after a random pause, often before it ends. Then `horari outbox out/`
delivers whatever is still owed. What must hold (issue 40, 4):

- every message the database committed (with its change, in one transaction)
  is delivered: marked so, and its .eml is in out/ (matched by recipient,
  method, SEQUENCE and occurrence);
- every .eml in out/ is one of those: none for a change that did not land;
  (a file forgets a message once it is delivered, so there every message it
  was seen to owe after a kill is delivered, and it owes none at the end);
- every closure that landed told each member booked that day (a CANCEL), and
  one that did not land told no one.

Python's `email` package reads the .eml files, `icalendar` their invitations,
Python's `sqlite3` or PostgreSQL's `psql` the database; none of them is horari.
"""
import base64
import datetime
import email
import glob
import json
import os
import random
import shutil
import sqlite3
import subprocess
import sys
import tempfile
import time

import icalendar

from pg_cluster import Cluster

NOW = "2026-11-22 10:00"
GYM = "Gimnàs Sants <hola@gimnas.example>"
MEMBERS = ["marta", "oriol", "nuria", "pol", "quim", "aina"]
BOOKED = ["marta", "pol", "quim"]


def main():
    horari = os.path.abspath(sys.argv[1])
    runs = int(sys.argv[sys.argv.index("--runs") + 1]) if "--runs" in sys.argv else 30
    if "--postgres-bin" in sys.argv:
        with Cluster(sys.argv[sys.argv.index("--postgres-bin") + 1], durable=False) as cluster:
            check(horari, runs, cluster.url())
    else:
        check(horari, runs, None, in_file="gym.ics" if "--file" in sys.argv else "gym/" if "--folder" in sys.argv else None)


def owed_in_file(path):
    """The messages a calendar file (or each file of a folder) owes, read by Python's icalendar: each VJOURNAL of CATEGORIES horari-owed, its X-HORARI-OWED JSON in base64."""
    if os.path.isdir(path):
        return [m for name in sorted(os.listdir(path)) if name.endswith(".ics") and not name.startswith(".") for m in owed_in_file(os.path.join(path, name))]
    with open(path, "rb") as f:
        calendar = icalendar.Calendar.from_ical(f.read())
    owed = []
    for journal in calendar.walk("VJOURNAL"):
        categories = journal.get("CATEGORIES")
        if categories is not None and "horari-owed" in categories.to_ical().decode().lower().split(","):
            owed.append(json.loads(base64.b64decode(str(journal.get("X-HORARI-OWED")))))
    return owed


def message_key(message):
    notice = message["notice"]
    place = notice["subject"]["classPlace"]["_0"]
    return (notice["recipient"]["email"], notice["method"], notice["sequence"], place["originalStart"][:10])


def owed_rows(work, postgres):
    """Every message the database committed, in order: (its JSON, whether delivered), read by sqlite3 or psql."""
    if postgres is None:
        connection = sqlite3.connect(os.path.join(work, "gym.sqlite"))
        rows = connection.execute("SELECT body, delivered_at FROM owed_message ORDER BY position").fetchall()
        connection.close()
        return [(json.loads(body), delivered_at is not None) for body, delivered_at in rows]
    query = ("SELECT json_build_array(convert_from(body, 'UTF8')::json, delivered_at IS NOT NULL) "
             "FROM horari.owed_message ORDER BY position")
    out = subprocess.run(["psql", postgres, "-X", "-A", "-t", "-v", "ON_ERROR_STOP=1", "-c", query], capture_output=True, text=True, check=True).stdout
    return [tuple(json.loads(line)) for line in out.splitlines() if line.strip()]


def check(horari, runs, postgres, in_file=None):
    """On a database (postgres's URL, else SQLite), or on `in_file`: the calendar file `gym.ics` or the folder `gym/`."""
    work = tempfile.mkdtemp(prefix="horari-outbox-crash-")
    env = dict(os.environ, TZ="Asia/Tokyo", LC_ALL="C.UTF-8")
    calendar = postgres or in_file or "gym.sqlite"
    seen_owed = {}
    out = os.path.join(work, "out")
    failures = []

    def horari_run(*args):
        r = subprocess.run([horari, *args], cwd=work, env=env, capture_output=True, text=True)
        if r.returncode != 0:
            raise SystemExit(f"outbox_crash: horari {' '.join(args)} failed ({r.returncode}): {r.stderr.strip()}")
        return r.stdout

    try:
        horari_run("sample", "--write", "gym.ics")
        if calendar != "gym.ics":
            horari_run("import", "gym.ics", "--into", calendar)
        for m in MEMBERS:
            horari_run("members", "edit", m, "--email", f"{m}@example.com", "--calendar", calendar)
        # Yoga meets on Mondays and Wednesdays: the closures' dates, then the changes'.
        day, dates = datetime.date(2026, 12, 7), []
        while len(dates) < runs + 10:
            if day.weekday() in (0, 2) and not (datetime.date(2026, 12, 24) <= day <= datetime.date(2026, 12, 26)):
                dates.append(day.isoformat())
            day += datetime.timedelta(days=1)
        closing, changing = dates[:runs], dates[runs:runs + 10]
        for d in closing + changing:
            for m in BOOKED:
                horari_run("book", "--member", m, "--class", "yoga", "--date", d, "--calendar", calendar, "--now", NOW)

        rng = random.Random(int(os.environ.get("OUTBOX_CRASH_SEED", str(int(time.time())))))
        killed = {"close": 0, "change": 0}
        # Kills land across a whole change. The pause is drawn up to 1.25 times
        # the longest time a change of this kind took when it ran to its end
        # (the longest: only runs shorter than their pause are timed, so a
        # median would shrink run by run), so most runs are killed somewhere
        # inside, whatever the
        # build and the machine's load (a debug build on a server takes far
        # longer than a release build on a file, and CI runs lanes side by
        # side). The first estimate is 2.5 reads of the book, at least 0.25 s.
        started = time.monotonic()
        horari_run("classes", "closures", "--all", "--calendar", calendar)
        first_guess = max(0.25, 2.5 * (time.monotonic() - started))
        took = {"close": [], "change": []}

        def longest(kind):
            return 1.25 * max(took[kind]) if took[kind] else first_guess

        def killed_run(kind, args):
            pause = rng.uniform(0.005, longest(kind))
            started = time.monotonic()
            p = subprocess.Popen([horari, *args], cwd=work, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
            try:
                p.wait(timeout=pause)
                took[kind].append(time.monotonic() - started)
            except subprocess.TimeoutExpired:
                p.kill()
                killed[kind] += 1
                p.wait()
            if in_file:
                for message in owed_in_file(os.path.join(work, calendar)):
                    seen_owed[message["id"]] = message

        common = ["--calendar", calendar, "--outbox", "out", "--gym", GYM, "--now", NOW]
        for i, d in enumerate(closing):
            killed_run("close", ["classes", "close", d, "--reason", f"Closed {i}"] + common)
        for i in range(runs):
            d = changing[i % len(changing)]
            killed_run("change", ["classes", "change", "yoga", "--from", d, "--time", ["19:00", "20:00", "18:30"][i % 3]] + common)
        delivered = subprocess.run([horari, "outbox", "out", "--calendar", calendar, "--gym", GYM], cwd=work, env=env, capture_output=True, text=True)
        if delivered.returncode != 0:
            failures.append(f"horari outbox failed ({delivered.returncode}): {delivered.stderr.strip()}")

        # What the store committed, read by Python's sqlite3, psql or icalendar.
        committed = {}
        if in_file:
            for message in owed_in_file(os.path.join(work, calendar)):
                failures.append(f"owed and not delivered after horari outbox: {message_key(message)}")
            rows = [(message, True) for message in seen_owed.values()]
        else:
            rows = owed_rows(work, postgres)
        for message, delivered in rows:
            key = message_key(message)
            committed[key] = committed.get(key, 0) + 1
            if not delivered:
                failures.append(f"owed and not delivered after horari outbox: {key}")
        # What reached the outbox, read by Python's email and icalendar.
        mailed = set()
        for path in glob.glob(os.path.join(out, "*.eml")):
            with open(path, "rb") as f:
                msg = email.message_from_binary_file(f)
            to = email.utils.parseaddr(msg["To"])[1]
            calendars = [p for p in msg.walk() if p.get_content_type() == "text/calendar"]
            if not calendars:
                failures.append(f"{os.path.basename(path)}: no text/calendar part")
                continue
            cal = icalendar.Calendar.from_ical(calendars[0].get_payload(decode=True))
            for event in cal.walk("VEVENT"):
                rid = event.get("RECURRENCE-ID")
                when = (rid.dt if rid else event.get("DTSTART").dt)
                mailed.add((to, str(cal.get("METHOD")), int(event.get("SEQUENCE", 0)), when.date().isoformat() if hasattr(when, "date") else when.isoformat()))
        for key in sorted(set(committed) - mailed):
            failures.append(f"committed, owed, and no .eml for it: {key}")
        for key in sorted(mailed - set(committed)) if not in_file else []:
            failures.append(f"an .eml no committed change owes: {key}")

        # The closures that landed, as horari lists them, and whom they told.
        listed = json.loads(horari_run("classes", "closures", "--all", "--calendar", calendar, "--format", "json"))
        landed = {c["first"] for c in listed["closures"]}
        for d in closing:
            told = {to for (to, method, _, day) in mailed if method == "CANCEL" and day == d}
            expected = {f"{m}@example.com" for m in BOOKED} if d in landed else set()
            if told != expected:
                failures.append(f"closure of {d} ({'landed' if d in landed else 'not landed'}): told {sorted(told)}, expected {sorted(expected)}")

        print(f"outbox_crash ({'PostgreSQL' if postgres else 'folder' if in_file == 'gym/' else '.ics file' if in_file else 'SQLite'}): {runs} closures ({killed['close']} killed, {len(landed)} landed) and {runs} class changes "
              f"({killed['change']} killed); {len(committed)} messages {'seen owed after a kill' if in_file else 'committed'}, {len(mailed)} delivered")
        if killed["close"] + killed["change"] < runs // 2:
            failures.append(f"only {killed['close'] + killed['change']} of {2 * runs} runs were killed before they ended; the check says little")
        for f in failures[:40]:
            print("  " + f)
        if failures:
            print(f"outbox_crash: {len(failures)} failures (the folder is kept: {work})")
            sys.exit(1)
        shutil.rmtree(work)
    except SystemExit:
        raise
    except Exception:
        print(f"outbox_crash: the folder is kept: {work}")
        raise


if __name__ == "__main__":
    main()
