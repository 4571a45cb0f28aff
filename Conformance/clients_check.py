#!/usr/bin/env python3
"""Real clients take what Horari exports.

1. khal (a terminal calendar): `khal import --batch` of the exported sample
   calendar, then `khal list` over a window shows every event horari lists
   there (khal ignores VTODO).
2. Radicale (a CalDAV server) on 127.0.0.1: every exported item (one UID with
   its changed instances and the VTIMEZONEs it uses, the directory's journals
   too) is PUT into a calendar collection, accepted, and a GET returns it
   with the same UID; for an export that holds the scheduling book, the book
   read back from what the server returned is the original (Radicale drops
   components it does not know, which is why the book is standard iCalendar).
3. calcurse (a terminal organiser that reads no RECURRENCE-ID instances):
   `calcurse -i` of the export, then `calcurse -Q` over the window shows every
   event horari lists there at its wall time in Madrid, and nothing else, but
   for one justified difference: a class occurrence that has its own
   RECURRENCE-ID instance (moved, or holding its roster: the booked members
   are that instance's ATTENDEEs) also shows at its series time, since
   calcurse imports the instance as an event of its own and keeps the
   series' date (excluding that date as well would make recurring-ical-events
   drop the instance). A cancelled occurrence is an EXDATE, so calcurse hides
   it as every reader does.
4. ical (the strict pydantic parser Home Assistant uses): it parses the
   export without an error, and its timeline over the window holds every
   event horari lists, at the same wall time, and nothing else.
5. icalendar with recurring-ical-events: the occurrences it expands from the
   export are horari's (the same form the corpus check compares).
6. vobject: it parses the export, and each series' rule set (RRULE, RDATE,
   EXDATE, with the changed instances put in place by RECURRENCE-ID) gives
   horari's start times.

Every client reads every export of the sample: the file as it is, and the
four audiences of `horari export --for` (all, public, member marta, coach
marc). The matrix at the end has a cell per client and export: pass, or
pass* with the justification printed under it.

Usage: clients_check.py HORARI_BINARY SAMPLE.ics [EXPORT-OPTIONS...]
(with options, for example `--for member marta`, only that export is checked.)
Exit status 0 when every cell passes, 1 otherwise.
"""
import json
import os
import subprocess
import sys
import tempfile
import urllib.request
import base64
import datetime
import shutil

import icalendar

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from radicale_server import Radicale  # noqa: E402

HERE = os.path.dirname(os.path.abspath(__file__))
EXPORTS = [("file", []), ("all", ["--for", "all"]), ("public", ["--for", "public"]),
           ("member marta", ["--for", "member", "marta"]), ("coach marc", ["--for", "coach", "marc"])]

FROM, TO = "2026-11-01", "2026-12-31"


def sh(cmd, **kw):
    return subprocess.run(cmd, capture_output=True, text=True, **kw)


def khal_config(work, name="horari"):
    """A khal configuration with one calendar folder under WORK, Madrid time,
    ISO dates; returns its path. (Conformance/readme_tour.py uses it too.)"""
    cal = os.path.join(work, "khal", "cal")
    os.makedirs(cal, exist_ok=True)
    config = os.path.join(work, "khal", "config")
    with open(config, "w") as f:
        f.write(f"""[calendars]
[[{name}]]
path = {cal}
type = calendar
[locale]
timeformat = %H:%M
dateformat = %Y-%m-%d
longdateformat = %Y-%m-%d
datetimeformat = %Y-%m-%d %H:%M
longdatetimeformat = %Y-%m-%d %H:%M
local_timezone = Europe/Madrid
default_timezone = Europe/Madrid
[default]
default_calendar = {name}
[sqlite]
path = {work}/khal/khal.db
""")
    return config


def khal_check(horari, exported, work):
    env = dict(os.environ, LC_ALL="C")
    config = khal_config(work)
    khal = os.path.join(os.path.dirname(sys.executable), "khal")
    r = sh([khal, "-c", config, "import", "--batch", exported], env=env)
    if r.returncode != 0:
        return ["khal import failed: " + (r.stderr or r.stdout)[-400:]]
    r = sh([khal, "-c", config, "--no-color", "list", "-df", "", "-f", "{start-date} {title} [{uid}]", FROM, TO], env=env)
    if r.returncode != 0:
        return ["khal list failed: " + r.stderr[-400:]]
    listed = set(l.strip() for l in r.stdout.splitlines() if l.strip())
    ours = sh([horari, "occurrences", exported, "--from", FROM, "--to", TO + "T00:00:00", "--format", "jsonl"])
    problems, count = [], 0
    for line in ours.stdout.splitlines():
        o = json.loads(line)
        if o["component"] != "VEVENT":
            continue
        count += 1
        want = "%s %s [%s]" % (o["start"][:10], o["summary"], o["uid"])
        if want not in listed:
            problems.append("khal list does not show: " + want)
    print("khal: imported the export; khal list shows %d of the %d events horari lists in %s..%s"
          % (count - len(problems), count, FROM, TO))
    return problems


