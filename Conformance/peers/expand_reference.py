#!/usr/bin/env python3

# Copied from the team's peer-oracle scripts (shared/oracles/expand.py) so the
# project's conformance check runs without them; keep the two in step.
"""Reference occurrence expander (peer oracle) built on recurring-ical-events.

Usage:
  $ORACLES/venv/bin/python $ORACLES/expand.py FILE.ics FROM TO [options]
      FROM, TO : ISO dates or datetimes, window is [FROM, TO)
  options:
      --tz ZONE          interpret FROM/TO in IANA ZONE (or "UTC"). Default: naive
                         bounds, i.e. compared with each event in the event's own
                         zone (recurring-ical-events' make_comparable behaviour).
      --utc              print aware times converted to UTC with 'Z' suffix
                         (default: wall time in the event's own zone + numeric offset)
      --max-per-series N cap occurrences per series (UID) (default 2000, 0 = no cap)
      --components LIST  default VEVENT,VTODO (VJOURNAL also possible)
      --no-x-wr-timezone do not apply X-WR-TIMEZONE conversion (default: apply,
                         as recurring_ical_events.of() does)
      --strict           abort on the first broken series instead of skipping it

Output (stdout): one JSON object per occurrence, keys in this order:
  {"uid", "recurrence_id", "start", "end", "summary", "component", "tzid"}
  sorted by (start instant, end instant, uid, recurrence_id, summary); see
  NORMALISATION below. Diagnostics go to stderr; the last stderr line is a
  JSON summary {"file","occurrences","series","series_errors","truncated",...}.
Exit code: 0 ok, 1 parse failure of the whole file, 2 usage.

NORMALISATION (what our CLI must print to diff cleanly):
  * all-day (VALUE=DATE)          -> "YYYY-MM-DD"            tzid null
  * floating (no TZID, no Z)      -> "YYYY-MM-DDTHH:MM:SS"   tzid null
  * UTC (…Z)                      -> "YYYY-MM-DDTHH:MM:SS+00:00" tzid "UTC"
                                     (with --utc: "YYYY-MM-DDTHH:MM:SSZ")
  * TZID=Zone                     -> wall time in Zone + its offset at that
                                     instant, e.g. "2026-03-29T03:30:00+02:00",
                                     tzid "Europe/Berlin" (with --utc: converted,
                                     "…Z").  NOTE (icalendar behaviour): when the
                                     TZID (after stripping vendor prefixes such as
                                     /mozilla.org/20070129_1/) is a known IANA name,
                                     the system tz database is used and the file's
                                     VTIMEZONE rules are IGNORED; only unknown TZIDs
                                     use the VTIMEZONE (tzid printed verbatim).
                                     A TZID with no VTIMEZONE and no IANA match is
                                     treated as FLOATING (tzid null).
  * seconds always printed, fractional seconds never.
  * end: DTEND / DUE, or DTSTART+DURATION, or (no end) DTSTART for date-times
    and DTSTART+1 day for all-day events (RFC 5545 3.6.1), as computed by
    recurring-ical-events.  VTODO without DTSTART uses DUE as start.
    VTODOs with neither DTSTART nor DUE are skipped.
  * recurrence_id: value of RECURRENCE-ID for modified instances; for
    generated instances of a recurring series (RRULE/RDATE/overrides) the
    instance's start (recurring-ical-events sets RECURRENCE-ID=DTSTART);
    null for non-recurring components.  Same formatting as start.
  * summary: SUMMARY text or null.
  * window: an occurrence is printed when it OVERLAPS [FROM, TO):
    start < TO and end > FROM; zero-length ones when FROM <= start < TO.
"""
import argparse
import datetime as dt
import itertools
import json
import signal
import sys
import time
import zoneinfo

import icalendar
import recurring_ical_events as rie
import x_wr_timezone

ALLOWED = ("VEVENT", "VTODO", "VJOURNAL")


def parse_bound(s, tz):
    if len(s) == 10:
        v = dt.datetime.fromisoformat(s + "T00:00:00")
    else:
        v = dt.datetime.fromisoformat(s.replace("Z", "+00:00"))
    if tz and v.tzinfo is None:
        v = v.replace(tzinfo=dt.timezone.utc if tz == "UTC" else zoneinfo.ZoneInfo(tz))
    return v


