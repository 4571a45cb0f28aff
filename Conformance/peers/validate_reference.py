#!/usr/bin/env python3

# Copied from the team's peer-oracle scripts (shared/oracles/validate.py) so the
# project's conformance check runs without them; keep the two in step.
"""Peer validator for iCalendar files (icalendar + vobject + raw-octet checks).

Usage:
  $ORACLES/venv/bin/python $ORACLES/validate.py [--json] [--quiet] FILE.ics [FILE ...]

For each file prints findings "LEVEL CODE [where] message", then a line
"SUMMARY file errors=N warnings=M icalendar_lenient=ok|FAIL icalendar_strict=ok|FAIL vobject=ok|FAIL".
With --json prints one JSON object per file instead.
Exit code: 0 no errors in any file, 1 some file had errors.

Layers:
  raw      : octet-level checks on the file itself (line endings, 75-octet
             limit, folding, BOM, UTF-8, BEGIN/END nesting)
  ical     : icalendar (lenient parse; per-component .errors), and a strict
             re-parse with ignore_exceptions=False on every component class
  model    : RFC 5545 structure on the icalendar tree: required / singleton /
             mutually exclusive properties (taken from icalendar's own class
             metadata), DTSTART rules, DTEND/DUE vs DTSTART, value-type
             consistency, RRULE rule-part constraints, TZID references,
             duplicate UIDs
  vobject  : vobject.readComponents(validate=True) + behaviour validate() +
             serialize() round trip (this is what Radicale relies on)
"""
import argparse
import collections
import datetime as dt
import json
import re
import sys
import warnings

import icalendar
import vobject

warnings.simplefilter("ignore")

ERROR, WARN, INFO = "ERROR", "WARN", "INFO"
FREQS = ("SECONDLY", "MINUTELY", "HOURLY", "DAILY", "WEEKLY", "MONTHLY", "YEARLY")


class Report:
    def __init__(self, path):
        self.path = path
        self.items = []
        self.layers = {}

    def add(self, level, code, where, msg):
        self.items.append({"level": level, "code": code, "where": where, "msg": msg})

    def count(self, level):
        return sum(1 for i in self.items if i["level"] == level)