def book_survives(horari, exported, returned, work):
    """The scheduling book read back from what the server returned: the
    calendar's own lines and zones from the export (a server keeps those
    apart from its resources), every other component from the GETs. The
    book's full export, `DTSTAMP`s aside, must be the original's."""
    original = icalendar.Calendar.from_ical(open(exported, "rb").read())
    lines = [l for l in open(exported, encoding="utf-8", newline="").read().split("\r\n") if l]
    head = lines[:next(i for i, l in enumerate(lines) if l.startswith("BEGIN:") and i > 0)]
    body = []
    for c in original.walk("VTIMEZONE"):
        body.append(c.to_ical().decode())
    for text in returned:
        for c in icalendar.Calendar.from_ical(text).subcomponents:
            if c.name != "VTIMEZONE":
                body.append(c.to_ical().decode())
    folder = os.path.join(work, "book-survives")
    os.makedirs(folder, exist_ok=True)
    rebuilt = os.path.join(folder, "rebuilt.ics")
    with open(rebuilt, "w", newline="") as f:
        f.write("\r\n".join(head) + "\r\n" + "".join(body).replace("\r\n", "\n").replace("\n", "\r\n") + "END:VCALENDAR\r\n")
    def backup(path):
        r = sh([horari, "export", path, "--for", "all"], env=dict(os.environ, TZ="UTC"))
        # (text mode: line ends arrive as \n)
        return r.returncode, [l for l in r.stdout.replace("\n ", "").split("\n") if not l.startswith("DTSTAMP:")], r.stderr
    (rc1, a, e1), (rc2, b, e2) = backup(exported), backup(rebuilt)
    if rc1 != 0 or rc2 != 0:
        return ["the book cannot be read back from the server: " + (e2 or e1)[-300:]]
    if a != b:
        diff = next((i for i, (x, y) in enumerate(zip(a, b)) if x != y), min(len(a), len(b)))
        return ["the book read back from the server differs from the original at its line %d: %r against %r"
                % (diff + 1, b[diff] if diff < len(b) else "(end)", a[diff] if diff < len(a) else "(end)")]
    print("radicale: the scheduling book read back from the server is the original (%d lines of its backup)" % len(a))
    return []


def radicale_check(exported, server, collection, horari=None, work=None):
    base = server.base
    auth = "Basic " + base64.b64encode(b"alice:x").decode()

    def request(method, url, body=None, headers=None):
        req = urllib.request.Request(base + url, data=body, method=method,
                                     headers=dict({"Authorization": auth}, **(headers or {})))
        try:
            with urllib.request.urlopen(req, timeout=10) as resp:
                return resp.status, resp.read()
        except urllib.error.HTTPError as e:
            return e.code, e.read()

    problems, returned = [], []
    try:
        status, _ = request("MKCALENDAR", "/alice/%s/" % collection)
        if status not in (200, 201):
            return ["MKCALENDAR answered %d" % status]
        cal = icalendar.Calendar.from_ical(open(exported, "rb").read())
        zones = {str(c["TZID"]): c for c in cal.walk("VTIMEZONE")}
        groups = {}
        for c in cal.subcomponents:
            if c.name in ("VEVENT", "VTODO", "VJOURNAL"):
                groups.setdefault(str(c["UID"]), []).append(c)
        accepted = 0
        for uid, members in groups.items():
            one = icalendar.Calendar()
            one.add("VERSION", "2.0")
            one.add("PRODID", str(cal["PRODID"]))
            used = {str(v.params["TZID"]) for m in members for _, v in m.property_items()
                    if "TZID" in getattr(v, "params", {})}
            for tzid in sorted(used):
                if tzid in zones:
                    one.add_component(zones[tzid])
            for m in members:
                one.add_component(m)
            name = "/alice/%s/%s.ics" % (collection, "".join(ch if ch.isalnum() else "-" for ch in uid))
            status, body = request("PUT", name, one.to_ical(), {"Content-Type": "text/calendar; charset=utf-8"})
            if status not in (200, 201, 204):
                problems.append("PUT %s answered %d: %s" % (uid, status, body[:200]))
                continue
            status, body = request("GET", name)
            back = icalendar.Calendar.from_ical(body)
            uids = {str(c["UID"]) for c in back.walk() if c.name in ("VEVENT", "VTODO", "VJOURNAL")}
            if status != 200 or uids != {uid}:
                problems.append("GET %s answered %d with UIDs %s" % (uid, status, uids))
                continue
            returned.append(body)
            accepted += 1
        print("radicale: %d of %d exported items (journals too) accepted by PUT and returned by GET with the same UID"
              % (accepted, len(groups)))
        if horari and any(c.name == "VJOURNAL" or c.name.startswith("X-HORARI-") for c in cal.subcomponents):
            problems += book_survives(horari, exported, returned, work)
    finally:
        pass
    return problems


