#!/usr/bin/env python3
"""Offline changes of one's own (issue 44, 11) against a real CalDAV server:
Radicale, started here on 127.0.0.1 and stopped by its process id, taken
out of reach (stopped, its storage kept) and brought back on its port.

1. The CLI, as a student on a train: with the server out of reach, `done`,
   `add`, `edit` and `delete` of her own tasks are kept on this device (exit
   0, one line on standard error saying so and how many wait), `list
   --pending` shows them, and a booking is refused with one line, nothing
   kept. Meanwhile another client (the `caldav` package, a client nobody
   here wrote) deletes one of the tasks she ticked and changes another she
   edited. The next command that reaches the server sends the kept changes
   in order, says what became of each, and the server then holds exactly:
   her tick and her new task; not the deleted task brought back; the other
   client's change, not hers over it.
2. The TaskPlanner example app (`TaskPlanner put|tick|sync URL`), through
   the library alone: the week put on the server, two tasks ticked with
   no signal (kept on the phone), one of them deleted on the server
   meanwhile; `sync` says the one is made and the other not brought back,
   and the server holds that.

Usage: offline_check.py HORARI_BINARY TASKPLANNER_BINARY
"""
import os
import shutil
import subprocess
import sys
import tempfile

import caldav
import icalendar

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from radicale_server import Radicale  # noqa: E402

FAILURES = []


def check(ok, what, detail=""):
    print(("ok    " if ok else "FAIL  ") + what)
    if not ok:
        FAILURES.append(what)
        if detail:
            print("      " + detail.replace("\n", "\n      "))


def run(binary, args, work):
    os.makedirs(work, exist_ok=True)
    env = dict(os.environ, HOME=work, XDG_CACHE_HOME=os.path.join(work, "cache"), TZ="Asia/Tokyo",
               HORARI_CALDAV_USER="laia", HORARI_CALDAV_PASSWORD="x", NO_COLOR="1")
    return subprocess.run([binary] + args, env=env, capture_output=True, text=True, timeout=300)


def objects(url):
    """Each resource the server holds, read by the caldav package, with its VTODOs and VEVENTs (icalendar)."""
    client = caldav.DAVClient(url=url, username="laia", password="x")
    for obj in list(client.calendar(url=url).objects()):
        try:
            obj.load()
        except caldav.lib.error.NotFoundError:  # listed, then deleted (by the check itself a moment ago)
            continue
        parsed = icalendar.Calendar.from_ical(obj.data)
        yield obj, [c for c in parsed.walk() if c.name in ("VTODO", "VEVENT")]


def todos(url):
    """What the server holds: summary → (status, component)."""
    return {str(c.get("SUMMARY")): (str(c.get("STATUS", "")), c) for _, cs in objects(url) for c in cs}


def change_elsewhere(url, summary, edit=None):
    """Another client deletes the resource holding `summary` (`edit` None) or changes its text."""
    for obj, components in objects(url):
        if any(str(c.get("SUMMARY")) == summary for c in components):
            if edit is None:
                obj.delete()
            else:
                obj.data = edit(obj.data)
                obj.save()
            return True
    return False


