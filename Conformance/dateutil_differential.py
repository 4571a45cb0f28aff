#!/usr/bin/env python3
"""Differential check of Horari's recurrence engine against python-dateutil.

    python3 Conformance/dateutil_differential.py HORARI_BINARY [--rules N] [--seed S]

Generates N random RFC 5545-valid rules with floating starts (fixed seed),
asks dateutil's ``rrulestr`` and one ``horari expand --jsonl`` process for
the first occurrences, and compares them.

The relation checked: dateutil leaves a DTSTART the rule does not produce out
of the set and does not count it; RFC 5545 §3.8.5.3 makes DTSTART the first
instance and counts it ("The DTSTART property value always counts as the first
occurrence"). So Horari must give ``[DTSTART] + dateutil`` (cut to COUNT)
when dateutil's first occurrence is not DTSTART, and dateutil's list otherwise.
Every other difference is printed and fails the check.

dateutil, like libical, walks forward for ever when a rule has no further
occurrence, so when Horari's list ends early (the rule is exhausted: its
pattern repeats with the 400-year Gregorian cycle) dateutil is only asked for
as many occurrences as Horari found.
"""
import argparse
import collections
import itertools
import json
import random
import subprocess
import sys
import time

from dateutil.rrule import rrulestr

DAYS = ["MO", "TU", "WE", "TH", "FR", "SA", "SU"]


def some(rng, lo, hi, most, nonzero=False):
    out = []
    for _ in range(rng.randint(1, most)):
        v = rng.randint(lo, hi)
        if nonzero and v == 0:
            v = 1
        if v not in out:
            out.append(v)
    return ",".join(map(str, out))


def random_rule(rng):
    freq = rng.choice(["YEARLY", "YEARLY", "MONTHLY", "MONTHLY", "WEEKLY", "WEEKLY", "DAILY", "DAILY", "HOURLY", "MINUTELY", "SECONDLY"])
    parts = ["FREQ=" + freq]
    if rng.random() < 0.4:
        parts.append("INTERVAL=%d" % rng.randint(2, 4))
    if rng.random() < 0.5:
        parts.append("COUNT=%d" % rng.randint(1, 40))
    if rng.random() < 0.3:
        parts.append("BYMONTH=" + some(rng, 1, 12, 3))
    if freq == "YEARLY" and rng.random() < 0.15:
        parts.append("BYWEEKNO=" + some(rng, -53, 53, 2, True))
    if freq in ("YEARLY", "HOURLY", "MINUTELY", "SECONDLY") and rng.random() < 0.15:
        parts.append("BYYEARDAY=" + some(rng, -366, 366, 3, True))
    if freq != "WEEKLY" and rng.random() < 0.3:
        parts.append("BYMONTHDAY=" + some(rng, -31, 31, 3, True))
    if rng.random() < 0.5:
        numbered = (freq == "MONTHLY" or (freq == "YEARLY" and not any(p.startswith("BYWEEKNO") for p in parts))) and rng.random() < 0.5
        items = set()
        for _ in range(rng.randint(1, 3)):
            day = rng.choice(DAYS)
            if numbered:
                limit = 5 if freq == "MONTHLY" else 53
                k = rng.randint(-limit, limit) or 1
                items.add("%d%s" % (k, day))
            else:
                items.add(day)
        parts.append("BYDAY=" + ",".join(sorted(items)))
    if rng.random() < 0.15:
        parts.append("BYHOUR=" + some(rng, 0, 23, 2))
    if rng.random() < 0.1:
        parts.append("BYMINUTE=" + some(rng, 0, 59, 2))
    if freq == "SECONDLY" or rng.random() < 0.05:
        parts.append("BYSECOND=" + some(rng, 0, 59, 2))
    if any(p.startswith("BY") for p in parts) and rng.random() < 0.2:
        parts.append("BYSETPOS=" + some(rng, -3, 3, 2, True))
    if rng.random() < 0.2:
        parts.append("WKST=" + rng.choice(DAYS))
    start = "%04d%02d%02dT%02d%02d00" % (rng.randint(1995, 2030), rng.randint(1, 12), rng.randint(1, 28), rng.randint(0, 23), rng.choice([0, 15, 30, 45]))
    return ";".join(parts), start


