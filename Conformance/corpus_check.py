#!/usr/bin/env python3
"""Horari's iCalendar import and export against real files and real peers.

For every .ics file in the test corpora of icalendar, recurring-ical-events,
khal and python-dateutil (the source distributions, fetched from PyPI into the
conformance virtual environment):

1. occurrences: `horari occurrences FILE --from 2000-01-01 --to 2030-01-01T00:00:00
   --format jsonl --max-per-series 2000` must equal the reference expander
   (peers/expand_reference.py, recurring-ical-events), except for the files
   listed in corpus_differences.json with the reason, each justified in
   Docs/ICalendar.md. A UID we generate for a component without one
   (`horari-…@generated`) is compared as null, which is what the peer prints.
   Agreement counts the files whose occurrences are the peer's: identical,
   or the same occurrences written in another form — the same UIDs,
   summaries, components and start and end instants (dates as dates), where
   the peer names another zone (the RDATE's own, a Windows name) or another
   recurrence ID (the THISANDFUTURE change's instead of the instance's own).
   The target is 95% of the files the peer can read.
2. round trip: export -> occurrences equals the occurrences of the original;
   exporting the export again is byte-identical; the export passes
   peers/validate_reference.py (icalendar, vobject, octet checks) with no
   error but the recorded ones.
3. round trip as a user makes it: `horari import FILE --into NEW` (a new
   calendar), `horari export NEW`, and the peer reads the export: its
   occurrences must be the peer's occurrences of the original (in the sense
   of 1), for every file the peer can read. Target 95%.
4. strict validation: `horari validate --strict` of our export of every file
   Google, Exchange, Outlook or SabreDAV wrote passes, but for the files
   whose own data is invalid (recorded with the reason).

Exit status 0 when everything matches the expectations, 1 otherwise.

Usage: corpus_check.py HORARI_BINARY CORPUS_DIR [--update]
  --update rewrites corpus_differences.json from this run (review the diff!).
"""
import concurrent.futures as cf
import datetime as dt
import json
import os
import re
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
PY = sys.executable
WINDOW = ("2000-01-01", "2030-01-01")
GENERATED = re.compile(r'"uid": "horari-[0-9a-f]{16}@generated"')


def run(cmd, timeout=180):
    p = subprocess.run(cmd, capture_output=True, timeout=timeout)
    return p.returncode, p.stdout, p.stderr


def ours(horari, path):
    rc, out, err = run([horari, "occurrences", path, "--from", WINDOW[0], "--to", WINDOW[1] + "T00:00:00",
                        "--format", "jsonl", "--max-per-series", "2000"])
    return rc, GENERATED.sub('"uid": null', out.decode("utf-8", "replace")), err


def reference(path):
    rc, out, err = run([PY, os.path.join(HERE, "peers", "expand_reference.py"), path, WINDOW[0], WINDOW[1],
                        "--max-per-series", "2000"])
    summary = {}
    lines = err.decode("utf-8", "replace").strip().splitlines()
    if lines:
        try:
            summary = json.loads(lines[-1])
        except ValueError:
            pass
    return out.decode("utf-8", "replace"), summary


def drop_tzid(text):
    rows = []
    for line in text.splitlines():
        r = json.loads(line)
        r.pop("tzid", None)
        rows.append(json.dumps(r, sort_keys=True))
    return sorted(rows)


def instants(text):
    """Each occurrence as (uid, summary, component, start, end), times as
    UTC instants (dates and floating times as written): what a calendar
    shows, whatever zone or recurrence ID it is written with."""
    def instant(v):
        if v is None or len(v) == 10 or len(v) == 19:
            return v
        return dt.datetime.fromisoformat(v).astimezone(dt.timezone.utc).isoformat()
    rows = []
    for line in text.splitlines():
        r = json.loads(line)
        rows.append(json.dumps([r["uid"], r["summary"], r["component"], instant(r["start"]), instant(r["end"])]))
    return sorted(rows)


AGREE = ("identical", "tzid-name-only", "same-instants")
PEER_CANNOT = "peer-could-not-read"


def classify(ref, summary, our):
    if ref == our:
        return "identical"
    if summary.get("parse_error") or summary.get("series_errors") or summary.get("skipped"):
        return PEER_CANNOT
    if drop_tzid(ref) == drop_tzid(our):
        return "tzid-name-only"
    if instants(ref) == instants(our):
        return "same-instants"
    return "differs"


PRODUCERS = (("Google", re.compile(r"Google")), ("Exchange", re.compile(r"Microsoft (Exchange|CDO)")),
             ("Outlook", re.compile(r"Outlook")), ("SabreDAV", re.compile(r"SabreDAV")))


