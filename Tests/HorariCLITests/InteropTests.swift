import Foundation
import Testing

/// What `horari` does with files other programs wrote (issue 20), run as a
/// user runs it.
@Suite("horari keeps what other calendars wrote")
struct InteropTests {
    /// A khal test file's floating event (no X-WR-TIMEZONE) and a journal:
    /// importing into a new calendar used to write the system's zone as
    /// X-WR-TIMEZONE, which Google, x-wr-timezone and horari itself read
    /// floating times in, so the event moved for them; and the journal was lost.
    @Test("import --into a new calendar keeps floating times floating and every other component")
    func importIntoNewCalendar() throws {
        let runner = try CLIRunner()
        defer { runner.cleanUp() }
        let file = """
            BEGIN:VCALENDAR\r
            VERSION:2.0\r
            PRODID:-//PIMUTILS.ORG//NONSGML khal / icalendar //EN\r
            BEGIN:VEVENT\r
            SUMMARY:An Event\r
            DTSTART:20140409T093000\r
            DTEND:20140409T103000\r
            DTSTAMP:20140401T234817Z\r
            UID:floating1234567890\r
            END:VEVENT\r
            BEGIN:VJOURNAL\r
            UID:journal-1\r
            DTSTAMP:20140401T234817Z\r
            SUMMARY:Notes\r
            END:VJOURNAL\r
            END:VCALENDAR\r

            """
        try Data(file.utf8).write(to: runner.work.appendingPathComponent("khal.ics"))
        let imported = try runner.run(["import", "$WORK/khal.ics", "--into", "$WORK/new.ics"], environment: ["TZ": "Asia/Tokyo"])
        #expect(imported.status == 0, "\(imported.stderr)")
        #expect(imported.stdout.contains("kept 1 other component as written: 1 VJOURNAL"))
        let exported = try runner.run(["export", "$WORK/new.ics"])
        #expect(exported.stdout.contains("X-HORARI-TIMEZONE:Asia/Tokyo\r\n"), "the new calendar's clock")
        #expect(!exported.stdout.contains("X-WR-TIMEZONE"), "no zone the file did not have")
        #expect(exported.stdout.contains("DTSTART:20140409T093000\r\n"))
        #expect(exported.stdout.contains("BEGIN:VJOURNAL\r\n"))
        // The views show the calendar's clock (Tokyo), and the floating 09:30 stays 09:30.
        let list = try runner.run(["list", "--calendar", "$WORK/new.ics", "--from", "2014-04-01"])
        #expect(list.stdout.contains("09:30"), "\(list.stdout)")
        // A file with its own X-WR-TIMEZONE keeps it, and nothing else is added.
        let google = file.replacingOccurrences(of: "VERSION:2.0\r\n", with: "VERSION:2.0\r\nX-WR-TIMEZONE:Europe/Madrid\r\n")
        try Data(google.utf8).write(to: runner.work.appendingPathComponent("google.ics"))
        #expect(try runner.run(["import", "$WORK/google.ics", "--into", "$WORK/madrid.ics"], environment: ["TZ": "Asia/Tokyo"]).status == 0)
        let madrid = try runner.run(["export", "$WORK/madrid.ics"]).stdout
        #expect(madrid.contains("X-WR-TIMEZONE:Europe/Madrid\r\n") && !madrid.contains("X-HORARI-TIMEZONE"))
    }

