import Foundation
import Testing

/// `horari book`, `cancel` and `classes cancel|move` change one occurrence
/// in place: the records they do not touch keep their bytes, a refusal
/// leaves the file as it was, and a file in another form is changed whole.
@Suite("horari: a booking changes only its roster")
struct BookInPlaceTests {
    static let at = ["--calendar", "$WORK/gym.ics", "--now", "2026-11-10 10:00"]

    @Test("book then cancel gives back the sample byte for byte; only the new roster is written between")
    func bookThenCancel() throws {
        let runner = try CLIRunner()
        defer { runner.cleanUp() }
        let original = runner.calendarBytes
        let booked = try runner.run(["book", "--member", "quim", "--class", "yoga", "--date", "2026-11-30"] + Self.at)
        #expect(booked.status == 0, "\(booked.stderr)")
        #expect(booked.stdout == "Booked quim into Yoga, Mon 2026-11-30 18:30–19:30 (11 of 12 places left).\n")
        // The whole-file save would have moved the events before the classes
        // and stamped every class and session with --now.
        let roster = "BEGIN:X-HORARI-ROSTER\r\nX-HORARI-CLASS:yoga\r\nX-HORARI-DATE:20261130\r\nX-HORARI-BOOKED:quim\r\nEND:X-HORARI-ROSTER\r\n"
        let text = String(decoding: original, as: UTF8.self)
        let expected = text.replacingOccurrences(of: "END:VCALENDAR\r\n", with: roster + "END:VCALENDAR\r\n")
        #expect(String(decoding: runner.calendarBytes, as: UTF8.self) == expected)
        let cancelled = try runner.run(["cancel", "--member", "quim", "--class", "yoga", "--date", "2026-11-30"] + Self.at)
        #expect(cancelled.status == 0, "\(cancelled.stderr)")
        #expect(runner.calendarBytes == original)
    }

    @Test("refusals leave the file as it was", arguments: [
        (["--member", "quim", "--class", "pilates", "--date", "2026-11-26"], "Error: Reformer Pilates on 2026-11-26 is full"),
        (["--member", "nobody", "--class", "yoga", "--date", "2026-11-23"], "Error: there is no member ‘nobody’"),
        (["--member", "quim", "--class", "boxing", "--date", "2026-11-23"], "Error: there is no class ‘boxing’"),
        (["--member", "quim", "--class", "yoga", "--date", "2026-11-24"], "Error: Yoga does not meet on Tuesday 2026-11-24"),
        (["--member", "quim", "--class", "yoga", "--date", "2026-11-11"], "Error: Yoga on 2026-11-11 is cancelled"),
        (["--member", "marta", "--class", "yoga", "--date", "2026-11-23"], "Error: member ‘marta’ already has a place"),
    ])
    func refusals(_ arguments: [String], _ message: String) throws {
        let runner = try CLIRunner()
        defer { runner.cleanUp() }
        let original = runner.calendarBytes
        let refused = try runner.run(["book"] + arguments + Self.at)
        #expect(refused.status == 1)
        #expect(refused.stderr.hasPrefix(message), "\(refused.stderr)")
        #expect(runner.calendarBytes == original)
    }

    @Test("five years of rosters: the booking adds its roster and changes no other byte")
    func longHistory() throws {
        let runner = try CLIRunner()
        defer { runner.cleanUp() }
        let text = Self.gym(years: 5)
        try Data(text.utf8).write(to: runner.work.appendingPathComponent("gym.ics"))
        let booked = try runner.run(["book", "--member", "m0001", "--class", "yoga", "--date", "2026-11-23"] + Self.at)
        #expect(booked.status == 0, "\(booked.stderr)")
        let roster = "BEGIN:X-HORARI-ROSTER\r\nX-HORARI-CLASS:yoga\r\nX-HORARI-DATE:20261123\r\nX-HORARI-BOOKED:m0001\r\nEND:X-HORARI-ROSTER\r\n"
        #expect(String(decoding: runner.calendarBytes, as: UTF8.self) == text.replacingOccurrences(of: "END:VCALENDAR\r\n", with: roster + "END:VCALENDAR\r\n"))
        // A date in the middle of the history: its roster gains the member in place.
        let middle = try runner.run(["book", "--member", "m0002", "--class", "yoga", "--date", "2024-03-04", "--now", "2024-03-01 10:00", "--calendar", "$WORK/gym.ics"])
        #expect(middle.status == 0, "\(middle.stderr)")
        let after = String(decoding: runner.calendarBytes, as: UTF8.self)
        #expect(after.contains("X-HORARI-DATE:20240304\r\nX-HORARI-BOOKED:m0041\r\nX-HORARI-BOOKED:m0002\r\nEND:X-HORARI-ROSTER\r\n"))
        #expect(after.count == text.count + roster.count + "X-HORARI-BOOKED:m0002\r\n".count)
    }

