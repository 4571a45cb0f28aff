#!/usr/bin/env python3
"""The gym on a real CalDAV server: `horari --calendar http://…/` against
Radicale (started here on 127.0.0.1, stopped by its process id), with the
`caldav` PyPI package as a second client.

1. import: the sample gym is imported into a new collection.
2. same as a file: every view and scheduling command gives the same output
   on the collection as on a copy of the sample in a file, before and after
   the same changes (members, bookings, a waitlist, a cancellation, sessions
   added, moved, cancelled and marked, class occurrences moved and
   cancelled, an event added, edited and deleted, a task done), and the two
   end as the same calendar.
3. 20 desks, the last places: 20 `book` processes at once, each with a cache
   of its own (20 machines), for the 3 places left of a class: exactly 3 are
   booked and 17 refused as full.
4. another client sees them: the `caldav` package reads the class's
   resource; that occurrence's RECURRENCE-ID instance has exactly the booked
   members as ATTENDEEs (PARTSTAT=ACCEPTED).
5. another client's change: the `caldav` package moves a class occurrence;
   the next `horari` command shows it moved, having fetched that one
   resource and no other (the sync token, RFC 6578).
6. the server gone mid-command (a proxy that cuts one request off): a read
   cut off answers from the cache, says so in one line (as of when), and
   leaves the cache byte for byte as it was; a
   booking whose PUT never arrives, or whose answer is lost, asks the
   server what it holds before saying anything: written again in the one
   case, found made in the other, booked once either way.
7. a 412 storm: 10 desks with up-to-date caches book the one place left at
   once through the proxy: exactly one is booked, and the server answered
   412 Precondition Failed to the others' writes.
8. wrong places: a collection that does not exist, a port nobody listens
   on, a scheme that is not http(s): one line each and exit 1.
10. a server that falls short (Conformance/fault_proxy.py, a process of its
   own in front of Radicale, started and stopped by its pid): 20 desks at
   once for the last places of a class while the proxy answers 423, 503
   (with Retry-After) or 500 (after making the write) to a share of the
   writes: exactly that many booked, the rest told the class is full, and
   every member told "booked" on the server's roster.
11. the same while the proxy lets a second PUT with the same If-Match
   through (a lost update, the first one's answer held till the second is
   made): exactly that many booked, every one on the roster.
12. the server gone: a read answers from the cache, exit 0, with one line
   saying as of when; a booking is refused with one line, nothing kept.
13. horari doctor: on Radicale, bookings are safe (and its scratch calendar
   and resource are gone afterwards); through the lost-update proxy, not.
14. a weekly limit of 2 and a booking cut off while holding the book's
   lease (the server gone for the rest of the command): once the lease
   lapses and another desk books the member's second place of the week,
   the first desk's next command drops the unfinished booking, and says
   so, instead of giving the member a third.
15. a lost update that lands after the first look (the proxy writes the
   old text back once the writer's first confirmation is answered, as
   Xandikos can): the booking's second look finds it, books again, and
   horari doctor from that desk says bookings are not safe there.

Usage: caldav_check.py HORARI_BINARY SAMPLE.ics [--only-faults]
Exit status 0 when every check passes, 1 otherwise.
"""
import base64
import hashlib
import json
import os
import shutil
import signal
import subprocess
import sys
import tempfile
import time
import urllib.request

import caldav
import icalendar

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from radicale_server import Proxy, Radicale, free_port  # noqa: E402

USER, PASSWORD = "gym", "front-desk"
NOW = ["--now", "2026-11-23 09:00"]
failures = []


def check(ok, what, detail=""):
    print(("ok    " if ok else "FAIL  ") + what + (("\n      " + detail.replace("\n", "\n      ")) if detail and not ok else ""))
    if not ok:
        failures.append(what)


class Desk:
    """One machine running horari: its own cache folder."""

    def __init__(self, horari, work, name):
        self.horari = horari
        self.cache = os.path.join(work, "desks", name)
        os.makedirs(self.cache, exist_ok=True)

    def env(self):
        # 20 desks at once on a 2-core machine keep Radicale busy: a request may wait longer than the default 30 s.
        env = dict(os.environ, XDG_CACHE_HOME=self.cache, HORARI_CALDAV_USER=USER, HORARI_CALDAV_PASSWORD=PASSWORD,
                   TZ="Asia/Tokyo", NO_COLOR="1", HORARI_CALDAV_TIMEOUT="180")
        env.pop("HORARI_CALDAV_URL", None)
        return env

    def run(self, args, calendar):
        return subprocess.run([self.horari] + args + ["--calendar", calendar], capture_output=True, text=True,
                              env=self.env(), timeout=300)

    def run_plain(self, args):
        return subprocess.run([self.horari] + args, capture_output=True, text=True, env=self.env(), timeout=300)

    def start(self, args, calendar):
        return subprocess.Popen([self.horari] + args + ["--calendar", calendar], stdout=subprocess.PIPE,
                                stderr=subprocess.PIPE, text=True, env=self.env())

    def state_folder(self, url):
        return os.path.join(self.cache, "horari", "caldav", hashlib.sha256(url.encode()).hexdigest())

    def snapshot(self, url):
        folder = self.state_folder(url)
        return {n: open(os.path.join(folder, n), "rb").read() for n in sorted(os.listdir(folder))
                if os.path.isfile(os.path.join(folder, n))}

    def state(self, url):
        with open(os.path.join(self.state_folder(url), "state.json")) as f:
            return json.load(f)