# ------------------------------------------------------------------ raw layer
def raw_checks(data, rep):
    if data.startswith(b"\xef\xbb\xbf"):
        rep.add(WARN, "BOM", "byte 0", "UTF-8 byte order mark at start of file")
        data = data[3:]
    try:
        data.decode("utf-8")
    except UnicodeDecodeError as e:
        rep.add(ERROR, "NOT_UTF8", "byte %d" % e.start, "file is not valid UTF-8: %s" % e.reason)
    crlf = data.count(b"\r\n")
    lf_only = data.count(b"\n") - crlf
    lone_cr = data.count(b"\r") - crlf
    if lf_only:
        rep.add(ERROR, "EOL_LF", "file", "%d line(s) end with bare LF (RFC 5545 3.1: CRLF required); %d CRLF" % (lf_only, crlf))
    if lone_cr:
        rep.add(ERROR, "EOL_CR", "file", "%d bare CR character(s)" % lone_cr)
    if data and not data.endswith(b"\n"):
        rep.add(WARN, "NO_FINAL_EOL", "file", "last line is not terminated by CRLF")
    lines = re.split(rb"\r\n|\n|\r", data)
    if lines and lines[-1] == b"":
        lines = lines[:-1]
    too_long = [i + 1 for i, l in enumerate(lines) if len(l) > 75]
    if too_long:
        rep.add(WARN, "LINE_GT_75", "lines %s%s" % (",".join(map(str, too_long[:10])), "..." if len(too_long) > 10 else ""),
                "%d line(s) longer than 75 octets (RFC 5545 3.1: SHOULD fold)" % len(too_long))
    split_utf8 = 0
    depth = []
    for i, l in enumerate(lines, 1):
        if l == b"":
            rep.add(WARN, "EMPTY_LINE", "line %d" % i, "empty line inside content")
            continue
        if l[:1] in (b" ", b"\t"):
            if i == 1:
                rep.add(ERROR, "FOLD_AT_START", "line 1", "continuation line at start of file")
            continue
        # a logical line must contain a ':' once unfolded; check physical start
        j = i
        logical = l
        while j < len(lines) and lines[j][:1] in (b" ", b"\t"):
            logical += lines[j][1:]
            j += 1
        try:
            l.decode("utf-8")
        except UnicodeDecodeError:
            try:
                logical.decode("utf-8")
                split_utf8 += 1
            except UnicodeDecodeError:
                pass
        if b":" not in logical:
            rep.add(ERROR, "BAD_CONTENT_LINE", "line %d" % i,
                    "no ':' in content line (broken folding?): %r" % logical[:60].decode("utf-8", "replace"))
            continue
        name = re.split(rb"[;:]", logical, 1)[0].upper()
        if not re.fullmatch(rb"[A-Z0-9-]+", name):
            rep.add(ERROR, "BAD_NAME", "line %d" % i, "invalid property name %r" % name[:40].decode("utf-8", "replace"))
        if name in (b"BEGIN", b"END"):
            val = logical.split(b":", 1)[1].strip().upper()
            if name == b"BEGIN":
                depth.append((val, i))
            else:
                if not depth:
                    rep.add(ERROR, "END_WITHOUT_BEGIN", "line %d" % i, "END:%s without BEGIN" % val.decode())
                elif depth[-1][0] != val:
                    rep.add(ERROR, "BEGIN_END_MISMATCH", "line %d" % i,
                            "END:%s closes BEGIN:%s (line %d)" % (val.decode(), depth[-1][0].decode(), depth[-1][1]))
                    depth.pop()
                else:
                    depth.pop()
    for val, i in depth:
        rep.add(ERROR, "UNCLOSED", "line %d" % i, "BEGIN:%s never closed" % val.decode("utf-8", "replace"))
    if split_utf8:
        rep.add(INFO, "FOLD_SPLITS_UTF8", "file", "%d fold(s) split a multi-octet UTF-8 character (legal but fragile)" % split_utf8)
    if lines and lines[0].upper().strip() not in (b"BEGIN:VCALENDAR", b"\xef\xbb\xbfBEGIN:VCALENDAR"):
        rep.add(WARN, "NOT_VCALENDAR", "line 1", "file does not start with BEGIN:VCALENDAR (fragment?)")


# ----------------------------------------------------------- icalendar layer
def _component_classes():
    out = set()
    for name in dir(icalendar):
        obj = getattr(icalendar, name)
        if isinstance(obj, type) and issubclass(obj, icalendar.cal.component.Component):
            out.add(obj)
    return out


def ical_parse(data, rep):
    try:
        comps = icalendar.Calendar.from_ical(data, multiple=True)
        rep.layers["icalendar_lenient"] = "ok"
    except Exception as e:  # noqa: BLE001
        rep.layers["icalendar_lenient"] = "FAIL"
        rep.add(ERROR, "ICAL_PARSE", "icalendar", "%s: %s" % (type(e).__name__, e))
        comps = None
    if comps is not None:
        for top in comps:
            for c in top.walk():
                for prop, err in getattr(c, "errors", []):
                    rep.add(ERROR, "ICAL_PROPERTY", "%s %s" % (c.name, c.get("UID", "")), "%s: %s" % (prop, err))
    # strict re-parse
    saved = {}
    for cls in _component_classes():
        saved[cls] = cls.__dict__.get("ignore_exceptions", None)
        cls.ignore_exceptions = False
    try:
        icalendar.Calendar.from_ical(data, multiple=True)
        rep.layers["icalendar_strict"] = "ok"
    except Exception as e:  # noqa: BLE001
        rep.layers["icalendar_strict"] = "FAIL"
        if rep.layers["icalendar_lenient"] == "ok":
            rep.add(ERROR, "ICAL_STRICT", "icalendar", "strict parse: %s: %s" % (type(e).__name__, str(e)[:200]))
    finally:
        for cls, v in saved.items():
            if v is None:
                try:
                    del cls.ignore_exceptions
                except AttributeError:
                    pass
            else:
                cls.ignore_exceptions = v
    return comps