def producer(path):
    with open(path, "rb") as f:
        head = f.read(4096).decode("utf-8", "replace")
    m = re.search(r"^PRODID:(.*)$", head, re.M)
    for name, pattern in PRODUCERS:
        if m and pattern.search(m.group(1)):
            return name
    return None


def check_file(horari, corpus, path, workdir):
    rel = os.path.relpath(path, corpus)
    rc, our, err = ours(horari, path)
    if rc != 0:
        return rel, ("horari-failed", []), err.decode("utf-8", "replace")[-300:], [], {}
    ref, summary = reference(path)
    category = classify(ref, summary, our)
    problems = []
    # Round trip.
    base = os.path.join(workdir, re.sub(r"[^A-Za-z0-9]+", "_", rel))
    first, second = base + ".1.ics", base + ".2.ics"
    for src, dst in ((path, first), (first, second)):
        rc, out, err = run([horari, "export", src, "--out", dst])
        if rc != 0:
            problems.append("export of %s failed: %s" % (src, err.decode("utf-8", "replace")[-200:]))
            return rel, (category, ["EXPORT_FAILED"]), "", problems, {}
    with open(first, "rb") as a, open(second, "rb") as b:
        if a.read() != b.read():
            problems.append("export -> import -> export is not byte-identical")
    rc2, again, _ = ours(horari, first)
    if rc2 != 0 or again != our:
        problems.append("occurrences of the export differ from the original's")
    rc3, out, _ = run([PY, os.path.join(HERE, "peers", "validate_reference.py"), first])
    codes = sorted({l.split()[1] for l in out.decode("utf-8", "replace").splitlines() if l.startswith("ERROR ")})
    extra = {}
    # The user's round trip: into a new calendar, out again, read by the peer.
    if category != PEER_CANNOT:
        calendar, exported = base + ".cal.ics", base + ".out.ics"
        rc4, out4, err4 = run([horari, "import", path, "--into", calendar])
        # An import that could not take part of a damaged file (or refused an
        # item the calendar's rules forbid: a red one) still imports the rest,
        # says what it left out, and exits 1 (issue 28, 2 and 15): the user's
        # round trip goes on with what was imported.
        imported = rc4 == 0 or (rc4 == 1 and (b"not imported" in out4 or b"refused" in out4))
        rc5, _, err5 = run([horari, "export", calendar, "--out", exported]) if imported else (rc4, b"", err4)
        if rc5 != 0:
            extra["round_trip"] = "import or export failed: " + (err5 or err4).decode("utf-8", "replace")[-200:]
        else:
            ref2, summary2 = reference(exported)
            ref2 = GENERATED.sub('"uid": null', ref2)
            extra["round_trip"] = "same" if classify(ref, {}, ref2) in AGREE and not summary2.get("parse_error") else "differs"
    # Strict validation of our export of a big producer's file.
    made_by = producer(path)
    if made_by:
        rc6, out6, _ = run([horari, "validate", "--strict", first])
        extra["strict"] = (made_by, rc6 == 0, [l for l in out6.decode("utf-8", "replace").splitlines() if ": warning: " in l or ": error: " in l][:3])
    return rel, (category, codes), "", problems, extra