# The commands run alike on the file and on the collection: the reads, and
# the changes in order (each then followed by the reads again).
READS = [
    ["month", "--today", "2026-11-23"],
    ["week", "2026-11-25"],
    ["day", "2026-11-26"],
    ["list", "--from", "2026-11-23", "--limit", "40"],
    ["occurrences", "--from", "2026-11-23", "--to", "2026-12-20"],
    ["classes", "timetable", "--week", "2026-11-26"] + NOW,
    ["classes", "timetable", "--week", "2026-12-03"] + NOW,
    ["classes", "timetable"] + NOW,
    ["sessions", "list", "--coach", "marc"] + NOW,
    ["sessions", "list", "--coach", "laia", "--past"] + NOW,
    ["sessions", "history", "--client", "anna"] + NOW,
    ["sessions", "free", "--coach", "marc", "--from", "2026-11-30", "--to", "2026-12-01"] + NOW,
    ["clients", "list", "--coach", "marc"] + NOW,
    ["book", "--member", "marta", "--list"] + NOW,
    ["week", "2026-11-25", "--format", "json"],
]
# (A change refused on both, as it should be, is followed by its exit code.)
CHANGES = [
    ["members", "add", "quim2", "--name", "Quim Segon", "--email", "quim2@example.com"] + NOW,
    (["book", "--member", "quim", "--class", "pilates", "--date", "2026-11-26"] + NOW, 1),  # full
    ["book", "--member", "quim", "--class", "pilates", "--date", "2026-11-26", "--waitlist"] + NOW,
    ["cancel", "--member", "marta", "--class", "pilates", "--date", "2026-11-26"] + NOW,
    ["book", "--member", "quim2", "--class", "yoga", "--date", "2026-11-30"] + NOW,
    ["sessions", "add", "--coach", "marc", "--client", "anna", "--start", "2026-11-30 10:00", "--minutes", "60",
     "--type", "Strength", "--id", "s-anna-1130"] + NOW,
    (["sessions", "add", "--coach", "marc", "--client", "pau", "--start", "2026-11-30 10:30", "--minutes", "45"] + NOW, 1),  # a clash
    ["sessions", "move", "s-anna-1130", "--coach", "marc", "--start", "2026-12-01 10:00"] + NOW,
    ["sessions", "cancel", "s-anna-1130", "--coach", "marc"] + NOW,
    ["clients", "add", "berta", "--coach", "laia", "--name", "Berta Gil", "--email", "berta@example.com"] + NOW,
    ["classes", "cancel", "spin", "--date", "2026-12-04"] + NOW,
    ["classes", "move", "yoga", "--date", "2026-12-02", "--start", "2026-12-02 19:30"] + NOW,
    ["add", "Team lunch", "--start", "2026-11-24 14:00", "--minutes", "60", "--color", "orange", "--id", "team-lunch"] + NOW,
    ["edit", "team-lunch", "--start", "2026-11-24 14:30"] + NOW,
    ["add", "Order chalk", "--task", "--due", "2026-11-30 12:00", "--id", "order-chalk"] + NOW,
    ["done", "order-chalk"] + NOW,
    ["delete", "team-lunch", "--yes"] + NOW,
]


def same_as_file(desk, url, sample, work):
    """Every read and change gives the same output on the collection as on a file."""
    gym = os.path.join(work, "gym.ics")
    shutil.copy(sample, gym)

    def both(args, code=0):
        a, b = desk.run(args, gym), desk.run(args, url)
        same = a.returncode == code and (a.returncode, a.stdout.replace(gym, "CAL")) == (b.returncode, b.stdout.replace(url, "CAL"))
        detail = "" if same else "file (exit %d):\n%s%s\ncollection (exit %d):\n%s%s" % (
            a.returncode, a.stdout[-1500:], a.stderr[-500:], b.returncode, b.stdout[-1500:], b.stderr[-800:])
        return same, detail

    differ = []
    for args in READS:
        same, detail = both(args)
        if not same:
            differ.append("horari %s\n%s" % (" ".join(args), detail))
    check(not differ, "same as a file: %d reads give the same output on the collection as on the file" % len(READS),
          "\n".join(differ[:2]))
    differ = []
    for change in CHANGES:
        args, code = change if isinstance(change, tuple) else (change, 0)
        same, detail = both(args, code)
        if not same:
            differ.append("horari %s\n%s" % (" ".join(args), detail))
        for read in READS[:8]:
            same, detail = both(read)
            if not same:
                differ.append("after horari %s: horari %s\n%s" % (" ".join(args), " ".join(read), detail))
    check(not differ, "same as a file: %d changes, each followed by the views, give the same output on both" % len(CHANGES),
          "\n".join(differ[:2]))
    a, b = desk.run(["export", "--for", "all"], gym), desk.run(["export", "--for", "all"], url)
    ca, cb = components(a.stdout), components(b.stdout)
    missing = sorted(set(ca) - set(cb))
    extra = sorted(set(cb) - set(ca))
    changed = sorted(k for k in set(ca) & set(cb) if ca[k] != cb[k])
    check(a.returncode == 0 and b.returncode == 0 and not missing and not extra and not changed,
          "same as a file: the collection ends as the same calendar as the file (%d components compared)" % len(ca),
          "missing %s, extra %s, changed %s %s" % (missing[:3], extra[:3], changed[:3],
                                                   [(ca[k], cb[k]) for k in changed[:1]]))