def _kind(v):
    if isinstance(v, dt.datetime):
        if v.tzinfo is None:
            return "floating"
        return "utc" if v.utcoffset() == dt.timedelta(0) and str(v.tzinfo) in ("UTC", "UTC+00:00") else "zoned"
    if isinstance(v, dt.date):
        return "date"
    return type(v).__name__


def _val(c, name):
    p = c.get(name)
    if p is None or isinstance(p, list):
        return None
    try:
        return p.dt
    except Exception:  # noqa: BLE001
        return None


def _cmp(a, b):
    """a < b with date/datetime mixing handled; None if incomparable."""
    try:
        if isinstance(a, dt.datetime) != isinstance(b, dt.datetime):
            return None
        if isinstance(a, dt.datetime) and (a.tzinfo is None) != (b.tzinfo is None):
            a, b = a.replace(tzinfo=None), b.replace(tzinfo=None)
        return a < b, a == b
    except Exception:  # noqa: BLE001
        return None


def model_checks(comps, data, rep):
    tz_defined = set()
    tz_used = collections.Counter()
    masters = collections.Counter()
    for top in comps:
        has_method = "METHOD" in top
        for c in top.walk():
            where = "%s %s" % (c.name, c.get("UID", c.get("TZID", "")))
            counts = collections.Counter(k.upper() for k, v in c.property_items(recursive=False, sorted=False)
                                         if k.upper() not in ("BEGIN", "END"))
            # multiplicity from icalendar's metadata
            for req in getattr(c, "required", ()):
                if counts[req] == 0:
                    rep.add(ERROR, "MISSING_" + req, where, "required property %s missing" % req)
            for s in getattr(c, "singletons", ()):
                if counts[s] > 1:
                    rep.add(ERROR, "DUP_" + s, where, "%s occurs %d times (max 1)" % (s, counts[s]))
            ex = [p for p in getattr(c, "exclusive", ()) if counts[p]]
            if len(ex) > 1:
                rep.add(ERROR, "EXCLUSIVE", where, "mutually exclusive properties both present: %s" % ", ".join(ex))
            if c.name == "VCALENDAR":
                if c.get("VERSION") is not None and str(c.get("VERSION")) != "2.0":
                    rep.add(ERROR, "VERSION", where, "VERSION is %r, expected 2.0" % str(c.get("VERSION")))
                if not c.subcomponents:
                    rep.add(WARN, "EMPTY_CALENDAR", where, "VCALENDAR has no components")
                if "X-WR-TIMEZONE" in c:
                    rep.add(INFO, "X_WR_TIMEZONE", where, "X-WR-TIMEZONE=%s (Google-style; peers reinterpret UTC times)" % c["X-WR-TIMEZONE"])
            if c.name == "VTIMEZONE":
                tz_defined.add(str(c.get("TZID")))
                if not any(s.name in ("STANDARD", "DAYLIGHT") for s in c.subcomponents):
                    rep.add(ERROR, "VTIMEZONE_EMPTY", where, "VTIMEZONE without STANDARD/DAYLIGHT")
            for k, v in c.property_items(recursive=False, sorted=False):
                params = getattr(v, "params", None)
                if params and "TZID" in params:
                    tz_used[str(params["TZID"])] += 1
            if c.name in ("VEVENT", "VTODO", "VJOURNAL"):
                if c.name == "VEVENT" and "DTSTART" not in c and not has_method:
                    rep.add(ERROR, "MISSING_DTSTART", where, "VEVENT without DTSTART in a calendar without METHOD")
                if "RECURRENCE-ID" not in c and "UID" in c:
                    masters[(c.name, str(c["UID"]))] += 1
                s = _val(c, "DTSTART")
                for endname in ("DTEND", "DUE"):
                    e = _val(c, endname)
                    if s is not None and e is not None:
                        if _kind(s) == "date" and _kind(e) != "date" or _kind(s) != "date" and _kind(e) == "date":
                            rep.add(ERROR, "VALUE_TYPE_MISMATCH", where, "DTSTART is %s but %s is %s" % (_kind(s), endname, _kind(e)))
                        r = _cmp(e, s)
                        if r is not None:
                            lt, eq = r
                            if lt:
                                rep.add(ERROR, "END_BEFORE_START", where, "%s %s is before DTSTART %s" % (endname, e, s))
                            elif eq and endname == "DTEND":
                                rep.add(WARN, "END_EQUALS_START", where, "DTEND equals DTSTART (RFC: MUST be later; omit DTEND for zero duration)")
                if c.name == "VTODO" and "DURATION" in c and "DTSTART" not in c:
                    rep.add(ERROR, "DURATION_WITHOUT_DTSTART", where, "VTODO with DURATION but no DTSTART")
                if c.name == "VTODO" and "DUE" in c and "DURATION" in c:
                    rep.add(ERROR, "EXCLUSIVE", where, "VTODO has both DUE and DURATION")
                d = _val(c, "DURATION")
                if isinstance(d, dt.timedelta) and d < dt.timedelta(0):
                    rep.add(ERROR, "NEGATIVE_DURATION", where, "DURATION is negative: %s" % d)
                rid = _val(c, "RECURRENCE-ID")
                if s is not None and rid is not None and (_kind(s) == "date") != (_kind(rid) == "date"):
                    rep.add(ERROR, "VALUE_TYPE_MISMATCH", where, "RECURRENCE-ID is %s but DTSTART is %s" % (_kind(rid), _kind(s)))
                rrules = c.get("RRULE")
                if rrules is not None:
                    rrules = rrules if isinstance(rrules, list) else [rrules]
                    if len(rrules) > 1:
                        rep.add(WARN, "MULTIPLE_RRULE", where, "%d RRULE properties (RFC 5545: SHOULD NOT)" % len(rrules))
                    for rr in rrules:
                        rrule_checks(rr, s, where, rep)
                if "EXRULE" in c:
                    rep.add(WARN, "EXRULE", where, "EXRULE is deprecated (RFC 5545 dropped it); most peers ignore it")
    for tzid, n in tz_used.items():
        if tzid not in tz_defined:
            rep.add(ERROR, "TZID_UNDEFINED", "TZID=%s" % tzid,
                    "TZID referenced %d time(s) but no VTIMEZONE defines it (RFC 5545 3.2.19: MUST)%s"
                    % (n, "; resolvable as IANA name" if _is_iana(tzid) else ""))
    for (name, uid), n in masters.items():
        if n > 1:
            rep.add(ERROR, "DUPLICATE_UID", "%s %s" % (name, uid), "%d master components share this UID" % n)


