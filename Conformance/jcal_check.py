#!/usr/bin/env python3
"""Horari's jCal (RFC 7265) against the corpus, with icalendar as referee.

For every .ics file of the conformance corpus that `horari export` reads:

1. `horari export FILE --format jcal` is JSON that icalendar's jCal reader
   (`icalendar.Calendar.from_jcal`) reads to the calendar icalendar reads
   from `horari export FILE` itself: the same lines, once both are written
   by icalendar, leaving out DTSTAMP (each export stamps its own time) and
   VALUE parameters (icalendar writes some the text omits: NAME;VALUE=TEXT).
   A file where icalendar's jCal reader falls short is listed in
   jcal_differences.json with the reason (a TZID it does not know dropped,
   a multi-valued FREEBUSY cut to its first period...); any other
   difference fails, and so does a listed file that now agrees.
2. Lossless both ways: `horari import` of that jCal and of that .ics into
   new calendars, exported again, give the same .ics (DTSTAMP aside), but
   for what jCal has no place for (RFC 7265 §3.4.1.1): where a VALUE
   parameter stood among the others, and a VALUE naming the property's
   default type (DTSTART;VALUE=DATE-TIME). Every file Horari imports.
3. jCal in: icalendar's jCal files (RFC 7265's own examples among them)
   import, and what Horari writes of them as jCal is read by icalendar to
   the events icalendar reads from the originals.

Usage: jcal_check.py HORARI_BINARY CORPUS_DIR [--update]
  --update rewrites jcal_differences.json from this run (review the diff!).
"""
import concurrent.futures as cf
import glob
import json
import os
import re
import subprocess
import sys
import tempfile

import icalendar

HERE = os.path.dirname(os.path.abspath(__file__))
DIFFERENCES = os.path.join(HERE, "jcal_differences.json")
STAMP = re.compile(r"^DTSTAMP[;:]")
VALUE = re.compile(r";VALUE=[A-Za-z-]+")
GENERATED = re.compile(r"^UID:horari-[0-9a-f]{16}@generated$")
# RFC 5545's default value types, for the VALUE parameters jCal cannot keep (as in Sources/ICalendarKit/JCal.swift).
DEFAULT_TYPES = {**{n: "DATE-TIME" for n in ("COMPLETED", "DTEND", "DUE", "DTSTART", "RECURRENCE-ID", "EXDATE", "RDATE", "CREATED",
                                                "DTSTAMP", "LAST-MODIFIED", "ACKNOWLEDGED")},
                 **{n: "TEXT" for n in ("CALSCALE", "METHOD", "PRODID", "VERSION", "CATEGORIES", "CLASS", "COMMENT", "DESCRIPTION",
                                        "LOCATION", "RESOURCES", "STATUS", "SUMMARY", "TRANSP", "TZID", "TZNAME", "CONTACT",
                                        "RELATED-TO", "UID", "ACTION", "REQUEST-STATUS", "NAME", "COLOR")},
                 "DURATION": "DURATION", "TRIGGER": "DURATION", "FREEBUSY": "PERIOD", "TZOFFSETFROM": "UTC-OFFSET",
                 "TZOFFSETTO": "UTC-OFFSET", "TZURL": "URI", "URL": "URI", "ATTACH": "URI", "SOURCE": "URI",
                 "ATTENDEE": "CAL-ADDRESS", "ORGANIZER": "CAL-ADDRESS", "PERCENT-COMPLETE": "INTEGER", "PRIORITY": "INTEGER",
                 "REPEAT": "INTEGER", "SEQUENCE": "INTEGER", "GEO": "FLOAT", "RRULE": "RECUR", "EXRULE": "RECUR"}
HEAD = re.compile(r'^([A-Za-z0-9-]+)((?:;[^:"]*(?:"[^"]*"[^:"]*)*)?):(.*)$')


def value_where_jcal_puts_it(line):
    """A line with its VALUE parameter first, and none when it names the
    property's default type: what jCal can say of it."""
    m = HEAD.match(line)
    if not m or ";VALUE=" not in m.group(2).upper():
        return line
    name, params, value = m.group(1).upper(), m.group(2), m.group(3)
    found = re.search(r";VALUE=([A-Za-z-]+)", params, re.I)
    rest = params[:found.start()] + params[found.end():]
    kept = "" if found.group(1).upper() == DEFAULT_TYPES.get(name) else ";VALUE=" + found.group(1).upper()
    return name + kept + rest + ":" + value


def run(cmd, cwd=None):
    p = subprocess.run(cmd, capture_output=True, timeout=180, cwd=cwd)
    return p.returncode, p.stdout, p.stderr


def unfolded(text):
    return text.replace("\r\n ", "").replace("\r\n\t", "").split("\r\n")


def normalised(cal):
    """icalendar's text of a calendar, unfolded, without DTSTAMP and VALUE parameters."""
    lines = unfolded(cal.to_ical().decode("utf-8", "replace"))
    return [VALUE.sub("", l) for l in lines if l and not STAMP.match(l)]


def ours_stampless(text):
    return [value_where_jcal_puts_it(l) for l in unfolded(text.decode("utf-8", "replace")) if l and not STAMP.match(l)]