def main():
    args = [a for a in sys.argv[1:] if not a.startswith("--")]
    update = "--update" in sys.argv
    horari, corpus = os.path.abspath(args[0]), os.path.abspath(args[1])
    files = sorted(os.path.join(d, f) for d, _, fs in os.walk(corpus) for f in fs if f.endswith(".ics"))
    expected_path = os.path.join(HERE, "corpus_differences.json")
    expected = json.load(open(expected_path)) if os.path.exists(expected_path) else {}
    results = {}
    export_errors = {}
    extras = {}
    failures = []
    with tempfile.TemporaryDirectory() as work, cf.ThreadPoolExecutor(max_workers=os.cpu_count() or 4) as pool:
        futures = [pool.submit(check_file, horari, corpus, f, work) for f in files]
        for fut in cf.as_completed(futures):
            rel, (category, codes), err, problems, extra = fut.result()
            results[rel] = category
            export_errors[rel] = codes
            extras[rel] = extra
            # A refusal is an answer only where it is recorded, with its reason.
            if category == "horari-failed" and expected.get(rel, {}).get("category") != "horari-failed":
                failures.append("%s: horari failed: %s" % (rel, err))
            for p in problems:
                failures.append("%s: %s" % (rel, p))
    counts = {}
    for rel, category in sorted(results.items()):
        counts[category] = counts.get(category, 0) + 1
        entry = expected.get(rel, {})
        known = entry.get("export_errors", [])
        if export_errors[rel] != known and not update:
            new_codes = sorted(set(export_errors[rel]) - set(known))
            if new_codes:
                failures.append("%s: the export has validation errors %s (known: %s)" % (rel, new_codes, known))
            else:
                print("fewer export errors now (run --update): %s %s" % (rel, export_errors[rel]))
        round_trip = extras[rel].get("round_trip")
        if round_trip not in (None, "same") and not entry.get("round_trip") and not update:
            failures.append("%s: import --into, export, re-read by the peer: %s; if this is right, justify it as \"round_trip\" in corpus_differences.json"
                            % (rel, round_trip))
        strict = extras[rel].get("strict")
        if strict and not strict[1] and not entry.get("strict") and not update:
            failures.append("%s: validate --strict of our export of this %s file fails: %s" % (rel, strict[0], " | ".join(strict[2])))
        if category == "identical":
            continue
        want = entry.get("category")
        if want != category and not update:
            failures.append("%s: %s (expected %s); if this is right, justify it in Docs/ICalendar.md and run with --update"
                            % (rel, category, want or "identical"))
    stale = [rel for rel in expected if results.get(rel) == "identical" and not export_errors.get(rel)
             and not expected[rel].get("round_trip") and not expected[rel].get("strict")]
    print("corpus: %d files; %s" % (len(results), ", ".join("%s %d" % kv for kv in sorted(counts.items()))))
    readable = [rel for rel, c in results.items() if c not in (PEER_CANNOT, "horari-failed")]
    agree = sum(1 for rel in readable if results[rel] in AGREE)
    print("corpus agreement: %d of the %d files the peer reads (%.1f%%; of all %d files: %.1f%%); target 95%%"
          % (agree, len(readable), 100.0 * agree / max(1, len(readable)), len(results), 100.0 * agree / max(1, len(results))))
    trips = [rel for rel in results if extras[rel].get("round_trip") is not None]
    same = sum(1 for rel in trips if extras[rel]["round_trip"] == "same")
    print("round trip (import --into a new calendar, export, re-read by the peer): %d of %d files keep the peer's occurrences (%.1f%%); target 95%%"
          % (same, len(trips), 100.0 * same / max(1, len(trips))))
    by_producer = {}
    for rel in sorted(results):
        strict = extras[rel].get("strict")
        if strict:
            passed, total, excused = by_producer.get(strict[0], (0, 0, []))
            if not strict[1] and expected.get(rel, {}).get("strict"):
                excused = excused + [rel.split("/")[-1]]
            by_producer[strict[0]] = (passed + (1 if strict[1] else 0), total + 1, excused)
    print("validate --strict of our exports: " + "; ".join(
        "%s %d of %d pass%s" % (name, p, t, " (justified: %s)" % ", ".join(e) if e else "")
        for name, (p, t, e) in sorted(by_producer.items())))
    if agree * 100 < 95 * len(readable) and not update:
        failures.append("corpus agreement under 95%")
    if same * 100 < 95 * len(trips) and not update:
        failures.append("round trip under 95%")
    for rel in stale:
        print("now identical (remove from corpus_differences.json): %s" % rel)
    if update:
        new = {}
        for rel, category in sorted(results.items()):
            old = expected.get(rel, {})
            round_trip = extras[rel].get("round_trip") not in (None, "same")
            strict = extras[rel].get("strict") and not extras[rel]["strict"][1]
            if category != "identical" or export_errors[rel] or round_trip or strict:
                entry = {"category": category}
                if category != "identical":
                    entry["reason"] = old.get("reason", "") if old.get("category") == category or category == "differs" else ""
                if export_errors[rel]:
                    entry["export_errors"] = export_errors[rel]
                    if old.get("export_errors_reason"):
                        entry["export_errors_reason"] = old["export_errors_reason"]
                if round_trip:
                    entry["round_trip"] = old.get("round_trip", "")
                if strict:
                    entry["strict"] = old.get("strict", "")
                new[rel] = entry
        with open(expected_path, "w") as f:
            json.dump(new, f, indent=1, sort_keys=True)
            f.write("\n")
        print("wrote %s" % expected_path)
    for line in failures:
        print("FAIL " + line)
    print("round trip: %d files exported twice, re-expanded and validated; %d with known export validation errors; %d failures"
          % (len(results), sum(1 for v in export_errors.values() if v), len(failures)))
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