def _is_iana(tzid):
    try:
        import zoneinfo
        zoneinfo.ZoneInfo(tzid)
        return True
    except Exception:  # noqa: BLE001
        return False


def rrule_checks(rr, dtstart, where, rep):
    try:
        parts = {k.upper(): v for k, v in rr.items()}
    except Exception:  # noqa: BLE001
        return
    freq = parts.get("FREQ")
    freq = freq[0] if isinstance(freq, list) and freq else freq
    if freq not in FREQS:
        rep.add(ERROR, "RRULE_FREQ", where, "RRULE without valid FREQ: %r" % (freq,))
        return
    if "COUNT" in parts and "UNTIL" in parts:
        rep.add(ERROR, "RRULE_COUNT_UNTIL", where, "RRULE has both COUNT and UNTIL")
    if "BYWEEKNO" in parts and freq != "YEARLY":
        rep.add(ERROR, "RRULE_BYWEEKNO", where, "BYWEEKNO only valid with FREQ=YEARLY")
    if "BYYEARDAY" in parts and freq in ("DAILY", "WEEKLY", "MONTHLY"):
        rep.add(ERROR, "RRULE_BYYEARDAY", where, "BYYEARDAY not valid with FREQ=%s" % freq)
    if "BYMONTHDAY" in parts and freq == "WEEKLY":
        rep.add(ERROR, "RRULE_BYMONTHDAY", where, "BYMONTHDAY not valid with FREQ=WEEKLY")
    byday = parts.get("BYDAY") or []
    if any(re.match(r"^[+-]?\d", str(getattr(d, "relative", d))) or getattr(d, "relative", None) for d in byday):
        if freq not in ("MONTHLY", "YEARLY"):
            rep.add(ERROR, "RRULE_BYDAY_ORDINAL", where, "ordinal BYDAY only valid with MONTHLY/YEARLY")
        elif freq == "YEARLY" and "BYWEEKNO" in parts:
            rep.add(ERROR, "RRULE_BYDAY_ORDINAL", where, "ordinal BYDAY with BYWEEKNO")
    until = parts.get("UNTIL")
    until = until[0] if isinstance(until, list) and until else until
    if until is not None and dtstart is not None:
        ks, ku = _kind(dtstart), _kind(until)
        if ks == "date" and ku != "date":
            rep.add(ERROR, "RRULE_UNTIL_TYPE", where, "DTSTART is a DATE but UNTIL is %s" % ku)
        elif ks in ("utc", "zoned") and ku != "utc":
            rep.add(ERROR, "RRULE_UNTIL_TYPE", where, "DTSTART is %s but UNTIL is %s (MUST be UTC)" % (ks, ku))
        elif ks == "floating" and ku not in ("floating",):
            rep.add(WARN, "RRULE_UNTIL_TYPE", where, "DTSTART is floating but UNTIL is %s" % ku)
        r = _cmp(until, dtstart) if ku != "date" or ks == "date" else None
        if r is not None and r[0]:
            rep.add(WARN, "RRULE_UNTIL_BEFORE_DTSTART", where, "UNTIL %s before DTSTART %s" % (until, dtstart))