def components(text):
    """Each component by (name, UID, RECURRENCE-ID): its lines but DTSTAMP, in one order."""
    out = {}
    cal = icalendar.Calendar.from_ical(text)
    for c in cal.walk():
        if c.name in ("VCALENDAR", "VTIMEZONE", "STANDARD", "DAYLIGHT"):
            continue
        key = (c.name, str(c.get("UID", "")), c["RECURRENCE-ID"].to_ical().decode() if "RECURRENCE-ID" in c else "")
        lines = sorted(l for l in c.to_ical().decode().replace("\r\n ", "").split("\r\n")
                       if l and not l.startswith(("DTSTAMP", "BEGIN:", "END:")))
        out[key] = lines
    return out


def roster(url, uid, recurrence):
    """The ACCEPTED attendees of one instance, as the `caldav` package reads them."""
    client = caldav.DAVClient(url=url, username=USER, password=PASSWORD)
    event = client.calendar(url=url).event_by_uid(uid)
    for c in event.icalendar_instance.walk("VEVENT"):
        if "RECURRENCE-ID" in c and c["RECURRENCE-ID"].to_ical().decode() == recurrence:
            attendees = c.get("ATTENDEE", [])
            attendees = attendees if isinstance(attendees, list) else [attendees]
            return sorted(str(a.params.get("X-HORARI-MEMBER", "")) for a in attendees if a.params.get("PARTSTAT") == "ACCEPTED")
    return []


def race(horari, work, url, cls, date, recurrence, capacity, left, desks, prefix):
    """`desks` processes at once for the `left` places of a class: exactly `left` booked."""
    front = Desk(horari, work, "front")
    members = ["%s%d" % (prefix, i) for i in range(1, capacity - left + desks + 1)]
    for m in members:
        r = front.run(["members", "add", m, "--name", "Member %s" % m] + NOW, url)
        if r.returncode:
            check(False, "members added for the race", r.stderr)
            return None
    for m in members[:capacity - left]:
        front.run(["book", "--member", m, "--class", cls, "--date", date] + NOW, url)
    racers = members[capacity - left:]
    return front, racers


class FaultProxy:
    """Conformance/fault_proxy.py in MODE in front of `port`: a process of its own, stopped by its pid."""

    def __init__(self, port, work, mode, *extra):
        port_file = os.path.join(work, "fault-proxy-%s.port" % mode)
        if os.path.exists(port_file):
            os.remove(port_file)
        script = os.path.join(os.path.dirname(os.path.abspath(__file__)), "fault_proxy.py")
        self.log = open(os.path.join(work, "fault-proxy-%s.log" % mode), "w")
        self.process = subprocess.Popen([sys.executable, script, str(port), port_file, mode] + list(extra),
                                        stdout=subprocess.PIPE, stderr=self.log, text=True)
        deadline = time.time() + 20
        while not os.path.exists(port_file):
            if self.process.poll() is not None or time.time() > deadline:
                raise RuntimeError("fault_proxy.py did not start")
            time.sleep(0.05)
        self.base = "http://127.0.0.1:%s" % open(port_file).read().strip()

    def stop(self):
        """Stops it by its pid; what it counted."""
        os.kill(self.process.pid, signal.SIGTERM)
        try:
            out, _ = self.process.communicate(timeout=10)
        except subprocess.TimeoutExpired:
            os.kill(self.process.pid, signal.SIGKILL)
            out, _ = self.process.communicate()
        self.log.close()
        try:
            return json.loads(out.strip().splitlines()[-1])
        except (ValueError, IndexError):
            return {}


