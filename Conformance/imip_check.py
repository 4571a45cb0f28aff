#!/usr/bin/env python3
"""The e-mail `horari … --outbox DIR` writes, read by the peers (issue 32).

    python3 Conformance/imip_check.py .build/release/horari

A gym is made with the CLI in a scratch folder; sessions and class places
are booked, moved and cancelled with --outbox, and every .eml is read by
Python's `email` package (policy.default: RFC 5322 and MIME, with its
defects) and its calendar parts by `icalendar`, as a mail program and a
calendar program would. Checked against RFC 6047 and RFC 5546:

- each message is multipart/mixed: a multipart/alternative of text/plain
  and text/calendar with a `method` parameter equal to the calendar's
  METHOD, then the same calendar as an `invite.ics` attachment; no MIME
  defect anywhere;
- From is the calendar's ORGANIZER, To its one ATTENDEE (RFC 6047 §2.2.1);
  no other client or member is named anywhere in the message;
- every TZID used has a VTIMEZONE; a class place is its class's UID with a
  RECURRENCE-ID; a REQUEST asks RSVP=TRUE;
- the messages one person gets about one event carry rising SEQUENCEs, so
  their calendar takes each (RFC 5546 §2.1.4);
- an address with a line break in it adds no header: the member is not told
  and says so, and no message carries a Bcc;
- a name or --gym whose RFC 2047 word stands for a line break is refused; a
  class title typed as such a word is shown in the Subject as typed.
"""
import email
import os
import shutil
import subprocess
import sys
import tempfile
from email import policy

import icalendar

CALENDAR_TYPES = ("text/calendar", "application/ics")
TYPED_WORD = "=?UTF-8?Q?Pilates=0D=0ABcc:_everyone@example.com?="  # a class title, as a person typed it


def run(horari, args, cwd, ok=True):
    p = subprocess.run([horari] + args, cwd=cwd, capture_output=True, text=True, env={**os.environ, "TZ": "Asia/Tokyo"})
    if ok and p.returncode != 0:
        raise SystemExit(f"FAIL: horari {' '.join(args)} exited {p.returncode}: {p.stderr.strip()}")
    return p


def read(path):
    with open(path, "rb") as f:
        msg = email.message_from_binary_file(f, policy=policy.default)
    problems = []
    for part in msg.walk():
        problems += [f"{part.get_content_type()}: {d!r}" for d in part.defects]
    if msg.get_content_type() != "multipart/mixed":
        problems.append(f"top part is {msg.get_content_type()}")
    parts = list(msg.iter_parts())
    alt = parts[0] if parts else None
    if alt is None or alt.get_content_type() != "multipart/alternative":
        problems.append("first part is not multipart/alternative")
        return msg, None, problems
    inner = [p.get_content_type() for p in alt.iter_parts()]
    if inner != ["text/plain", "text/calendar"]:
        problems.append(f"alternative parts are {inner}")
    cal_part = list(alt.iter_parts())[1]
    text = cal_part.get_content()
    cal = icalendar.Calendar.from_ical(text)
    method = str(cal.get("METHOD"))
    if cal_part.get_param("method") != method:
        problems.append(f"text/calendar method={cal_part.get_param('method')} but METHOD:{method}")
    attachments = [p for p in parts[1:] if p.get_filename() == "invite.ics"]
    if len(attachments) != 1 or attachments[0].get_content_type() not in CALENDAR_TYPES:
        problems.append("no invite.ics attachment")
    else:
        attached = attachments[0].get_content()
        attached = attached.decode() if isinstance(attached, bytes) else attached
        if attached != text:
            problems.append("invite.ics differs from the text/calendar part")
    plain = list(alt.iter_parts())[0].get_content()
    if not plain.strip():
        problems.append("the text part is empty")
    return msg, cal, problems