def cli(horari, work, server):
    url = server.base + "/laia/tasks/"
    cal = ["--calendar", url]
    for args in (["add", "Essay plan", "--task", "--due", "2026-12-04 20:00", "--id", "essay", "--time-zone", "Europe/Madrid"],
                 ["add", "Problem sheet", "--task", "--due", "2026-12-02 20:00", "--id", "sheet"],
                 ["add", "Read Kant", "--task", "--due", "2026-12-05 20:00", "--id", "kant"],
                 ["add", "Lab report", "--task", "--due", "2026-12-06 20:00", "--id", "lab"]):
        r = run(horari, args + cal, work)
        if r.returncode != 0:
            check(False, "setting up the student's tasks", r.stderr)
            return
    server.interrupt()
    steps = [(["done", "essay"], "Done: task ‘Essay plan’"),
             (["done", "kant"], "Done: task ‘Read Kant’"),
             (["add", "Buy a notebook", "--task", "--due", "2026-12-03 10:00", "--id", "notebook"], "Added task ‘Buy a notebook’"),
             (["edit", "lab", "--title", "Lab report (draft)"], "Changed task ‘Lab report’"),
             (["delete", "sheet", "--yes"], "Deleted task ‘Problem sheet’")]
    for waiting, (args, said) in enumerate(steps, start=1):
        r = run(horari, args + cal, work)
        # (delete reads the calendar first, to show what it deletes: a line says that read was the cache's.)
        lines = [l for l in r.stderr.splitlines() if "the change is kept on this device" in l]
        wait = "it is the only change waiting" if waiting == 1 else "%d changes wait" % waiting
        check(r.returncode == 0 and said in r.stdout and len(lines) == 1 and wait in lines[0],
              "offline: horari %s is kept on this device (%s)" % (" ".join(args[:2]), wait),
              "exit %d\n%s%s" % (r.returncode, r.stdout, r.stderr))
    r = run(horari, ["list", "--pending", "--now", "2026-12-01 10:00"] + cal, work)
    check(r.returncode == 0 and "Buy a notebook" in r.stdout and "Essay plan" not in r.stdout and "Problem sheet" not in r.stdout
          and "Lab report (draft)" in r.stdout and "with the 5 changes you made since" in r.stderr,
          "offline: list --pending shows the calendar with the kept changes, and says so",
          "exit %d\n%s%s" % (r.returncode, r.stdout, r.stderr))
    r = run(horari, ["gym", "address", "Gym <desk@gym.example>", "--calendar", url], work)
    check(r.returncode == 1 and "nothing was changed" in r.stderr and "kept" not in r.stdout,
          "offline: a change to the gym's book is refused with one line, nothing kept",
          "exit %d\n%s%s" % (r.returncode, r.stdout, r.stderr))

    # Meanwhile, on the laptop (another client): Kant deleted, the lab report changed.
    server.resume()
    deleted = change_elsewhere(url, "Read Kant")
    edited = change_elsewhere(url, "Lab report", lambda text: text.replace("SUMMARY:Lab report", "DESCRIPTION:Use the new data\r\nSUMMARY:Lab report"))
    check(deleted and edited, "meanwhile the caldav package deletes Read Kant and changes the lab report on the server")

    r = run(horari, ["list", "--pending", "--now", "2026-12-01 10:00"] + cal, work)
    sent = [l for l in r.stderr.splitlines() if "made while the server could not be reached" in l]
    expected = ["the change to ‘Essay plan’, made while the server could not be reached, is now on the server",
                "the change to ‘Read Kant’, made while the server could not be reached, was not made: it was deleted on the server since; it is not brought back",
                "adding ‘Buy a notebook’, made while the server could not be reached, is now on the server",
                "the change to ‘Lab report (draft)’, made while the server could not be reached, was not made: it was changed on the server since",
                "deleting ‘Problem sheet’, made while the server could not be reached, is now on the server"]
    check(r.returncode == 0 and len(sent) == 5 and all(e in s for e, s in zip(expected, sent)),
          "back online: the next command sends the 5 kept changes in order and says what became of each",
          "exit %d\n%s%s" % (r.returncode, r.stdout, r.stderr))
    held = todos(url)
    check(set(held) == {"Essay plan", "Buy a notebook", "Lab report"} and held["Essay plan"][0] == "COMPLETED"
          and str(held["Lab report"][1].get("DESCRIPTION")) == "Use the new data",
          "the server holds her tick and her new task, not Kant brought back, and the laptop's change to the lab report, not hers over it",
          repr({k: v[0] for k, v in held.items()}))
    r = run(horari, ["list", "--pending", "--now", "2026-12-01 10:00"] + cal, work)
    check(r.returncode == 0 and "made while" not in r.stderr, "nothing is sent twice", r.stderr)


def planner(app, work, server):
    url = server.base + "/laia/planner/"
    r = run(app, ["put", url], work)
    check(r.returncode == 0 and "put 6 items" in r.stdout, "TaskPlanner put: the week on the server", r.stdout + r.stderr)
    server.interrupt()
    r = run(app, ["tick", url, "6f1c2a9e-1", "6f1c2a9e-7"], work)
    check(r.returncode == 0 and "ticked ‘History essay’ (no signal: kept on the phone, 1 waiting)" in r.stdout
          and "ticked ‘Maths problem set 7’ (no signal: kept on the phone, 2 waiting)" in r.stdout,
          "TaskPlanner tick with no signal: both ticks kept on the phone", r.stdout + r.stderr)
    server.resume()
    check(change_elsewhere(url, "Maths problem set 7"), "meanwhile the caldav package deletes the problem set on the server")
    r = run(app, ["sync", url], work)
    check(r.returncode == 0 and "the change to ‘History essay’, made while the server could not be reached, is now on the server" in r.stdout
          and "the change to ‘Maths problem set 7’, made while the server could not be reached, was not made: it was deleted on the server since; it is not brought back" in r.stdout
          and "2 kept changes sent; 0 waiting" in r.stdout,
          "TaskPlanner sync: the essay's tick made, the deleted problem set not brought back", r.stdout + r.stderr)
    held = todos(url)
    check(held.get("History essay", ("",))[0] == "COMPLETED" and "Maths problem set 7" not in held,
          "the server holds the essay done and no problem set", repr({k: v[0] for k, v in held.items()}))


def main():
    if len(sys.argv) != 3:
        raise SystemExit(__doc__)
    horari, app = os.path.abspath(sys.argv[1]), os.path.abspath(sys.argv[2])
    work = tempfile.mkdtemp(prefix="horari-offline-")
    server = Radicale(work)
    try:
        cli(horari, os.path.join(work, "cli"), server)
        planner(app, os.path.join(work, "phone"), server)
    finally:
        server.stop()
        shutil.rmtree(work, ignore_errors=True)
    print("offline_check: %s" % ("ok" if not FAILURES else "%d failure(s)" % len(FAILURES)))
    sys.exit(1 if FAILURES else 0)


if __name__ == "__main__":
    main()