def fault_race(horari, work, url, server, mode, cls, date, recurrence, capacity, left, prefix):
    """20 desks at once, through the fault proxy in `mode`, for the last `left` places of a class."""
    _, racers = race(horari, work, url, cls, date, recurrence, capacity, left, 20, prefix)
    proxy = FaultProxy(server.port, work, mode)
    start = time.time()
    try:
        purl = proxy.base + "/%s/gym/" % USER
        runs = [Desk(horari, work, "%s-%s" % (mode, m)).start(["book", "--member", m, "--class", cls, "--date", date] + NOW, purl)
                for m in racers]
        results = [(m, p.wait(timeout=600), p.stdout.read(), p.stderr.read()) for m, p in zip(racers, runs)]
    finally:
        counts = proxy.stop()
    seconds = time.time() - start
    booked = sorted(m for m, code, out, _ in results if code == 0 and out.startswith("Booked %s into" % m))
    full = [m for m, code, _, err in results if code == 1 and "is full" in err]
    seen = roster(url, cls, recurrence)
    odd = "\n".join("%s: exit %d %s %s" % (m, c, o.strip(), e.strip()) for m, c, o, e in results if m not in booked and m not in full)
    check(len(booked) == left and len(full) == 20 - left and set(booked) <= set(seen) and len(seen) == capacity,
          "%s: 20 desks at once for the last %d places: %d booked, %d told it is full, every one booked on the server's roster "
          "(%d on it; %.1f s; the proxy: %s)" % (mode, left, len(booked), len(full), len(seen), seconds, counts),
          "%s\nroster: %s\nbooked: %s" % (odd, seen, booked))
    faults = counts.get("423", 0) + counts.get("503", 0) + counts.get("500-after-write", 0) if mode == "faults" else counts.get("doubled", 0)
    check(faults > 0, "%s: the proxy did fall short (%d times)" % (mode, faults), str(counts))


def late_lost_update(horari, work, url, server):
    """One desk books through the late-lost-update proxy: its second look finds its write gone, books again, and says so to doctor."""
    front = Desk(horari, work, "front")
    r = front.run(["members", "add", "late1", "--name", "Late One"] + NOW, url)
    check(r.returncode == 0, "late: member added", r.stderr)
    proxy = FaultProxy(server.port, work, "late-lost-update")
    desk = Desk(horari, work, "late")
    purl = proxy.base + "/%s/gym/" % USER
    try:
        r = desk.run(["book", "--member", "late1", "--class", "yoga", "--date", "2026-12-21"] + NOW, purl)
        seen = roster(url, "yoga", "20261221T183000")
        record = desk.state(purl).get("lostUpdates") or {}
        doctor = desk.run_plain(["doctor", purl])
    finally:
        counts = proxy.stop()
    check(counts.get("late") == 1 and r.returncode == 0 and r.stdout.startswith("Booked late1") and "late1" in seen
          and record.get("count") == 1 and record.get("resource") == "yoga.ics",
          "a write of the old text that lands after the booking's first look (as Xandikos lets one land): the second look finds the "
          "booking gone and books again; late1 on the server's roster; the desk's cache records the lost update",
          "exit %d: %s%s\nroster: %s\nrecord: %s\nproxy: %s" % (r.returncode, r.stdout, r.stderr, seen, record, counts))
    check(doctor.returncode == 1 and "NO  lost updates found by this machine's changes" in doctor.stdout
          and "1 found, the last on yoga.ics" in doctor.stdout,
          "horari doctor from that desk: bookings are NOT safe, for the lost update its booking found (the probe's own race passed)",
          "exit %d: %s%s" % (doctor.returncode, doctor.stdout, doctor.stderr))


def main():
    horari, sample = os.path.abspath(sys.argv[1]), os.path.abspath(sys.argv[2])
    with tempfile.TemporaryDirectory() as work:
        server = Radicale(work)
        proxy = Proxy(("127.0.0.1", server.port))
        try:
            if "--only-faults" in sys.argv[3:]:
                url = server.base + "/%s/gym/" % USER
                r = subprocess.run([horari, "import", sample, "--into", url], capture_output=True, text=True,
                                   env=Desk(horari, work, "front").env(), timeout=300)
                check(r.returncode == 0, "import: the sample imported into a new collection", r.stderr)
                run_faults(horari, work, url, server)
            else:
                run_all(horari, sample, work, server, proxy)
        finally:
            proxy.stop()
            server.stop()
    if failures:
        print("\n%d CalDAV check(s) failed" % len(failures))
        sys.exit(1)
    print("\nevery CalDAV check passed")