    @Test("a file with bare line feeds is booked through the whole-file change")
    func otherFormWholeFile() throws {
        let runner = try CLIRunner()
        defer { runner.cleanUp() }
        let url = runner.work.appendingPathComponent("gym.ics")
        let lf = String(decoding: runner.calendarBytes, as: UTF8.self).replacingOccurrences(of: "\r\n", with: "\n")
        try Data(lf.utf8).write(to: url)
        let booked = try runner.run(["book", "--member", "quim", "--class", "yoga", "--date", "2026-11-23"] + Self.at)
        #expect(booked.status == 0, "\(booked.stderr)")
        let after = String(decoding: runner.calendarBytes, as: UTF8.self)
        #expect(after.contains("X-HORARI-BOOKED:nuria\r\nX-HORARI-BOOKED:quim\r\n"))
        // Written whole, in the exporter's form: every line ended by CRLF.
        let bytes = Array(runner.calendarBytes)
        #expect(bytes.filter { $0 == 0x0A }.count == zip(bytes, bytes.dropFirst()).filter { $0 == (0x0D, 0x0A) }.count)
    }

    /// A gym with `years` of weekly Monday yoga, each past date's roster
    /// holding one member, as `Benchmarks/make_gym.py` writes (smaller).
    static func gym(years: Int) -> String {
        var lines = ["BEGIN:VCALENDAR", "VERSION:2.0", "PRODID:-//Horari//Test gym//EN", "CALSCALE:GREGORIAN", "X-WR-TIMEZONE:Europe/Madrid", "X-HORARI-TIMEZONE:Europe/Madrid"]
        lines += ["BEGIN:VTIMEZONE", "TZID:Europe/Madrid", "BEGIN:STANDARD", "DTSTART:19701025T030000", "TZOFFSETFROM:+0200", "TZOFFSETTO:+0100",
                  "RRULE:FREQ=YEARLY;BYMONTH=10;BYDAY=-1SU", "TZNAME:CET", "END:STANDARD", "BEGIN:DAYLIGHT", "DTSTART:19700329T020000",
                  "TZOFFSETFROM:+0100", "TZOFFSETTO:+0200", "RRULE:FREQ=YEARLY;BYMONTH=3;BYDAY=-1SU", "TZNAME:CEST", "END:DAYLIGHT", "END:VTIMEZONE"]
        var day = Date(timeIntervalSince1970: 1_795_392_000 - Double(years) * 52 * 7 * 86_400)  // Mondays back from 2026-11-23
        let format = DateFormatter()
        format.dateFormat = "yyyyMMdd"
        format.timeZone = TimeZone(identifier: "UTC")
        lines += ["BEGIN:VEVENT", "UID:yoga", "DTSTAMP:20261101T080000Z", "DTSTART;TZID=Europe/Madrid:\(format.string(from: day))T183000", "DURATION:PT60M",
                  "RRULE:FREQ=WEEKLY;BYDAY=MO", "SUMMARY:Yoga", "X-HORARI-CAPACITY:12", "END:VEVENT"]
        for m in 0..<50 { lines += ["BEGIN:X-HORARI-MEMBER", String(format: "UID:m%04d", m), "X-HORARI-NAME:Member \(m)", "END:X-HORARI-MEMBER"] }
        var n = 0
        while day.timeIntervalSince1970 < 1_795_392_000 {
            lines += ["BEGIN:X-HORARI-ROSTER", "X-HORARI-CLASS:yoga", "X-HORARI-DATE:\(format.string(from: day))", String(format: "X-HORARI-BOOKED:m%04d", 3 + n % 40), "END:X-HORARI-ROSTER"]
            day += 7 * 86_400
            n += 1
        }
        return (lines + ["END:VCALENDAR"]).map { $0 + "\r\n" }.joined()
    }
}
