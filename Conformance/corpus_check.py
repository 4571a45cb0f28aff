#!/usr/bin/env python3
"""Horari's iCalendar import and export against real files and real peers.

For every .ics file in the test corpora of icalendar, recurring-ical-events,
khal and python-dateutil (the source distributions, fetched from PyPI into the
conformance virtual environment):

1. occurrences: `horari occurrences FILE --from 2000-01-01 --to 2030-01-01
   --format jsonl --max-per-series 2000` must equal the reference expander
   (peers/expand_reference.py, recurring-ical-events), except for the files
   listed in corpus_differences.json with the reason, each justified in
   Docs/ICalendar.md. A UID we generate for a component without one
   (`horari-…@generated`) is compared as null, which is what the peer prints.
2. round trip: import -> export -> occurrences equals the occurrences of the
   original; exporting the export again is byte-identical; the export passes
   peers/validate_reference.py (icalendar, vobject, octet checks) with no error.

Exit status 0 when everything matches the expectations, 1 otherwise.

Usage: corpus_check.py HORARI_BINARY CORPUS_DIR [--update]
  --update rewrites corpus_differences.json from this run (review the diff!).
"""
import concurrent.futures as cf
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
    rc, out, err = run([horari, "occurrences", path, "--from", WINDOW[0], "--to", WINDOW[1],
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


def classify(ref, summary, our):
    if ref == our:
        return "identical"
    if summary.get("parse_error") or summary.get("series_errors") or summary.get("skipped"):
        return "peer-could-not-read"
    if drop_tzid(ref) == drop_tzid(our):
        return "tzid-name-only"
    return "differs"


def check_file(horari, corpus, path, workdir):
    rel = os.path.relpath(path, corpus)
    rc, our, err = ours(horari, path)
    if rc != 0:
        return rel, ("horari-failed", []), err.decode("utf-8", "replace")[-300:], []
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
            return rel, (category, ["EXPORT_FAILED"]), "", problems
    with open(first, "rb") as a, open(second, "rb") as b:
        if a.read() != b.read():
            problems.append("export -> import -> export is not byte-identical")
    rc2, again, _ = ours(horari, first)
    if rc2 != 0 or again != our:
        problems.append("occurrences of the export differ from the original's")
    rc3, out, _ = run([PY, os.path.join(HERE, "peers", "validate_reference.py"), first])
    codes = sorted({l.split()[1] for l in out.decode("utf-8", "replace").splitlines() if l.startswith("ERROR ")})
    return rel, (category, codes), "", problems


def main():
    args = [a for a in sys.argv[1:] if not a.startswith("--")]
    update = "--update" in sys.argv
    horari, corpus = os.path.abspath(args[0]), os.path.abspath(args[1])
    files = sorted(os.path.join(d, f) for d, _, fs in os.walk(corpus) for f in fs if f.endswith(".ics"))
    expected_path = os.path.join(HERE, "corpus_differences.json")
    expected = json.load(open(expected_path)) if os.path.exists(expected_path) else {}
    results = {}
    export_errors = {}
    failures = []
    with tempfile.TemporaryDirectory() as work, cf.ThreadPoolExecutor(max_workers=os.cpu_count() or 4) as pool:
        futures = [pool.submit(check_file, horari, corpus, f, work) for f in files]
        for fut in cf.as_completed(futures):
            rel, (category, codes), err, problems = fut.result()
            results[rel] = category
            export_errors[rel] = codes
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
        if category == "identical":
            continue
        want = entry.get("category")
        if want != category and not update:
            failures.append("%s: %s (expected %s); if this is right, justify it in Docs/ICalendar.md and run with --update"
                            % (rel, category, want or "identical"))
    stale = [rel for rel in expected if results.get(rel) == "identical" and not export_errors.get(rel)]
    print("corpus: %d files; %s" % (len(results), ", ".join("%s %d" % kv for kv in sorted(counts.items()))))
    for rel in stale:
        print("now identical (remove from corpus_differences.json): %s" % rel)
    if update:
        new = {}
        for rel, category in sorted(results.items()):
            if category != "identical" or export_errors[rel]:
                entry = {"category": category}
                if category != "identical":
                    entry["reason"] = expected.get(rel, {}).get("reason", "")
                if export_errors[rel]:
                    entry["export_errors"] = export_errors[rel]
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