def run_all(horari, sample, work, server, proxy):
    url = server.base + "/%s/gym/" % USER
    front = Desk(horari, work, "front")

    # 1. import into a new collection.
    r = subprocess.run([horari, "import", sample, "--into", url], capture_output=True, text=True, env=front.env(), timeout=300)
    check(r.returncode == 0 and r.stdout.startswith("added 13,"), "import: the sample imported into a new collection",
          r.stdout + r.stderr)
    client = caldav.DAVClient(url=url, username=USER, password=PASSWORD)
    texts = [o.load().data for o in client.calendar(url=url).objects()]
    uids = sorted({str(c["UID"]) for t in texts for c in icalendar.Calendar.from_ical(t).walk() if "UID" in c})
    sample_uids = sorted({str(c["UID"]) for c in icalendar.Calendar.from_ical(open(sample, "rb").read()).walk()
                          if "UID" in c})
    check([u for u in uids if u != "horari-calendar"] == sample_uids and "horari-calendar" in uids,
          "import: one resource per UID on the server (%d), and one for the calendar's own properties" % len(sample_uids),
          "server: %s\nsample: %s" % (uids, sample_uids))

    # 2. the same as a file.
    same_as_file(front, url, sample, work)

    # 3. 20 desks for the last 3 places of Spinning on 2026-12-11 (10 places).
    front, racers = race(horari, work, url, "spin", "2026-12-11", "20261211T070000", 10, 3, 20, "r")
    start = time.time()
    runs = [Desk(horari, work, "desk-%s" % m).start(["book", "--member", m, "--class", "spin", "--date", "2026-12-11"] + NOW, url)
            for m in racers]
    results = [(m, p.wait(timeout=300), p.stdout.read(), p.stderr.read()) for m, p in zip(racers, runs)]
    seconds = time.time() - start
    booked = sorted(m for m, code, out, _ in results if code == 0 and out.startswith("Booked %s into Spinning" % m))
    full = [m for m, code, _, err in results if code == 1 and "is full" in err]
    check(len(booked) == 3 and len(full) == 17,
          "20 desks at once (each its own cache) for the last 3 places: %d booked, %d refused as full (%.1f s)" % (len(booked), len(full), seconds),
          "\n".join("%s: exit %d %s %s" % (m, c, o.strip(), e.strip()) for m, c, o, e in results if m not in booked and m not in full))
    t = front.run(["classes", "timetable", "--week", "2026-12-11"] + NOW, url)
    check("Spinning  (full, 0 waiting)" in t.stdout, "the timetable then says Spinning on 2026-12-11 is full", t.stdout + t.stderr)

    # 4. the caldav package sees the booked members as ATTENDEEs of that occurrence.
    seen = roster(url, "spin", "20261211T070000")
    check(len(seen) == 10 and set(booked) <= set(seen) and not (set(racers) - set(booked)) & set(seen),
          "the caldav package reads that occurrence's ATTENDEEs (PARTSTAT=ACCEPTED): the 10 booked, none refused",
          "caldav read: %s\nbooked by the race: %s" % (seen, booked))

    # 5. another client's change appears after a sync, fetching only that resource.
    before = front.state(url)
    client = caldav.DAVClient(url=url, username=USER, password=PASSWORD)
    event = client.calendar(url=url).event_by_uid("yoga")
    cal = event.icalendar_instance
    master = next(c for c in cal.walk("VEVENT") if "RECURRENCE-ID" not in c)
    moved = icalendar.Event()
    for name in ("UID", "SUMMARY", "DURATION"):
        if name in master:
            moved.add(name, master[name])
    moved.add("RECURRENCE-ID", icalendar.vDatetime(icalendar.Calendar.from_ical(
        "BEGIN:VCALENDAR\r\nBEGIN:VEVENT\r\nDTSTART;TZID=Europe/Madrid:20261214T183000\r\nEND:VEVENT\r\nEND:VCALENDAR\r\n").walk("VEVENT")[0]["DTSTART"].dt))
    moved["RECURRENCE-ID"].params["TZID"] = "Europe/Madrid"
    moved.add("DTSTART", icalendar.Calendar.from_ical(
        "BEGIN:VCALENDAR\r\nBEGIN:VEVENT\r\nDTSTART;TZID=Europe/Madrid:20261214T200000\r\nEND:VEVENT\r\nEND:VCALENDAR\r\n").walk("VEVENT")[0]["DTSTART"].dt)
    moved["DTSTART"].params["TZID"] = "Europe/Madrid"
    moved.add("DTSTAMP", master["DTSTAMP"].dt)
    moved.add("SEQUENCE", 1)
    cal.add_component(moved)
    event.data = cal.to_ical().decode()
    event.save()
    t = front.run(["classes", "timetable", "--week", "2026-12-14"] + NOW, url)
    after = front.state(url)
    changed = sorted(h for h in set(before["members"]) | set(after["members"])
                     if before["members"].get(h, {}).get("etag") != after["members"].get(h, {}).get("etag"))
    check("Mon 2026-12-14 20:00" in t.stdout and "moved from 2026-12-14 18:30" in t.stdout,
          "another client (caldav) moves Monday's yoga to 20:00: the next timetable shows it moved", t.stdout + t.stderr)
    check(len(changed) == 1 and changed[0].endswith("/yoga.ics") and before["syncToken"] != after["syncToken"],
          "… having synced from its token and fetched that one resource (%s)" % ", ".join(os.path.basename(h) for h in changed),
          "resources fetched again: %s" % changed)

    # 6. the server gone mid-command, through the proxy.
    purl = proxy.base + "/%s/gym/" % USER
    cut = Desk(horari, work, "cut")
    r = cut.run(["classes", "timetable", "--week", "2026-12-14"] + NOW, purl)
    check(r.returncode == 0, "through the proxy, a desk reads the collection", r.stderr)
    snapshot = cut.snapshot(purl)
    # A read cut off once (a keep-alive connection the server had just closed) is asked again.
    reports = proxy.count("REPORT", 207)
    proxy.cut = ("REPORT", "before")
    r = cut.run(["classes", "timetable", "--week", "2026-12-14"] + NOW, purl)
    check(r.returncode == 0 and not r.stderr.strip() and proxy.count("REPORT", 207) > reports and cut.snapshot(purl) == snapshot,
          "a read whose connection is cut once is asked again: answered by the server, nothing said, the cache as it was",
          "exit %d: %s" % (r.returncode, r.stderr))
    # The server gone for the rest of the command: every request cut off.
    proxy.cut = ("REPORT", "down", 0)
    r = cut.run(["classes", "timetable", "--week", "2026-12-14"] + NOW, purl)
    proxy.up()
    lines = [l for l in r.stderr.splitlines() if l.strip()]
    check(r.returncode == 0 and len(lines) == 1 and purl in lines[0] and "as of" in lines[0] and cut.snapshot(purl) == snapshot,
          "the server gone during a read: answered from the cache with one line naming the URL and as of when, exit 0, the cache byte for byte as it was",
          "exit %d: %s" % (r.returncode, r.stderr))
    proxy.cut = ("PUT", "before")
    r = cut.run(["book", "--member", "quim2", "--class", "yoga", "--date", "2026-12-21"] + NOW, purl)
    pending = cut.state(purl).get("pending", [])
    check(r.returncode == 0 and r.stdout.startswith("Booked quim2") and not pending and roster(url, "yoga", "20261221T183000") == ["quim2"],
          "a booking whose PUT never reaches the server: the server is asked, does not hold it, and it is written again: booked, on the server, nothing pending",
          "exit %d: %s%s\npending: %s" % (r.returncode, r.stdout, r.stderr, pending))
    r = cut.run(["book", "--member", "quim2", "--list"] + NOW, purl)
    check(r.returncode == 0 and "2026-12-21" in r.stdout and roster(url, "yoga", "20261221T183000") == ["quim2"]
          and not cut.state(purl).get("pending"),
          "… the next command sees it booked once, the cache nothing pending", r.stdout + r.stderr)
    proxy.cut = ("PUT", "after")
    r = cut.run(["book", "--member", "quim2", "--class", "yoga", "--date", "2026-12-28"] + NOW, purl)
    check(r.returncode == 0 and r.stdout.startswith("Booked quim2") and roster(url, "yoga", "20261228T183000") == ["quim2"],
          "a booking whose answer is lost: the server is asked before anything is said; it holds the booking: booked",
          "exit %d: %s%s" % (r.returncode, r.stdout, r.stderr))
    r = cut.run(["book", "--member", "quim2", "--list"] + NOW, purl)
    check(r.returncode == 0 and r.stdout.count("2026-12-28") == 1 and "another client" not in r.stderr
          and roster(url, "yoga", "20261228T183000") == ["quim2"] and not cut.state(purl).get("pending"),
          "… the next command finds it made: booked once, nothing pending, no conflict said", r.stdout + r.stderr)

    # 7. a 412 storm: 10 desks with up-to-date caches, one place (Reformer Pilates on 2026-12-03, 4 places).
    _, racers = race(horari, work, url, "pilates", "2026-12-03", "20261203T190000", 4, 1, 10, "p")
    desks = [Desk(horari, work, "storm-%s" % m) for m in racers]
    for d in desks:
        d.run(["classes", "timetable", "--week", "2026-12-03"] + NOW, purl)
    refused_before = proxy.count("PUT", 412)
    proxy.hold("PUT", len(racers), 20)
    runs = [d.start(["book", "--member", m, "--class", "pilates", "--date", "2026-12-03"] + NOW, purl) for d, m in zip(desks, racers)]
    results = [(m, p.wait(timeout=300), p.stdout.read(), p.stderr.read()) for m, p in zip(racers, runs)]
    won = [m for m, code, _, _ in results if code == 0]
    refused = proxy.count("PUT", 412) - refused_before
    check(len(won) == 1 and all(code == 1 and "is full" in err for m, code, _, err in results if m not in won)
          and refused == len(racers) - 1
          and len(roster(url, "pilates", "20261203T190000")) == 4,
          "a 412 storm: 10 desks with up-to-date caches, one place, their PUTs held by the proxy till all 10 came: exactly one booked, the server refused %d writes with 412" % refused,
          "\n".join("%s: exit %d %s %s" % r for r in results))

    # 8. the first change of a new year: last year's rosters go to last year's part (issue 21's yearly parts).
    weeks = ["2026-12-14", "2026-12-21", "2026-12-28"]
    before = [front.run(["classes", "timetable", "--week", w] + NOW, url).stdout for w in weeks]
    r = front.run(["book", "--member", "quim2", "--class", "yoga", "--date", "2027-01-04", "--now", "2027-01-02 10:00"], url)
    after = [front.run(["classes", "timetable", "--week", w] + NOW, url).stdout for w in weeks]
    cal = client.calendar(url=url)
    yoga = [c for c in cal.event_by_uid("yoga").icalendar_instance.walk("VEVENT")]
    early = [c["RECURRENCE-ID"].to_ical().decode() for c in yoga if "RECURRENCE-ID" in c and c["RECURRENCE-ID"].dt.year < 2027]
    master = next(c for c in yoga if "RECURRENCE-ID" not in c)
    check(r.returncode == 0 and roster(url, "yoga@2026", "20261221T183000") == ["quim2"]
          and roster(url, "yoga@2026", "20261228T183000") == ["quim2"] and roster(url, "yoga", "20270104T183000") == ["quim2"]
          and not early and master["DTSTART"].dt.year == 2027 and before == after,
          "the first booking of 2027 writes 2026 as a part of its own (yoga@2026) holding that year's rosters; yoga keeps 2027 on; "
          "the 2026 timetables read the same",
          "exit %d: %s\nyoga's instances before 2027: %s; its DTSTART %s; timetables the same: %s"
          % (r.returncode, r.stderr, early, master["DTSTART"].dt, before == after))

    # 9. wrong places.
    for what, place, needle in [
        ("a collection that does not exist", server.base + "/%s/nothing-here/" % USER, "no collection"),
        ("a port nobody listens on", "http://127.0.0.1:%d/%s/gym/" % (free_port(), USER), "127.0.0.1"),
        ("a scheme that is not http(s)", "ftp://127.0.0.1/%s/gym/" % USER, "ftp://"),
    ]:
        r = front.run(["month", "--today", "2026-11-23"], place)
        lines = [l for l in r.stderr.splitlines() if l.strip()]
        check(r.returncode == 1 and len(lines) == 1 and needle in lines[0] and not r.stdout,
              "%s: one line, exit 1 (%s)" % (what, lines[0] if lines else ""), "exit %d: %s" % (r.returncode, r.stderr))

    weekly_limit_cut_off(horari, sample, work, server, proxy, front)
    run_faults(horari, work, url, server)