def calcurse_check(horari, exported, work):
    """calcurse lists the events horari lists, at the same wall times."""
    if not shutil.which("calcurse"):
        return ["calcurse is not installed (make conformance installs it with apt-get)"]
    data, conf = os.path.join(work, "calcurse", "data"), os.path.join(work, "calcurse", "conf")
    os.makedirs(data)
    os.makedirs(conf)
    env = dict(os.environ, TZ="Europe/Madrid", LC_ALL="C")
    r = sh(["calcurse", "-D", data, "-C", conf, "-i", exported], env=env)
    if r.returncode != 0:
        return ["calcurse -i failed: " + (r.stderr or r.stdout)[-400:]]
    # calcurse's --to is the last day shown; horari's --to is the first day not.
    last = datetime.date.fromisoformat(TO) - datetime.timedelta(days=1)
    (y1, m1, d1), (y2, m2, d2) = FROM.split("-"), last.isoformat().split("-")
    r = sh(["calcurse", "-D", data, "-C", conf, "-Q", "--filter-type", "cal",
            "--from", f"{m1}/{d1}/{y1}", "--to", f"{m2}/{d2}/{y2}",
            "--format-apt", " %(start:%Y-%m-%d %H:%M) %m\n", "--format-recur-apt", " %(start:%Y-%m-%d %H:%M) %m\n",
            "--format-event", " %m\n", "--format-recur-event", " %m\n"], env=env)
    if r.returncode != 0:
        return ["calcurse -Q failed: " + (r.stderr or r.stdout)[-400:]]
    # Lines are " <date> <time> <summary>" under a "mm/dd/yy:" day heading;
    # an all-day event is " <summary>" and takes the heading's date.
    shown, day = [], None
    for line in r.stdout.splitlines():
        if line.endswith(":") and not line.startswith(" "):
            m, d, y = line[:-1].split("/")
            day = f"20{y}-{m}-{d}"
        elif line.startswith(" ") and line.strip():
            text = line[1:]
            shown.append(text if text[:4].isdigit() and text[10:11] == " " else f"{day} {text}")
    ours = sh([horari, "occurrences", exported, "--from", FROM, "--to", TO + "T00:00:00", "--format", "jsonl"])
    want = []
    for line in ours.stdout.splitlines():
        o = json.loads(line)
        if o["component"] != "VEVENT":
            continue
        timed = "T" in o["start"]
        want.append(f"{o['start'][:10]} {o['start'][11:16]} {o['summary']}" if timed else f"{o['start'][:10]} {o['summary']}")
    # The series times of the occurrences that have an instance of their own.
    instances = set()
    for c in icalendar.Calendar.from_ical(open(exported, "rb").read()).walk("VEVENT"):
        if "RECURRENCE-ID" in c:
            rid = c["RECURRENCE-ID"].dt
            instances.add(f"{rid:%Y-%m-%d %H:%M} {c.get('SUMMARY')}")
    problems = []
    left = list(shown)
    for w in want:
        if w in left:
            left.remove(w)
        else:
            problems.append("calcurse does not show: " + w)
    justified = [x for x in left if x in instances]
    problems += ["calcurse shows what horari does not: " + x for x in left if x not in instances]
    print("calcurse: imported the export; shows %d of the %d events horari lists in %s..%s%s"
          % (len(want) - len([p for p in problems if "does not show" in p]), len(want), FROM, TO,
             "; and %d occurrence(s) with an instance of their own at the series time too (justified: calcurse reads no RECURRENCE-ID)" % len(justified)
             if justified else ""))
    if justified and not problems:
        return Justified("an occurrence with a RECURRENCE-ID instance of its own (moved, or holding its roster) also shows at "
                         "its series time: calcurse reads no RECURRENCE-ID (RFC 5545 §3.8.4.4), importing the instance as an "
                         "event of its own; excluding the date too would make recurring-ical-events drop the instance")
    return problems