# -------------------------------------------------------------- vobject layer
def vobject_checks(data, rep):
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError:
        text = data.decode("utf-8", "replace")
    try:
        comps = list(vobject.readComponents(text, validate=True))
    except Exception as e:  # noqa: BLE001
        rep.layers["vobject"] = "FAIL"
        rep.add(ERROR, "VOBJECT_PARSE", "vobject", "%s: %s" % (type(e).__name__, str(e)[:300]))
        return
    ok = True
    for c in comps:
        try:
            c.validate(raiseException=True, complainUnrecognized=False)
        except Exception as e:  # noqa: BLE001
            ok = False
            rep.add(ERROR, "VOBJECT_VALIDATE", "vobject %s" % c.name, "%s: %s" % (type(e).__name__, str(e)[:300]))
        try:
            for sub in c.getChildren():
                if getattr(sub, "name", "") in ("VEVENT", "VTODO") and hasattr(sub, "rruleset"):
                    _ = sub.rruleset  # what Radicale evaluates on PUT
            c.serialize()
        except Exception as e:  # noqa: BLE001
            ok = False
            rep.add(ERROR, "VOBJECT_SERIALIZE", "vobject %s" % c.name, "%s: %s" % (type(e).__name__, str(e)[:300]))
    rep.layers["vobject"] = "ok" if ok else "FAIL"


def validate_file(path):
    rep = Report(path)
    try:
        data = open(path, "rb").read()
    except OSError as e:
        rep.add(ERROR, "IO", path, str(e))
        return rep
    raw_checks(data, rep)
    comps = ical_parse(data, rep)
    if comps:
        try:
            model_checks(comps, data, rep)
        except Exception as e:  # noqa: BLE001
            rep.add(WARN, "MODEL_CHECK_CRASH", "validator", "%s: %s" % (type(e).__name__, e))
    vobject_checks(data, rep)
    return rep


def main(argv=None):
    ap = argparse.ArgumentParser()
    ap.add_argument("files", nargs="+")
    ap.add_argument("--json", action="store_true")
    ap.add_argument("--quiet", action="store_true", help="only print SUMMARY lines")
    ns = ap.parse_args(argv)
    any_err = False
    for p in ns.files:
        rep = validate_file(p)
        errs, warns = rep.count(ERROR), rep.count(WARN)
        any_err |= errs > 0
        if ns.json:
            print(json.dumps({"file": p, "errors": errs, "warnings": warns, "layers": rep.layers,
                              "findings": rep.items}, ensure_ascii=False, default=str))
            continue
        if not ns.quiet:
            for i in rep.items:
                print("%-5s %-26s [%s] %s" % (i["level"], i["code"], i["where"], i["msg"]))
        print("SUMMARY %s errors=%d warnings=%d %s" % (
            p, errs, warns, " ".join("%s=%s" % kv for kv in sorted(rep.layers.items()))))
    return 1 if any_err else 0


if __name__ == "__main__":
    sys.exit(main())