def lapse_lease(url):
    """Writes the book's lease as lapsed, as 30 s of the clock would: the
    calendar's own resource (UID horari-calendar), conditional on its tag."""
    auth = "Basic " + base64.b64encode(("%s:%s" % (USER, PASSWORD)).encode()).decode()
    for obj in caldav.DAVClient(url=url, username=USER, password=PASSWORD).calendar(url=url).objects():
        href = str(obj.url)
        with urllib.request.urlopen(urllib.request.Request(href, headers={"Authorization": auth})) as answer:
            text, etag = answer.read().decode(), answer.headers["ETag"]
        if "UID:horari-calendar\r\n" not in text:
            continue
        lines = [l if not l.startswith("X-HORARI-LEASE:") else l.rsplit(" ", 1)[0] + " 20000101T000000Z" for l in text.split("\r\n")]
        urllib.request.urlopen(urllib.request.Request(href, data="\r\n".join(lines).encode(), method="PUT", headers={
            "Authorization": auth, "If-Match": etag, "Content-Type": "text/calendar; charset=utf-8"})).read()
        return "X-HORARI-LEASE:" in text
    return False


def weekly_limit_cut_off(horari, sample, work, server, proxy, front):
    # 14. A weekly limit of 2 and a booking cut off (issue 40, 5): desk A books lim into Wednesday's Yoga
    # holding the book's lease; its PUT is cut off and the server stays gone, so the write stays pending.
    # A's lease lapses; desk B books lim into Thursday's Pilates (Monday's Yoga is booked: 2 of 2). A's
    # next command, a read, must not finish the booking: lim would hold 3 places in a week of 2.
    url = server.base + "/%s/limit/" % USER
    r = subprocess.run([horari, "import", sample, "--into", url], capture_output=True, text=True, env=front.env(), timeout=300)
    for args in (["classes", "policy", "--weekly-limit", "2"], ["members", "add", "lim", "--name", "Lim Sala"],
                 ["book", "--member", "lim", "--class", "yoga", "--date", "2026-12-07"]):
        r = front.run(args + NOW, url)
        check(r.returncode == 0, "a weekly limit: " + " ".join(args), r.stdout + r.stderr)
    a, purl = Desk(horari, work, "cut-off"), proxy.base + "/%s/limit/" % USER
    a.run(["classes", "timetable"] + NOW, purl)
    proxy.cut = ("PUT", "down", 1)  # the lease's PUT goes through; the booking's does not, nor anything after
    r = a.run(["book", "--member", "lim", "--class", "yoga", "--date", "2026-12-09"] + NOW, purl)
    proxy.up()
    pending = a.state(purl).get("pending", [])
    check(r.returncode == 1 and pending and "Booked" not in r.stdout,
          "a weekly limit: a booking made holding the lease and cut off is not said booked, and kept pending",
          "exit %d: %s%s\npending: %s" % (r.returncode, r.stdout, r.stderr, pending))
    lapsed = lapse_lease(url)
    r = front.run(["book", "--member", "lim", "--class", "pilates", "--date", "2026-12-10"] + NOW, url)
    check(lapsed and r.returncode == 0 and r.stdout.startswith("Booked lim"),
          "a weekly limit: once the cut-off desk's lease lapsed, another desk books the second place of the week",
          "lease lapsed: %s; exit %d: %s%s" % (lapsed, r.returncode, r.stdout, r.stderr))
    r = a.run(["book", "--member", "lim", "--list"] + NOW, purl)
    held = [d for d in ("2026-12-07", "2026-12-09", "2026-12-10") if d in r.stdout]
    check(r.returncode == 0 and held == ["2026-12-07", "2026-12-10"] and "dropped" in r.stderr and not a.state(purl).get("pending")
          and roster(url, "yoga", "20261209T183000") == [],
          "a weekly limit: the cut-off desk's next command drops its unfinished booking (it says so) rather than give lim a third place",
          "exit %d; held %s\n%s%s" % (r.returncode, held, r.stdout, r.stderr))
    r = front.run(["validate", "--strict"], url)
    check(r.returncode == 0, "a weekly limit: the collection validates strictly after", r.stdout + r.stderr)