class Justified(list):
    """A check that passes with a difference it explains."""

    def __init__(self, why):
        super().__init__()
        self.why = why


def horari_events(horari, exported):
    """horari's VEVENT occurrences in the window, as (uid, wall start in its own zone, summary)."""
    r = sh([horari, "occurrences", exported, "--from", FROM, "--to", TO + "T00:00:00", "--format", "jsonl"])
    out = []
    for line in r.stdout.splitlines():
        o = json.loads(line)
        if o["component"] == "VEVENT":
            out.append((o["uid"], o["start"][:16].replace("T", " "), o["summary"] or ""))
    return sorted(out)


def ical_check(horari, exported):
    """ical (allenporter/ical): a strict parser; its timeline in Madrid."""
    import zoneinfo
    from ical.calendar_stream import IcsCalendarStream
    try:
        cal = IcsCalendarStream.calendar_from_ics(open(exported, encoding="utf-8").read())
    except Exception as e:  # the parser's own error types vary by version
        return ["ical refuses the export: %s: %s" % (type(e).__name__, str(e)[:300])]
    tz = zoneinfo.ZoneInfo("Europe/Madrid")
    start = datetime.datetime.fromisoformat(FROM).replace(tzinfo=tz)
    end = datetime.datetime.fromisoformat(TO).replace(tzinfo=tz)
    seen = []
    for e in cal.timeline_tz(tz).overlapping(start, end):
        s = e.dtstart
        text = s.isoformat()[:16].replace("T", " ") if isinstance(s, datetime.datetime) else s.isoformat()
        seen.append((e.uid, text, e.summary or ""))
    want = horari_events(horari, exported)
    # ical leaves out the first instance of a series with RDATEs and no RRULE
    # (ical 14.3: DTSTART 11-23 + RDATE 11-25 gives 11-25 alone), as a
    # member's export writes her dates of a class (issue 41, 2). RFC 5545
    # §3.8.5.3: "The 'DTSTART' property defines the first instance in the
    # recurrence set"; recurring-ical-events, khal, calcurse and vobject show it.
    firsts = set()
    for c in icalendar.Calendar.from_ical(open(exported, "rb").read()).walk("VEVENT"):
        if "RDATE" in c and "RRULE" not in c and "RECURRENCE-ID" not in c:
            firsts.add((str(c["UID"]), c["DTSTART"].dt.isoformat()[:16].replace("T", " ")))
    missed = [w for w in want if w not in seen and w[:2] in firsts]
    problems = compare("ical", sorted(seen), [w for w in want if w not in missed])
    if missed and not problems:
        print("ical: and leaves out %d first instance(s) of series with RDATEs alone (justified: RFC 5545 §3.8.5.3)" % len(missed))
        return Justified("ical leaves out the DTSTART instance of a series with RDATEs and no RRULE; RFC 5545 §3.8.5.3 makes "
                         "DTSTART the first instance of the recurrence set, and recurring-ical-events, khal, calcurse and vobject show it")
    return problems


def compare(client, seen, want):
    problems = ["%s does not show: %s" % (client, w) for w in want if w not in seen]
    problems += ["%s shows what horari does not: %s" % (client, x) for x in seen if x not in want]
    print("%s: read the export; shows %d of the %d events horari lists in %s..%s"
          % (client, len([w for w in want if w in seen]), len(want), FROM, TO))
    return problems


def icalendar_check(horari, exported):
    """icalendar + recurring-ical-events (the corpus check's reference expander)."""
    r = sh([sys.executable, os.path.join(HERE, "peers", "expand_reference.py"), exported, FROM, TO])
    if r.returncode != 0:
        return ["icalendar cannot read the export: " + r.stderr[-300:]]
    ours = sh([horari, "occurrences", exported, "--from", FROM, "--to", TO + "T00:00:00", "--format", "jsonl"])
    theirs = sorted(r.stdout.splitlines())
    mine = sorted(ours.stdout.splitlines())
    problems = ["icalendar + recurring-ical-events: not in horari's: " + x for x in theirs if x not in mine]
    problems += ["icalendar + recurring-ical-events: missing: " + x for x in mine if x not in theirs]
    print("icalendar + recurring-ical-events: %d occurrences in %s..%s, %s horari's"
          % (len(theirs), FROM, TO, "the same as" if not problems else "not all"))
    return problems