def check(horari, path, scratch):
    rc, ics, err = run([horari, "export", path])
    if rc != 0:
        return path, "ours-cannot-read", None
    rc, jcal, err = run([horari, "export", path, "--format", "jcal"])
    if rc != 0:
        return path, "failed", "export --format jcal: " + err.decode("utf-8", "replace")[:200]
    try:
        doc = json.loads(jcal)
    except ValueError as e:
        return path, "failed", "not JSON: %s" % e
    base = os.path.join(scratch, re.sub(r"[^A-Za-z0-9]", "_", os.path.relpath(path)))
    with open(base + ".json", "wb") as f:
        f.write(jcal)
    with open(base + ".ics", "wb") as f:
        f.write(ics)
    # 2. Lossless: both forms imported into new calendars export the same.
    exports = []
    for form in (".ics", ".json"):
        rc, out, err = run([horari, "import", base + form, "--into", base + form + ".new.ics", "--force"])
        if rc != 0 and form == ".ics":
            return path, "ours-cannot-import", None  # a bare VALARM, say: nothing to compare
        if rc != 0:
            return path, "failed", "import of the %s: %s" % (form, err.decode("utf-8", "replace")[:300])
        rc, out, err = run([horari, "export", base + form + ".new.ics"])
        exports.append(ours_stampless(out))
    if exports[0] != exports[1]:
        diff = [l for l in exports[1] if l not in exports[0]][:3] + ["/"] + [l for l in exports[0] if l not in exports[1]][:3]
        return path, "failed", "not lossless: " + " ".join(diff)[:400]
    # 1. The referee.
    try:
        theirs_of_jcal = icalendar.Calendar.from_jcal(doc)
    except Exception as e:  # noqa: BLE001 - any failure of the peer is a difference to record
        return path, "differs", "icalendar cannot read the jCal: %s" % str(e)[:200]
    try:
        theirs_of_ics = icalendar.Calendar.from_ical(ics)
    except Exception:  # noqa: BLE001
        return path, "peer-cannot-read-ics", None
    a, b = normalised(theirs_of_jcal), normalised(theirs_of_ics)
    if a == b:
        return path, "agrees", None
    diff = [l for l in b if l not in a][:2] + ["/"] + [l for l in a if l not in b][:2]
    return path, "differs", " ".join(diff)[:300]


def jcal_in(horari, path, scratch):
    """3. A jCal file of icalendar's: imported, and ours read back by icalendar as the original."""
    new = os.path.join(scratch, "in_" + os.path.basename(path) + ".ics")
    rc, out, err = run([horari, "import", path, "--into", new, "--force"])
    if rc != 0:
        return path, "failed", "import: " + err.decode("utf-8", "replace")[:300]
    rc, jcal, err = run([horari, "export", new, "--format", "jcal"])
    with open(path, "rb") as f:
        original = icalendar.Calendar.from_jcal(json.loads(f.read()))
    ours = icalendar.Calendar.from_jcal(json.loads(jcal))

    def events(cal):
        out = []
        for c in cal.walk():
            if c.name in ("VEVENT", "VTODO", "VJOURNAL"):
                # A UID Horari made for a component that had none is not a difference.
                out.append(sorted(l for l in normalised(c) if not l.startswith(("BEGIN", "END")) and not GENERATED.match(l)))
        return sorted(out)
    if events(original) == events(ours):
        return path, "agrees", None
    return path, "failed", "events differ: %s / %s" % (str(events(original))[:200], str(events(ours))[:200])


def main():
    if len(sys.argv) < 3:
        print(__doc__)
        return 2
    horari, corpus = sys.argv[1], sys.argv[2]
    update = "--update" in sys.argv
    files = sorted(glob.glob(os.path.join(corpus, "**", "*.ics"), recursive=True))
    jcals = sorted(glob.glob(os.path.join(corpus, "**", "*.jcal"), recursive=True))
    with open(DIFFERENCES) as f:
        recorded = json.load(f)
    results = {}
    failures = []
    with tempfile.TemporaryDirectory() as scratch, cf.ThreadPoolExecutor(max_workers=2) as pool:
        for path, outcome, detail in pool.map(lambda p: check(horari, p, scratch), files):
            key = os.path.relpath(path, corpus)
            results[key] = (outcome, detail)
        ins = list(pool.map(lambda p: jcal_in(horari, p, scratch), jcals))
    counts = {}
    for key, (outcome, detail) in sorted(results.items()):
        counts[outcome] = counts.get(outcome, 0) + 1
        if outcome == "failed":
            failures.append("%s: %s" % (key, detail))
        elif outcome == "differs" and key not in recorded:
            failures.append("%s: icalendar reads our jCal otherwise, and the difference is not recorded: %s" % (key, detail))
        elif outcome == "agrees" and key in recorded:
            failures.append("%s: now agrees; remove it from jcal_differences.json" % key)
    for key in recorded:
        if key not in results:
            failures.append("%s: recorded, but not in the corpus" % key)
    for path, outcome, detail in ins:
        if outcome != "agrees":
            failures.append("%s: %s" % (os.path.relpath(path, corpus), detail))
    if update:
        new = {k: recorded.get(k, d) for k, (o, d) in sorted(results.items()) if o == "differs"}
        with open(DIFFERENCES, "w") as f:
            json.dump(new, f, indent=2, ensure_ascii=False)
            f.write("\n")
    lossless = sum(1 for o, _ in results.values() if o in ("agrees", "differs", "peer-cannot-read-ics"))
    imported = len(files) - counts.get("ours-cannot-read", 0) - counts.get("ours-cannot-import", 0)
    print("jcal: %d corpus files; lossless both ways %d of the %d Horari imports; icalendar agrees on %d, differs on %d (each recorded with its reason), "
          "cannot read the .ics of %d; %d jCal files in, %d as icalendar reads them; %d failing"
          % (len(files), lossless, imported, counts.get("agrees", 0), counts.get("differs", 0),
             counts.get("peer-cannot-read-ics", 0), len(ins), sum(1 for _, o, _ in ins if o == "agrees"), len(failures)))
    for f in failures:
        print("  FAIL " + f)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