def run_faults(horari, work, url, server):
    # 10. 423, 503 and 500 answers to a share of the writes: Spinning on 2026-12-18 (10 places), the last 4.
    fault_race(horari, work, url, server, "faults", "spin", "2026-12-18", "20261218T070000", 10, 4, "f")
    # 11. two PUTs with one If-Match both taken: Yoga on 2026-12-16 (12 places), the last 3.
    fault_race(horari, work, url, server, "lost-update", "yoga", "2026-12-16", "20261216T183000", 12, 3, "l")
    # 15. a lost update that lands after the writer's first look (as Xandikos lets one land): Yoga on 2026-12-21.
    late_lost_update(horari, work, url, server)
    # 13. horari doctor: Radicale is safe; through the lost-update proxy it is not; the scratch resource is removed.
    desk = Desk(horari, work, "doctor")
    members = sorted(os.listdir(os.path.join(server.storage, USER, "gym")))
    collections = sorted(os.listdir(os.path.join(server.storage, USER)))
    r = desk.run_plain(["doctor", url])
    check(r.returncode == 0 and "Bookings are safe" in r.stdout and "NO  " not in r.stdout
          and sorted(os.listdir(os.path.join(server.storage, USER, "gym"))) == members
          and sorted(os.listdir(os.path.join(server.storage, USER))) == collections,
          "horari doctor on Radicale: sync-collection, MKCALENDAR, conditional writes under a race: bookings are safe; its scratch calendar and resource removed",
          "exit %d: %s%s" % (r.returncode, r.stdout, r.stderr))
    proxy = FaultProxy(server.port, work, "lost-update", "--hold", "5")
    try:
        r = desk.run_plain(["doctor", proxy.base + "/%s/gym/" % USER])
    finally:
        proxy.stop()
    check(r.returncode == 1 and "Bookings are NOT safe" in r.stdout and "NO  writes with one If-Match at once" in r.stdout,
          "horari doctor through a server that takes two writes with one If-Match: bookings are not safe, exit 1",
          "exit %d: %s%s" % (r.returncode, r.stdout, r.stderr))
    # 12. the server gone: reads answer from the cache, saying as of when; a change is refused, nothing kept.
    desk = Desk(horari, work, "offline")
    online = desk.run(["classes", "timetable", "--week", "2026-12-16"] + NOW, url)
    server.stop()
    offline = desk.run(["classes", "timetable", "--week", "2026-12-16"] + NOW, url)
    lines = [l for l in offline.stderr.splitlines() if l.strip()]
    check(online.returncode == 0 and offline.returncode == 0 and offline.stdout == online.stdout and len(lines) == 1
          and "as of" in lines[0] and "cannot be reached" in lines[0],
          "the server gone: a read answers from the cache, exit 0, with one line saying as of when (%s)" % (lines[0] if lines else ""),
          "exit %d: %s\nonline (exit %d):\n%s%s\noffline:\n%s" % (offline.returncode, offline.stderr, online.returncode,
                                                             online.stdout, online.stderr, offline.stdout))
    r = desk.run(["book", "--member", "l20", "--class", "yoga", "--date", "2026-12-21"] + NOW, url)
    lines = [l for l in r.stderr.splitlines() if l.strip()]
    check(r.returncode == 1 and len(lines) == 1 and "nothing was changed" in lines[0] and not desk.state(url).get("pending"),
          "… a booking is refused with one line, and nothing is kept to be written later (%s)" % (lines[0] if lines else ""),
          "exit %d: %s" % (r.returncode, r.stderr))


if __name__ == "__main__":
    main()