def vobject_check(horari, exported):
    """vobject: each series' rule set, changed instances put in place by RECURRENCE-ID."""
    import vobject
    import zoneinfo
    tz = zoneinfo.ZoneInfo("Europe/Madrid")
    try:
        cal = vobject.readOne(open(exported, encoding="utf-8").read())
    except Exception as e:  # vobject raises its own ParseError and others
        return ["vobject cannot read the export: %s: %s" % (type(e).__name__, str(e)[:300])]
    start = datetime.datetime.fromisoformat(FROM).replace(tzinfo=tz)
    end = datetime.datetime.fromisoformat(TO).replace(tzinfo=tz)

    def aware(t):
        if isinstance(t, datetime.datetime):
            return t if t.tzinfo else t.replace(tzinfo=tz)
        return datetime.datetime(t.year, t.month, t.day, tzinfo=tz)

    def text(t):
        return t.astimezone(tz).isoformat()[:16].replace("T", " ") if isinstance(t, datetime.datetime) else t.isoformat()

    masters, changed = {}, {}
    for e in getattr(cal, "vevent_list", []):
        if hasattr(e, "recurrence_id"):
            changed.setdefault(e.uid.value, []).append(e)
        else:
            masters[e.uid.value] = e
    seen = []
    for uid, e in masters.items():
        if hasattr(e, "rrule") or hasattr(e, "rdate"):
            moved = {aware(c.recurrence_id.value): c for c in changed.get(uid, [])}
            for t in e.getrruleset(addRDate=True).between(start - datetime.timedelta(days=1), end, inc=True):
                if aware(t) in moved or not (start <= aware(t) < end):
                    continue
                seen.append((uid, text(t if isinstance(e.dtstart.value, datetime.datetime) else t.date()), e.summary.value if hasattr(e, "summary") else ""))
        elif start <= aware(e.dtstart.value) < end:
            seen.append((uid, text(e.dtstart.value), e.summary.value if hasattr(e, "summary") else ""))
    for uid, cs in changed.items():
        for c in cs:
            if start <= aware(c.dtstart.value) < end:
                seen.append((uid, text(c.dtstart.value), c.summary.value if hasattr(c, "summary") else ""))
    # horari prints each time in its own zone; the sample's are all Madrid's.
    return compare("vobject", sorted(seen), horari_events(horari, exported))


CLIENTS = ["khal", "Radicale", "calcurse", "ical", "icalendar", "vobject"]


def check_export(horari, sample, label, options, work, server):
    print("== export %s:" % label)
    folder = os.path.join(work, "".join(ch if ch.isalnum() else "-" for ch in label))
    os.makedirs(folder)
    exported = os.path.join(folder, "export.ics")
    r = sh([horari, "export", sample, "--out", exported] + options)
    if r.returncode != 0:
        return {c: ["horari export failed: " + r.stderr[-300:]] for c in CLIENTS}
    return {
        "khal": khal_check(horari, exported, folder),
        "Radicale": radicale_check(exported, server, "".join(ch if ch.isalnum() else "-" for ch in label), horari, folder),
        "calcurse": calcurse_check(horari, exported, folder),
        "ical": ical_check(horari, exported),
        "icalendar": icalendar_check(horari, exported),
        "vobject": vobject_check(horari, exported),
    }


def main():
    horari, sample = os.path.abspath(sys.argv[1]), os.path.abspath(sys.argv[2])
    exports = [(" ".join(sys.argv[3:]), sys.argv[3:])] if len(sys.argv) > 3 else EXPORTS
    cells, notes = {}, []
    with tempfile.TemporaryDirectory() as work:
        server = Radicale(work)
        try:
            for label, options in exports:
                cells[label] = check_export(horari, sample, label, options, work, server)
        finally:
            server.stop()
    failed = False
    width = max(len(c) for c in CLIENTS) + 2
    print("\nclient matrix: %s read each export of %s" % (", ".join(CLIENTS), os.path.basename(sample)))
    print(" " * width + "".join("%-15s" % label for label, _ in exports))
    for client in CLIENTS:
        row = []
        for label, _ in exports:
            result = cells[label][client]
            if result:
                failed = True
                row.append("FAIL")
            elif isinstance(result, Justified):
                if result.why not in notes:
                    notes.append(result.why)
                row.append("pass*%d" % (notes.index(result.why) + 1))
            else:
                row.append("pass")
        print(("%-" + str(width) + "s") % client + "".join("%-15s" % c for c in row))
    for i, why in enumerate(notes):
        print("  *%d justified: %s" % (i + 1, why))
    for label, _ in exports:
        for client in CLIENTS:
            for p in cells[label][client]:
                print("FAIL [%s, export %s] %s" % (client, label, p))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
