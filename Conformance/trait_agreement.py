#!/usr/bin/env python3
"""The same occurrences with and without libical: the LibICal trait, both ways.

Horari reads and writes iCalendar in Swift; libical, behind the `LibICal`
package trait (on by default), only checks what is imported. A build with
the trait off (`swift build --disable-default-traits`, what an iOS app
ships) must therefore read every real file to the same occurrences. For
every .ics file of the corpus (the peers' test suites, `make corpus`):

1. `horari occurrences FILE` (2000-01-01 to 2030-01-01, jsonl, at most 2000
   per series) prints the same bytes from both builds;
2. a user's round trip, `horari import FILE --into NEW` then
   `horari occurrences NEW`, prints the same bytes from both builds — but
   where the default build's import says libical could not read a component
   at all: such a component is kept as written and not shown with libical,
   and shown without it (Docs/ICalendar.md, "Without libical"). Those files
   are counted and named, not failed.

Either build may run under a sanitizer (`make test-pure` runs the one without
libical under ThreadSanitizer): a sanitizer's report in any run fails that
file, with the report's first lines, whatever its output.

Exit status 0 when every file agrees (or differs only as 2 allows), 1 otherwise.

Usage: trait_agreement.py HORARI_WITH_LIBICAL HORARI_WITHOUT CORPUS_DIR
"""
import concurrent.futures as cf
import os
import re
import subprocess
import sys
import tempfile

WINDOW = ("2000-01-01", "2030-01-01")
GENERATED = re.compile(rb'"uid": "horari-[0-9a-f]{16}@generated"')
UNREADABLE = b"libical could not read this"


SANITIZER = re.compile(rb"(WARNING|ERROR): (Thread|Address|Leak|UndefinedBehavior)Sanitizer")


class SanitizerReport(Exception):
    """A sanitizer's report in a run's standard error: the file fails, whatever the run printed."""


def run(cmd, timeout=300):
    p = subprocess.run(cmd, capture_output=True, timeout=timeout, env=dict(os.environ, TZ="UTC"))
    found = SANITIZER.search(p.stderr)
    if found:
        report = p.stderr[found.start():].decode("utf-8", "replace")
        raise SanitizerReport("%s %s (exit %d):\n%s" % (os.path.basename(cmd[0]), cmd[1], p.returncode,
                                                         "\n".join(report.splitlines()[:20])))
    return p.returncode, p.stdout, p.stderr


def occurrences(horari, path):
    rc, out, _ = run([horari, "occurrences", path, "--from", WINDOW[0], "--to", WINDOW[1] + "T00:00:00",
                      "--format", "jsonl", "--max-per-series", "2000"])
    return rc, GENERATED.sub(b'"uid": null', out)


def imported(horari, path, scratch, tag):
    calendar = os.path.join(scratch, tag + ".ics")
    rc, _, err = run([horari, "import", path, "--into", calendar, "--time-zone", "UTC"])
    if rc != 0:
        return rc, b"", err
    rc2, out = occurrences(horari, calendar)
    return rc2, out, err


def check(args):
    try:
        return compare(args)
    except SanitizerReport as report:
        return args[2], "a sanitizer reported in " + str(report), None


def compare(args):
    with_libical, without, path, scratch = args
    name = os.path.basename(path)
    a, b = occurrences(with_libical, path), occurrences(without, path)
    if a != b:
        return path, "the two builds' occurrences differ", None
    ra = imported(with_libical, path, scratch, name + ".with")
    rb = imported(without, path, scratch, name + ".without")
    if (ra[0], ra[1]) == (rb[0], rb[1]):
        return path, None, None
    if UNREADABLE in ra[2]:
        return path, None, "libical could not read a component"
    return path, "the two builds' imports differ", None


def main():
    if len(sys.argv) != 4:
        print(__doc__)
        return 2
    with_libical, without, corpus = sys.argv[1:]
    files = sorted(os.path.join(d, f) for d, _, fs in os.walk(corpus) for f in fs if f.endswith(".ics"))
    if not files:
        print("no .ics files under %s (run make corpus)" % corpus)
        return 1
    failures, justified = [], []
    with tempfile.TemporaryDirectory() as scratch:
        jobs = [(with_libical, without, f, os.path.join(scratch, str(i))) for i, f in enumerate(files)]
        for job in jobs:
            os.mkdir(job[3])
        with cf.ThreadPoolExecutor(max_workers=os.cpu_count() or 2) as pool:
            for path, failure, reason in pool.map(check, jobs):
                rel = os.path.relpath(path, corpus)
                if failure:
                    failures.append("%s: %s" % (rel, failure))
                elif reason:
                    justified.append("%s: %s (kept as written with libical, shown without)" % (rel, reason))
    print("trait agreement: %d files; %d agree on every occurrence, read directly and imported; "
          "%d differ after import only where libical could not read a component; %d differ otherwise"
          % (len(files), len(files) - len(failures) - len(justified), len(justified), len(failures)))
    for line in justified:
        print("  justified: " + line)
    for line in failures:
        print("  FAIL " + line)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
