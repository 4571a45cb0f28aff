#!/usr/bin/env python3
"""Which module may spell iCalendar (Docs/Modules.md, "The iCalendar model"; issue 43, 2).

The model is KCalendarCore's: CalendarCore holds typed values and keeps the
lines it does not model unread; ICalendarKit alone spells RFC 5545's
component, property and parameter names (with RFC 7986's and the vendors'
`X-WR-*`, `X-APPLE-*`); SchedulingICalendar alone spells the book's
(`X-HORARI-*`, its `VJOURNAL` records); every other module — the views, the
book, the stores, the CLI — goes through those two and spells none.

This script finds every line of Swift in Sources/ and Examples/horari/ whose
string literal opens with such a name (`"ATTENDEE"`, `"BEGIN:VCALENDAR…`,
`"X-WR-CALNAME"`, `"UID;`…) outside a comment: what code spells to read or
write iCalendar. Prose that names a property for a person (a message
saying "no DTSTART", a DocC comment) is not spelling it, and is not counted. A module that may not spell
one fails the check, except for the lines DEBTS lists by file: what the code
held when the model was chosen, each to move. A file over its debt fails; a
file under it fails too, naming the lower figure to write, so that the table
stays the truth and can only shrink.

Usage: python3 Conformance/module_names.py [REPO]
"""
import collections
import pathlib
import re
import sys

# The modules that are the iCalendar model's own, and test support: the test
# support modules' literals are fixtures (BookStorageConformance's are the
# bytes an app's backend must keep as written, whatever they say).
MAY_SPELL = {"ICalendarKit", "SchedulingICalendar", "CLibICal", "_CalendarTestSupport", "_SchedulingTestSupport", "BookStorageConformance"}

# Literals that are values, not names, in the file that writes them: value
# syntax CalendarCore models (Docs/Modules.md), which happens to be spelled
# like a name. Each is the whole literal, quotes and all, and how many times
# the file writes it: another literal, or one more, is not exempt. With why.
VALUES = {
    # RELATED's value END (RFC 5545 §3.2.14), Alarm.Edge.end's raw value.
    "Sources/CalendarCore/Items/Alarm.swift": {'"END"': 1},
    # STATUS's value COMPLETED (RFC 5545 §3.8.1.11), one of ItemStatus's
    # cases, read and written.
    "Sources/CalendarCore/Items/ItemStatus.swift": {'"COMPLETED"': 2},
    # A rule as RFC 5545's own examples and python-dateutil's rrulestr write
    # it, `RRULE:FREQ=…`: a person pastes it so, and RecurrenceRule(parsing:)
    # reads it as the rule it is.
    "Sources/CalendarCore/Recurrence/RecurrenceRule+Parsing.swift": {'"RRULE:"': 1},
}

NAMES = (
    "BEGIN|END|VCALENDAR|VEVENT|VTODO|VJOURNAL|VALARM|VTIMEZONE|VFREEBUSY|VAVAILABILITY|STANDARD|DAYLIGHT|"
    "ATTENDEE|ORGANIZER|DTSTART|DTEND|DUE|DURATION|RRULE|RDATE|EXDATE|EXRULE|RECURRENCE-ID|UID|SUMMARY|"
    "DESCRIPTION|LOCATION|STATUS|CATEGORIES|CLASS|COLOR|COMPLETED|PERCENT-COMPLETE|PRIORITY|SEQUENCE|DTSTAMP|"
    "LAST-MODIFIED|CREATED|TRIGGER|ACTION|REPEAT|TZID|TZOFFSETFROM|TZOFFSETTO|CN|PARTSTAT|ROLE|RSVP|RELATED-TO|"
    "METHOD|PRODID|VERSION|CALSCALE|FREEBUSY|URL|ATTACH|X-[A-Z0-9-]+"
)
LITERAL = re.compile(r'"(?:' + NAMES + r')(?=["\\:;])')

# Lines that spelled iCalendar where the model says they must not, when the
# model was chosen (2026-11-27), by file; Docs/Modules.md says where each goes.
DEBTS: dict[str, int] = {
    # Paid (2026-11-27): CalendarCore's VALARM, ORGANIZER/ATTENDEE and
    # COMPLETED/PERCENT-COMPLETE codecs are ICalendarKit's, CalendarStore's
    # scanner and envelopes too. A new entry here is a step back: say why.
}


def module_of(path: pathlib.Path, root: pathlib.Path) -> str:
    parts = path.relative_to(root).parts
    return parts[1] if parts[0] == "Sources" else "horari"


def code(line: str) -> str:
    """The line without a `//` comment that starts outside a string."""
    quoted = False
    for i, ch in enumerate(line):
        if ch == '"' and (i == 0 or line[i - 1] != "\\"):
            quoted = not quoted
        elif not quoted and line.startswith("//", i):
            return line[:i]
    return line


def literal_at(text: str, start: int) -> str:
    """The whole string literal that opens at `start`, quotes and all."""
    i = start + 1
    while i < len(text):
        if text[i] == "\\":
            i += 2
            continue
        if text[i] == '"':
            return text[start:i + 1]
        i += 1
    return text[start:]


def main() -> int:
    root = pathlib.Path(sys.argv[1] if len(sys.argv) > 1 else ".").resolve()
    files = sorted(root.glob("Sources/**/*.swift")) + sorted(root.glob("Examples/horari/**/*.swift"))
    found = collections.Counter()
    values = collections.defaultdict(collections.Counter)
    first = {}
    for path in files:
        if module_of(path, root) in MAY_SPELL:
            continue
        rel = str(path.relative_to(root))
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
            names = []
            text = code(line)
            for m in LITERAL.finditer(text):
                whole = literal_at(text, m.start())
                if whole in VALUES.get(rel, {}):
                    values[rel][whole] += 1
                else:
                    names.append(m.group(0))
            if names:
                found[rel] += 1
                first.setdefault(rel, (number, names[0]))
    failures = []
    for rel in sorted(set(found) | set(DEBTS)):
        n, allowed = found.get(rel, 0), DEBTS.get(rel, 0)
        if n > allowed:
            number, name = first[rel]
            failures.append(f"{rel}: {n} line(s) spell iCalendar ({name}… at line {number}), {allowed} allowed: "
                            "go through ICalendarKit or SchedulingICalendar (Docs/Modules.md, \"The iCalendar model\")")
        elif n < allowed:
            failures.append(f"{rel}: {n} line(s) spell iCalendar, {allowed} allowed: a debt was paid; write {n} in DEBTS")
    for rel, pinned in sorted(VALUES.items()):
        for whole, n in sorted(pinned.items()):
            if values[rel][whole] != n:
                failures.append(f"{rel}: the value {whole} is written {values[rel][whole]} time(s), VALUES pins {n}: "
                                "write the figure, or spell a name through ICalendarKit")
    for f in failures:
        print("module names: " + f)
    owed = sum(DEBTS.values())
    print(f"module names: {len(files)} files; {sum(found.values())} lines outside the model's modules spell iCalendar, "
          f"{owed} listed as debts in {len(DEBTS)} files; {len(failures)} failing")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