def tzname_of(v):
    if not isinstance(v, dt.datetime) or v.tzinfo is None:
        return None
    tzi = v.tzinfo
    custom = getattr(tzi, "_tzid", None)  # dateutil tzicalvtz built from a VTIMEZONE
    if isinstance(custom, str):
        return custom
    for attr in ("key", "zone"):
        k = getattr(tzi, attr, None)
        if isinstance(k, str):
            return k
    if v.utcoffset() == dt.timedelta(0) and str(tzi) in ("UTC", "UTC+00:00", "tzutc()"):
        return "UTC"
    n = getattr(tzi, "_filename", None) or getattr(tzi, "tzid", None)
    if n:
        return str(n)
    return str(tzi)


def fmt(v, utc=False):
    if v is None:
        return None
    if isinstance(v, dt.datetime):
        v = v.replace(microsecond=0)
        if v.tzinfo is None:
            return v.isoformat(timespec="seconds")
        if utc:
            return v.astimezone(dt.timezone.utc).replace(tzinfo=None).isoformat(timespec="seconds") + "Z"
        return v.isoformat(timespec="seconds")
    if isinstance(v, dt.date):
        return v.isoformat()
    return str(v)


def sort_instant(v, window_tz):
    """Comparable key: aware -> UTC; floating/date -> interpreted in window_tz (UTC default)."""
    if isinstance(v, dt.datetime):
        if v.tzinfo is None:
            return v.replace(tzinfo=window_tz or dt.timezone.utc).astimezone(dt.timezone.utc)
        return v.astimezone(dt.timezone.utc)
    if isinstance(v, dt.date):
        return dt.datetime(v.year, v.month, v.day, tzinfo=window_tz or dt.timezone.utc).astimezone(dt.timezone.utc)
    return dt.datetime.min.replace(tzinfo=dt.timezone.utc)


def series_is_recurring(series):
    for ad in series.components:
        c = ad._component
        if "RRULE" in c or "RDATE" in c or "RECURRENCE-ID" in c:
            return True
    return len(series.components) > 1


def _drop_unexpandable(cal, comps, summary):
    """Drop VEVENTs without DTSTART (RFC 5545 requires it when there is no
    METHOD); recurring-ical-events raises KeyError on them. Recorded in summary."""
    def bad(c):
        return c.name == "VEVENT" and "DTSTART" not in c
    if bad(cal):
        summary["skipped"].append("VEVENT without DTSTART uid=%s" % cal.get("UID"))
        return None
    keep = []
    for c in cal.subcomponents:
        if c.name in comps and bad(c):
            summary["skipped"].append("VEVENT without DTSTART uid=%s" % c.get("UID"))
            continue
        keep.append(c)
    cal.subcomponents = keep
    return cal


def _make_queries(cal, comps, ns, summary):
    """CalendarQuery for the whole calendar; on failure fall back to one query
    per UID (VTIMEZONEs copied in) so one broken series does not hide the rest."""
    try:
        return [rie.CalendarQuery(cal, components=comps)]
    except Exception as e:  # noqa: BLE001
        if ns.strict:
            raise
        summary["series_errors"] += 1
        summary["errors"].append("collect: %s: %s" % (type(e).__name__, e))
    try:  # let recurring-ical-events drop the series it knows to be broken
        return [rie.CalendarQuery(cal, components=comps, skip_bad_series=True)]
    except Exception as e:  # noqa: BLE001
        summary["errors"].append("collect(skip_bad_series): %s: %s" % (type(e).__name__, e))
    if cal.name != "VCALENDAR":
        return []
    tzs = [c for c in cal.subcomponents if c.name == "VTIMEZONE"]
    groups = {}
    for c in cal.subcomponents:
        if c.name in comps:
            groups.setdefault(str(c.get("UID")), []).append(c)
    queries = []
    for uid, members in groups.items():
        sub = icalendar.Calendar()
        for k, v in cal.items():
            sub[k] = v
        sub.subcomponents = tzs + members
        try:
            queries.append(rie.CalendarQuery(sub, components=comps))
        except Exception as e:  # noqa: BLE001
            summary["errors"].append("uid %s: %s: %s" % (uid, type(e).__name__, e))
    return queries


