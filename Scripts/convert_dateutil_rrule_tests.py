#!/usr/bin/env python3
"""Turn python-dateutil's own rrule tests into a fixture for Horari's tests.

Usage: convert_dateutil_rrule_tests.py PATH/TO/python-dateutil-X/tests/test_rrule.py > cases.json

It runs every test method of dateutil's ``RRuleTest`` with two hooks:
``rrule`` is wrapped so each rule built is remembered, and ``assertEqual``
records (rule, expected) when the expected value is a list of naive
datetimes and it is exactly the first N occurrences of the one plain rule
built since the previous assertion (so ``between``/``after``/``rruleset``
checks are not mistaken for plain expansions). Rules with dateutil-only
parts (BYEASTER) and time-zone-aware starts are skipped and counted.

The fixture keeps dateutil's answer, not ours: the Swift test decides, case
by case, whether we must agree (RFC-valid rule, DTSTART synchronised) or
why we answer differently. dateutil is dual-licensed Apache-2.0/BSD-3-Clause.
"""
import datetime
import importlib.util
import itertools
import json
import sys
import unittest

import dateutil.rrule as du


def main(path):
    spec = importlib.util.spec_from_file_location("dateutil_test_rrule", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)

    built = []

    class RecordingRRule(du.rrule):
        def __init__(self, *args, **kwargs):
            super().__init__(*args, **kwargs)
            built.append((self, kwargs))

    module.rrule = RecordingRRule
    cases, skipped = [], {"not a plain expansion": 0, "time-zone-aware": 0, "BYEASTER": 0}
    current = {"name": None}

    def record(first, second):
        expected = second if isinstance(second, list) else first if isinstance(first, list) else None
        rules = list(built)
        built.clear()
        if not expected or not all(type(x) is datetime.datetime for x in expected) or len(rules) != 1:
            return
        rule, kwargs = rules[0]
        if "byeaster" in kwargs:
            skipped["BYEASTER"] += 1
            return
        if expected[0].tzinfo is not None or rule._dtstart.tzinfo is not None:
            skipped["time-zone-aware"] += 1
            return
        head = list(itertools.islice(iter(rule), len(expected) + 1))
        bounded = rule._count is not None or rule._until is not None
        if head[: len(expected)] != expected or (bounded and len(head) != len(expected)):
            skipped["not a plain expansion"] += 1
            return
        text = str(rule).splitlines()
        dtstart = text[0].split(":", 1)[1]
        rrule = text[1].split(":", 1)[1]
        cases.append({
            "name": current["name"],
            "dtstart": dtstart,
            "rrule": rrule,
            "bounded": bounded,
            "expected": [d.strftime("%Y%m%dT%H%M%S") for d in expected],
        })

    for name in sorted(n for n in dir(module.RRuleTest) if n.startswith("test")):
        test = module.RRuleTest(name)
        current["name"] = name
        original = test.assertEqual

        def hooked(first, second, msg=None, _original=original):
            record(first, second)
            return _original(first, second, msg)

        test.assertEqual = hooked
        built.clear()
        try:
            getattr(test, name)()
        except (unittest.SkipTest, Exception):
            pass
    json.dump({"source": "python-dateutil tests/test_rrule.py", "dateutil": du.__name__ and __import__("dateutil").__version__,
               "skipped": skipped, "cases": cases}, sys.stdout, indent=1)
    print(file=sys.stderr, end=f"{len(cases)} cases; skipped {skipped}\n")


if __name__ == "__main__":
    main(sys.argv[1])