def known_difference(rule, start, ours, du):
    """The dateutil defect that explains a difference, checked on the output."""
    parts = dict(p.split("=", 1) for p in rule.split(";"))
    # dateutil builds the first WEEKLY period from DTSTART's day, not from WKST,
    # so BYSETPOS counts positions in a partial first week. RFC 5545 §3.3.10:
    # "BYSETPOS operates on a set of recurrence instances in one interval".
    if parts["FREQ"] == "WEEKLY" and "BYSETPOS" in parts and ours[1:] == du[1:len(ours)]:
        return "dateutil applies BYSETPOS to a first week cut at DTSTART"
    # dateutil checks next year's week 1 for the last days of December but not
    # next year's negative week numbers (its source: "TODO: Check -numweeks for
    # next year"); a day is in the week its own ISO week-year gives it.
    if parts["FREQ"] == "YEARLY" and any(w.startswith("-") for w in parts.get("BYWEEKNO", "").split(",")):
        return "dateutil does not check negative BYWEEKNO against the next year's weeks"
    return None


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("horari")
    ap.add_argument("--rules", type=int, default=3000)
    ap.add_argument("--seed", type=int, default=20261122)
    ap.add_argument("--limit", type=int, default=40)
    args = ap.parse_args()
    rng = random.Random(args.seed)
    cases = [random_rule(rng) for _ in range(args.rules)]
    requests = "".join(json.dumps({"rrule": r, "dtstart": s, "limit": args.limit}) + "\n" for r, s in cases)
    t0 = time.time()
    answer = subprocess.run([args.horari, "expand", "--jsonl"], input=requests, capture_output=True, text=True, check=True)
    lines = answer.stdout.splitlines()
    print("horari answered %d requests in %.1f s" % (len(cases), time.time() - t0))
    if len(lines) != len(cases):
        print("horari answered %d lines for %d requests" % (len(lines), len(cases)))
        return 1
    agreed, exhausted, failures = 0, 0, []
    explained = collections.Counter()
    for (rule, start), line in zip(cases, lines):
        reply = json.loads(line)
        if "error" in reply:
            failures.append("horari refused %s: %s" % (rule, reply["error"]))
            continue
        ours = reply["occurrences"]
        count = next((int(p[6:]) for p in rule.split(";") if p.startswith("COUNT=")), None)
        wanted = min(count, args.limit) if count else args.limit
        ended_early = len(ours) < wanted
        ask = len(ours) - 1 if ended_early else args.limit
        if ask <= 0:
            exhausted += 1
            continue
        try:
            du = [d.strftime("%Y%m%dT%H%M%S") for d in itertools.islice(rrulestr("DTSTART:%s\nRRULE:%s" % (start, rule)), ask)]
        except ValueError as e:
            if "empty set" in str(e) and ours == [start]:
                explained["dateutil raises on a rule with no instance after DTSTART"] += 1
            else:
                failures.append("DTSTART:%s RRULE:%s\n  horari:   %s\n  dateutil refused: %s" % (start, rule, ours[:8], e))
            continue
        if ended_early:
            ok = du == ours[1:] or du == ours[:ask]
        else:
            expected = (du if du and du[0] == start else [start] + du)[:wanted]
            ok = ours == expected
        reason = None if ok else known_difference(rule, start, ours, du)
        if ok:
            agreed += 1
        elif reason:
            explained[reason] += 1
        else:
            failures.append("DTSTART:%s RRULE:%s\n  horari:   %s\n  dateutil: %s" % (start, rule, ours[:8], du[:8]))
    print("dateutil differential: %d rules, %d agree, %d have no occurrence after DTSTART, %d differ where dateutil is wrong, %d differ unexplained"
          % (len(cases), agreed, exhausted, sum(explained.values()), len(failures)))
    for reason, n in sorted(explained.items()):
        print("  %4d  %s" % (n, reason))
    for f in failures[:20]:
        print(f)
    print("%d passed, %d failed" % (agreed + exhausted + sum(explained.values()), len(failures)))
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