def expand_calendar(cal, start, stop, ns, summary):
    if not ns.no_x_wr_timezone and cal.name == "VCALENDAR":
        cal = x_wr_timezone.to_standard(cal)
    comps = ns.components.split(",")
    cal = _drop_unexpandable(cal, comps, summary)
    if cal is None:
        return []
    all_series = []
    for q in _make_queries(cal, comps, ns, summary):
        all_series.extend(q.series)
    out = []
    for series in all_series:
        summary["series"] += 1
        recurring = series_is_recurring(series)
        try:
            gen = series.between(start, stop)
            occs = list(itertools.islice(gen, ns.max_per_series + 1)) if ns.max_per_series else list(gen)
        except Exception as e:  # noqa: BLE001
            summary["series_errors"] += 1
            summary["errors"].append("%s: %s: %s" % (series.uid, type(e).__name__, e))
            if ns.strict:
                raise
            continue
        if ns.max_per_series and len(occs) > ns.max_per_series:
            occs = occs[: ns.max_per_series]
            summary["truncated"] += 1
            summary["truncated_uids"].append(str(series.uid))
        for occ in occs:
            comp = occ.as_component(False)
            name = comp.name
            s = comp.get("DTSTART")
            endprop = "DUE" if name == "VTODO" else "DTEND"
            e = comp.get(endprop)
            if name == "VTODO":
                src = occ._adapter._component
                if "DTSTART" not in src and "DUE" not in src:
                    continue
            sv = s.dt if s is not None else None
            ev = e.dt if e is not None else None
            rid = comp.get("RECURRENCE-ID")
            ridv = rid.dt if (rid is not None and recurring) else None
            summ = comp.get("SUMMARY")
            rec = {
                "uid": str(comp.get("UID")) if comp.get("UID") is not None else None,
                "recurrence_id": fmt(ridv, ns.utc),
                "start": fmt(sv, ns.utc),
                "end": fmt(ev, ns.utc),
                "summary": str(summ) if summ is not None else None,
                "component": name,
                "tzid": tzname_of(sv),
            }
            key = (sort_instant(sv, ns._wtz), sort_instant(ev, ns._wtz), rec["uid"] or "",
                   rec["recurrence_id"] or "", rec["summary"] or "", json.dumps(rec, sort_keys=True))
            out.append((key, rec))
    return out


def build_parser():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("file")
    ap.add_argument("start")
    ap.add_argument("stop")
    ap.add_argument("--tz", default=None)
    ap.add_argument("--utc", action="store_true")
    ap.add_argument("--max-per-series", type=int, default=2000)
    ap.add_argument("--components", default="VEVENT,VTODO")
    ap.add_argument("--no-x-wr-timezone", action="store_true")
    ap.add_argument("--strict", action="store_true")
    return ap


def expand_file(ns):
    """Return (records, summary, ok). ns: parsed options (see build_parser)."""
    ns._wtz = None if not ns.tz else (dt.timezone.utc if ns.tz == "UTC" else zoneinfo.ZoneInfo(ns.tz))
    start, stop = parse_bound(ns.start, ns.tz), parse_bound(ns.stop, ns.tz)
    t0 = time.time()
    summary = {"file": ns.file, "occurrences": 0, "series": 0, "series_errors": 0,
               "truncated": 0, "truncated_uids": [], "errors": [], "skipped": []}
    try:
        with open(ns.file, "rb") as f:
            data = f.read()
        cals = icalendar.Calendar.from_ical(data, multiple=True)
    except Exception as e:  # noqa: BLE001
        summary["parse_error"] = "%s: %s" % (type(e).__name__, e)
        summary["seconds"] = round(time.time() - t0, 3)
        return [], summary, False
    rows = []
    try:
        for cal in cals:
            rows.extend(expand_calendar(cal, start, stop, ns, summary))
    except Exception as e:  # noqa: BLE001  (only with --strict or query construction errors)
        summary["query_error"] = "%s: %s" % (type(e).__name__, e)
        summary["seconds"] = round(time.time() - t0, 3)
        return [], summary, False
    rows.sort(key=lambda r: r[0])
    summary["occurrences"] = len(rows)
    summary["seconds"] = round(time.time() - t0, 3)
    return [rec for _, rec in rows], summary, True


def main(argv=None):
    signal.signal(signal.SIGPIPE, signal.SIG_DFL)
    ns = build_parser().parse_args(argv)
    recs, summary, ok = expand_file(ns)
    w = sys.stdout.write
    for rec in recs:
        w(json.dumps(rec, ensure_ascii=False) + "\n")
    sys.stdout.flush()
    print(json.dumps(summary, ensure_ascii=False), file=sys.stderr)
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