def check_message(path, msg, cal, problems, everyone):
    events = [c for c in cal.walk("VEVENT")]
    if len(events) != 1:
        problems.append(f"{len(events)} VEVENTs")
        return None
    ev = events[0]
    attendees = ev.get("ATTENDEE")
    attendees = attendees if isinstance(attendees, list) else [attendees] if attendees is not None else []
    if len(attendees) != 1:
        problems.append(f"{len(attendees)} ATTENDEEs")
        return None
    to = msg["To"].addresses[0].addr_spec.lower()
    sender = msg["From"].addresses[0].addr_spec.lower()
    if str(attendees[0]).lower() != "mailto:" + to:
        problems.append(f"ATTENDEE {attendees[0]} is not To {to}")
    if str(ev.get("ORGANIZER")).lower() != "mailto:" + sender:
        problems.append(f"ORGANIZER {ev.get('ORGANIZER')} is not From {sender}")
    method = str(cal.get("METHOD"))
    if method == "REQUEST" and attendees[0].params.get("RSVP") != "TRUE":
        problems.append("a REQUEST that asks no RSVP")
    for required in (["ATTENDEE", "DTSTAMP", "DTSTART", "ORGANIZER", "SEQUENCE", "SUMMARY", "UID"] if method == "REQUEST"
                     else ["ATTENDEE", "DTSTAMP", "ORGANIZER", "SEQUENCE", "UID"]):
        if required not in ev:
            problems.append(f"a {method} without {required} (RFC 5546 §3.2)")
    zones = {str(c.get("TZID")) for c in cal.walk("VTIMEZONE")}
    for prop in ("DTSTART", "DTEND", "RECURRENCE-ID"):
        if prop in ev and "TZID" in ev[prop].params and ev[prop].params["TZID"] not in zones:
            problems.append(f"{prop} TZID {ev[prop].params['TZID']} has no VTIMEZONE")
    raw = open(path, "rb").read().decode("utf-8", "replace")
    decoded = [p.get_content() for p in msg.walk() if not p.is_multipart()]
    whole = (raw + "".join(d.decode("utf-8", "replace") if isinstance(d, bytes) else d for d in decoded)).lower()
    for other in everyone - {to, sender}:
        if other in whole:
            problems.append(f"names {other}")
    if "\nbcc:" in raw.lower().split("\r\n\r\n")[0] or "\r\nbcc:" in raw.lower().split("\r\n\r\n")[0]:
        problems.append("a Bcc header")
    key = (to, str(ev.get("UID")), str(ev.get("RECURRENCE-ID").to_ical().decode()) if ev.get("RECURRENCE-ID") else "")
    return key, int(ev.get("SEQUENCE")), method