    /// The issue's example: every peer reads the date UNTIL as the start of that day.
    @Test("expand reads a date UNTIL on a timed start as the peers do, with a warning")
    func expandDateUntil() throws {
        let runner = try CLIRunner()
        defer { runner.cleanUp() }
        let out = try runner.run(["expand", "--rrule", "FREQ=DAILY;UNTIL=20260305", "--dtstart", "20260302T090000"])
        #expect(out.status == 0)
        #expect(out.stdout == "20260302T090000\n20260303T090000\n20260304T090000\n")
        #expect(out.stderr.hasPrefix("warning: UNTIL=20260305 is a date but DTSTART has a time; read as the start of 2026-03-05"))
        let json = try runner.run(["expand", "--jsonl"], stdin: #"{"rrule":"FREQ=DAILY;UNTIL=20260305","dtstart":"20260302T090000","tzid":"Europe/Madrid"}"# + "\n")
        #expect(json.stdout.contains(#""occurrences":["20260302T090000","20260303T090000","20260304T090000"]"#))
        #expect(json.stdout.contains(#""warnings":["#))
        // The rest of the rule is still checked.
        let bad = try runner.run(["expand", "--rrule", "FREQ=DAILY;UNTIL=20260305;BYHOUR=25", "--dtstart", "20260302T090000"])
        #expect(bad.status == 1)
    }

    /// A file exported by Exchange names its zone `GMT Standard Time`; the
    /// export names the IANA zone, and validates strictly.
    @Test("validate --strict passes on our export of an Exchange file, whose zone it names by IANA")
    func exchangeExportValidates() throws {
        let runner = try CLIRunner()
        defer { runner.cleanUp() }
        let exchange = """
            BEGIN:VCALENDAR\r
            METHOD:PUBLISH\r
            PRODID:Microsoft Exchange Server 2010\r
            VERSION:2.0\r
            BEGIN:VTIMEZONE\r
            TZID:GMT Standard Time\r
            BEGIN:STANDARD\r
            DTSTART:16010101T020000\r
            TZOFFSETFROM:+0100\r
            TZOFFSETTO:+0000\r
            RRULE:FREQ=YEARLY;INTERVAL=1;BYDAY=-1SU;BYMONTH=10\r
            END:STANDARD\r
            BEGIN:DAYLIGHT\r
            DTSTART:16010101T010000\r
            TZOFFSETFROM:+0000\r
            TZOFFSETTO:+0100\r
            RRULE:FREQ=YEARLY;INTERVAL=1;BYDAY=-1SU;BYMONTH=3\r
            END:DAYLIGHT\r
            END:VTIMEZONE\r
            BEGIN:VEVENT\r
            DESCRIPTION:\\n\r
            RRULE:FREQ=WEEKLY;UNTIL=20200916T230000Z;INTERVAL=2;BYDAY=TH;WKST=MO\r
            UID:bins\r
            SUMMARY:Refuse black bin\r
            DTSTART;VALUE=DATE:20200402\r
            DTEND;VALUE=DATE:20200403\r
            DTSTAMP:20200525T073743Z\r
            LOCATION:\r
            END:VEVENT\r
            BEGIN:VEVENT\r
            UID:bins\r
            RECURRENCE-ID;TZID=GMT Standard Time:20200416T000000\r
            SUMMARY:Refuse black bin\r
            DTSTART;VALUE=DATE:20200417\r
            DTEND;VALUE=DATE:20200418\r
            DTSTAMP:20200525T073743Z\r
            END:VEVENT\r
            END:VCALENDAR\r

            """
        try Data(exchange.utf8).write(to: runner.work.appendingPathComponent("exchange.ics"))
        let export = try runner.run(["export", "$WORK/exchange.ics", "--out", "$WORK/out.ics"])
        #expect(export.status == 0)
        let text = try CLIRunner.text(of: runner.work.appendingPathComponent("out.ics"))
        #expect(!text.contains("GMT Standard Time"))
        let strict = try runner.run(["validate", "--strict", "$WORK/out.ics"])
        #expect(strict.status == 0, "\(strict.stdout)")
    }
}

/// Issue 20: what the book would refuse, `validate` reports with its line;
/// the book's commands name the line and the way out; damage is never saved over.
@Suite("horari says where a calendar file is broken, and never saves over damage")
struct DamageTests {
    /// The sample with a hand-edited roster: yoga on 2026-11-25 books
    /// ‘ghost’; and the line its instance begins on.
    private func ghost(_ runner: CLIRunner) throws -> (URL, line: Int) {
        let url = runner.work.appendingPathComponent("gym.ics")
        var lines = try CLIRunner.text(of: url).components(separatedBy: "\r\n")
        let id = try #require(lines.firstIndex(of: "RECURRENCE-ID;TZID=Europe/Madrid:20261125T183000"))
        let end = try #require(lines[id...].firstIndex(of: "END:VEVENT"))
        lines.insert("ATTENDEE;CN=Ghost;PARTSTAT=ACCEPTED;X-HORARI-MEMBER=ghost:urn:x-horari:member:ghost", at: end)
        try Data(lines.joined(separator: "\r\n").utf8).write(to: url)
        return (url, try #require(lines[..<id].lastIndex(of: "BEGIN:VEVENT")) + 1)
    }

    @Test("validate reports a roster's unknown member with its line; the book's commands name it and the way out; --repair mends it and keeps a copy")
    func ghostMember() throws {
        let runner = try CLIRunner()
        defer { runner.cleanUp() }
        let (url, line) = try ghost(runner)
        let before = try Data(contentsOf: url)
        let validate = try runner.run(["validate", "$WORK/gym.ics"])
        #expect(validate.status == 1)
        #expect(validate.stdout.contains("\(url.path):line \(line): error: the roster of yoga on 2026-11-25 books ‘ghost’, who is not a member (--repair: the booking of ‘ghost’ is removed)"))
        #expect(validate.stdout.hasSuffix("13 items, 1 error, 0 warnings\n"))
        for command in [["book", "--member", "pol", "--class", "yoga", "--date", "2026-11-25"], ["classes", "timetable"], ["members", "add", "ghost", "--name", "Ghost"]] {
            let out = try runner.run(command + ["--calendar", "$WORK/gym.ics", "--now", "2026-11-20 10:00"])
            #expect(out.status == 1, "\(command)")
            #expect(out.stderr.contains("gym.ics:\(line): the roster of yoga on 2026-11-25 books ‘ghost’, who is not a member"), "\(command): \(out.stderr)")
            #expect(out.stderr.contains("horari validate \(url.path) --repair"), "\(command)")
        }
        #expect(try Data(contentsOf: url) == before, "a refused command leaves the file as it was")
        let repair = try runner.run(["validate", "$WORK/gym.ics", "--repair"])
        #expect(repair.status == 0)
        #expect(repair.stdout.contains("repaired 1 problem in the scheduling book; the file as it was is kept in \(url.path).before-repair"))
        #expect(try Data(contentsOf: url.appendingPathExtension("before-repair")) == before)
        #expect(try runner.run(["validate", "$WORK/gym.ics"]).status == 0)
        let booked = try runner.run(["book", "--member", "pol", "--class", "yoga", "--date", "2026-11-25", "--calendar", "$WORK/gym.ics", "--now", "2026-11-20 10:00"])
        #expect(booked.status == 0, "\(booked.stderr)")
        #expect(!(try CLIRunner.text(of: url)).contains("ghost"))
    }

    @Test("a change to a file cut short is refused and the file left byte for byte; --force makes it and keeps the file as it was")
    func truncated() throws {
        let runner = try CLIRunner()
        defer { runner.cleanUp() }
        let url = runner.work.appendingPathComponent("gym.ics")
        let cut = Data(try Data(contentsOf: url).prefix(6000))
        try cut.write(to: url)
        let add = ["add", "Lunch", "--start", "2026-11-24 14:00", "--calendar", "$WORK/gym.ics"]
        let refused = try runner.run(add)
        #expect(refused.status == 1)
        #expect(refused.stderr.contains("did not import cleanly"))
        #expect(refused.stderr.contains("nothing was changed"))
        #expect(refused.stderr.contains("--force"))
        #expect(try Data(contentsOf: url) == cut)
        let book = try runner.run(["book", "--member", "pol", "--class", "spin", "--date", "2026-11-27", "--calendar", "$WORK/gym.ics", "--now", "2026-11-20 10:00"])
        #expect(book.status == 1 && book.stderr.contains("did not import cleanly"), "\(book.stderr)")
        #expect(try Data(contentsOf: url) == cut)
        let forced = try runner.run(add + ["--force"])
        #expect(forced.status == 0, "\(forced.stderr)")
        #expect(forced.stderr == "the file as it was is kept in \(url.path).damaged\n")
        #expect(try Data(contentsOf: url.appendingPathExtension("damaged")) == cut)
        // Saved whole, the file imports cleanly: the next change needs no --force.
        #expect(try runner.run(["add", "Tea", "--start", "2026-11-24 16:00", "--calendar", "$WORK/gym.ics"]).status == 0)
    }
}