def main():
    horari = os.path.abspath(sys.argv[1])
    work = tempfile.mkdtemp(prefix="horari-imip-")
    failures = []
    try:
        cal = ["--calendar", "gym.ics", "--time-zone", "Europe/Madrid"]
        now = ["--now", "2026-11-22 10:00"]
        out = ["--outbox", "outbox", "--gym", "Gimnàs Sants <desk@gym.example>"]
        setup = [
            ["coaches", "add", "marc", "--name", "Marc Soler", "--email", "marc@gym.example", "--hours", "MO-FR 09:00-20:00"],
            ["clients", "add", "anna", "--coach", "marc", "--name", "Anna Puig", "--email", "anna@example.com"],
            ["members", "add", "marta", "--name", "Marta Roig", "--email", "marta@example.com"],
            ["members", "add", "joan", "--name", "Joan Serra", "--email", "joan@example.com"],
            ["members", "add", "pol", "--name", "Pol Riera"],
            ["members", "add", "eve", "--name", "Eve", "--email", "eve@example.com\nBcc: everyone@example.com"],
            ["classes", "add", "yoga", "--title", "Ioga", "--days", "WE", "--time", "19:00", "--minutes", "60", "--capacity", "2", "--location", "Sala 1"],
            # A title typed as an RFC 2047 word that stands for a line break (issue 41, 12): taken as
            # text, and every Subject must show it as typed, never decode it into a header.
            ["classes", "add", "pilates", "--title", TYPED_WORD, "--days", "TH", "--time", "10:00", "--minutes", "60", "--capacity", "5"],
            ["members", "add", "mallory", "--name", "=?UTF-8?Q?Mallory=0D=0ABcc:_everyone@example.com?=", "--email", "mallory@example.com"],
        ]
        for args in setup:
            p = run(horari, args + cal, work, ok=False)
            if args[2] == "eve":
                # An address with a line break would add a header to every message she is sent.
                if p.returncode == 0 or "e-mail address" not in p.stderr:
                    failures.append(f"an address with a line break was taken: {p.returncode} {p.stderr.strip()}")
            elif args[2] == "mallory":
                # So would a name whose encoded word stands for one: mail programs decode it.
                if p.returncode == 0 or "encoded word" not in p.stderr:
                    failures.append(f"a name whose encoded word stands for a line break was taken: {p.returncode} {p.stderr.strip()}")
            elif p.returncode != 0:
                raise SystemExit(f"FAIL: horari {' '.join(args)}: {p.stderr.strip()}")
        changes = [
            ["sessions", "add", "--coach", "marc", "--client", "anna", "--start", "2026-11-26 18:00", "--minutes", "45",
             "--location", "Gimnàs Sants", "--notes", "private: left knee", "--id", "s1"],
            ["sessions", "move", "s1", "--coach", "marc", "--start", "2026-11-27 10:00"],
            ["book", "--member", "marta", "--class", "yoga", "--date", "2026-12-02"],
            ["book", "--member", "pol", "--class", "yoga", "--date", "2026-12-02"],
            ["book", "--member", "joan", "--class", "yoga", "--date", "2026-12-02", "--waitlist"],
            ["cancel", "--member", "marta", "--class", "yoga", "--date", "2026-12-02"],
            ["book", "--member", "marta", "--class", "yoga", "--date", "2026-12-09"],
            ["classes", "move", "yoga", "--date", "2026-12-09", "--start", "2026-12-09 20:00"],
            ["classes", "close", "2026-12-09", "--reason", "Festa major"],
            ["book", "--member", "marta", "--class", "yoga", "--date", "2026-12-16"],
            ["cancel", "--member", "marta", "--class", "yoga", "--date", "2026-12-16"],
            ["book", "--member", "marta", "--class", "yoga", "--date", "2026-12-16"],
            ["sessions", "cancel", "s1", "--coach", "marc"],
            ["book", "--member", "joan", "--class", "pilates", "--date", "2026-12-03"],
        ]
        said, order = [], []
        outbox = os.path.join(work, "outbox")

        def written():
            for name in sorted(os.listdir(outbox)) if os.path.isdir(outbox) else []:
                if name not in order:
                    order.append(name)

        for args in changes:
            said.append(run(horari, args + cal + now + out, work).stdout)
            written()
        # A gym address with a line break is refused before anything changes.
        p = run(horari, ["book", "--member", "joan", "--class", "yoga", "--date", "2026-12-23", "--outbox", "outbox",
                         "--gym", "Gym <desk@gym.example>\nBcc: everyone@example.com"] + cal + now, work, ok=False)
        if p.returncode == 0 or "--gym" not in p.stderr:
            failures.append(f"a --gym with a line break was taken: {p.returncode} {p.stderr.strip()}")
        p = run(horari, ["book", "--member", "joan", "--class", "yoga", "--date", "2026-12-23", "--outbox", "outbox",
                         "--gym", "=?UTF-8?Q?Gym=0D=0ABcc:_everyone@example.com?= <desk@gym.example>"] + cal + now, work, ok=False)
        if p.returncode == 0 or "encoded word" not in p.stderr:
            failures.append(f"a --gym name whose encoded word stands for a line break was taken: {p.returncode} {p.stderr.strip()}")
        written()
        typed = [n for n in order if n.startswith("request-joan")]
        subjects = []
        for name in typed:
            with open(os.path.join(outbox, name), "rb") as f:
                subjects.append(str(email.message_from_binary_file(f, policy=policy.default)["Subject"]))
        if not any(TYPED_WORD in s for s in subjects):
            failures.append(f"no Subject shows the title typed as an encoded word as typed: {subjects}")
        if not any("Not told (no e-mail address on record): Pol Riera" in s for s in said):
            failures.append("Pol, who has no address, is not listed as not told")

        # Answers as a calendar program makes them: icalendar turns Joan's
        # invitation into his REPLY (METHOD, PARTSTAT, no RSVP), as
        # Thunderbird and Apple Calendar do. Imported, his place is given
        # up and no one else is told (no one waits); a COUNTER and a forged
        # organizer are refused and change nothing.
        joan = next(n for n in order if n.startswith("request-joan"))
        with open(os.path.join(outbox, joan), "rb") as f:
            invitation = email.message_from_binary_file(f, policy=policy.default)
        calendar_part = next(p for p in invitation.walk() if p.get_content_type() == "text/calendar")

        def answer(partstat, method="REPLY", organizer=None):
            cal = icalendar.Calendar.from_ical(calendar_part.get_content())
            cal["METHOD"] = method
            for ev in cal.walk("VEVENT"):
                a = ev["ATTENDEE"]
                a.params["PARTSTAT"] = partstat
                a.params.pop("RSVP", None)
                if organizer:
                    ev["ORGANIZER"] = icalendar.vCalAddress(organizer)
            return cal.to_ical()

        gym_file = os.path.join(work, "gym.ics")
        for name, text, wanted in [
            ("counter.ics", answer("NEEDS-ACTION", method="COUNTER"), "METHOD:COUNTER is not supported"),
            ("forged.ics", answer("DECLINED", organizer="mailto:desk@elsewhere.example"), "names desk@elsewhere.example as organizer"),
        ]:
            open(os.path.join(work, name), "wb").write(text)
            before = open(gym_file, "rb").read()
            p = run(horari, ["import", name, "--into", "gym.ics", "--gym", "Gimnàs Sants <desk@gym.example>"] + now, work, ok=False)
            if p.returncode == 0 or wanted not in p.stderr or open(gym_file, "rb").read() != before:
                failures.append(f"{name}: not refused as it should be ({p.returncode}): {p.stderr.strip()}")
        open(os.path.join(work, "declined.ics"), "wb").write(answer("DECLINED"))
        p = run(horari, ["import", "declined.ics", "--into", "gym.ics"] + now + out, work, ok=False)
        if p.returncode != 0 or "Joan Serra declined yoga@2026-12-02: the place is given up." not in p.stdout:
            failures.append(f"Joan's decline was not applied: {p.returncode} {p.stdout.strip()} {p.stderr.strip()}")
        roster = run(horari, ["book", "--member", "joan", "--list"] + cal, work).stdout
        if "2026-12-02" in roster:
            failures.append(f"Joan still holds the place he declined: {roster.strip()}")
        written()
        files = order
        everyone = {"anna@example.com", "marta@example.com", "joan@example.com", "eve@example.com", "marc@gym.example", "desk@gym.example"}
        sequences = {}
        methods = []
        for name in files:
            path = os.path.join(outbox, name)
            msg, calendar, problems = read(path)
            if calendar is not None:
                got = check_message(path, msg, calendar, problems, everyone)
                if got:
                    key, seq, method = got
                    sequences.setdefault(key, []).append((seq, method))
                    methods.append((key[0], method))
                if "knee" in "".join(str(p.get_content()) for p in msg.walk() if not p.is_multipart()):
                    problems.append("the coach's notes are in the message")
            for p in problems:
                failures.append(f"{name}: {p}")
        for key, seen in sequences.items():
            numbers = [s for s, _ in seen]
            if numbers != sorted(set(numbers)):
                failures.append(f"{key}: SEQUENCEs {numbers} do not rise message by message")
        expected = {
            ("anna@example.com", "REQUEST"): 2, ("anna@example.com", "CANCEL"): 1,
            ("marta@example.com", "REQUEST"): 5, ("marta@example.com", "CANCEL"): 3,
            # Yoga's place, then Pilates (its title typed as an encoded word).
            ("joan@example.com", "REQUEST"): 2,
        }
        for (who, method), count in expected.items():
            got = methods.count((who, method))
            if got != count:
                failures.append(f"{who}: {got} {method} messages, expected {count}")
        if any(who not in {k[0] for k in expected} for who, _ in methods):
            failures.append(f"a message to someone unexpected: {sorted(set(w for w, _ in methods))}")
        print(f"imip_check: {len(files)} messages read by email and icalendar, {len(sequences)} events, {len(failures)} failures")
        for f in failures:
            print("FAIL:", f)
        if failures:
            print("\n".join(said))
            sys.exit(1)
    finally:
        shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    main()
