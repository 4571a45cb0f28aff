import Foundation
import Testing

/// `horari book`, `cancel` and `classes cancel|move` change one occurrence
/// in place: the records they do not touch keep their bytes, a refusal
/// leaves the file as it was, and a file in another form is changed whole.
@Suite("horari: a booking changes only its roster")
struct BookInPlaceTests {
    static let at = ["--calendar", "$WORK/gym.ics", "--now", "2026-11-10 10:00"]

    @Test("book then cancel gives back the sample byte for byte; only the occurrence's new instance is written between")
    func bookThenCancel() throws {
        let runner = try CLIRunner()
        defer { runner.cleanUp() }
        let original = runner.calendarBytes
        let booked = try runner.run(["book", "--member", "quim", "--class", "yoga", "--date", "2026-11-30"] + Self.at)
        #expect(booked.status == 0, "\(booked.stderr)")
        #expect(booked.stdout == "Booked quim into Yoga, Mon 2026-11-30 18:30–19:30 Europe/Madrid (11 of 12 places left).\n")
        // The whole-file save would have moved the events before the classes
        // and stamped every class and session with --now: only the new
        // instance is written, after the class's last instance (the 25th).
        let instance = "BEGIN:VEVENT\r\nUID:yoga\r\nDTSTAMP:20261110T090000Z\r\nRECURRENCE-ID;TZID=Europe/Madrid:20261130T183000\r\n"
            + "DTSTART;TZID=Europe/Madrid:20261130T183000\r\nDURATION:PT1H\r\nSUMMARY:Yoga\r\nLOCATION:Sala 2\r\nCOLOR:teal\r\n"
            + "ATTENDEE;CN=Quim Puig;PARTSTAT=ACCEPTED;X-HORARI-MEMBER=quim:urn:x-horari:member:quim\r\nEND:VEVENT\r\n"
        let text = String(decoding: original, as: UTF8.self)
        let after25 = try #require(text.range(of: "RECURRENCE-ID;TZID=Europe/Madrid:20261125T183000")).upperBound
        let end25 = try #require(text.range(of: "END:VEVENT\r\n", range: after25..<text.endIndex)).upperBound
        var expected = text
        expected.insert(contentsOf: Self.folded(instance), at: end25)
        #expect(String(decoding: runner.calendarBytes, as: UTF8.self) == expected)
        let cancelled = try runner.run(["cancel", "--member", "quim", "--class", "yoga", "--date", "2026-11-30"] + Self.at)
        #expect(cancelled.status == 0, "\(cancelled.stderr)")
        #expect(runner.calendarBytes == original)
    }

    /// Text as the exporter writes it: each line over 75 octets folded (ASCII here).
    static func folded(_ text: String) -> String {
        text.components(separatedBy: "\r\n").map { line -> String in
            var rest = Substring(line), parts: [Substring] = [rest.prefix(75)]
            rest = rest.dropFirst(75)
            while !rest.isEmpty {
                parts.append(rest.prefix(74))
                rest = rest.dropFirst(74)
            }
            return parts.joined(separator: "\r\n ")
        }.joined(separator: "\r\n")
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

    @Test("five years of rosters: the booking adds its instance and changes no other byte")
    func longHistory() throws {
        let runner = try CLIRunner()
        defer { runner.cleanUp() }
        let text = Self.gym(years: 5)
        try Data(text.utf8).write(to: runner.work.appendingPathComponent("gym.ics"))
        let booked = try runner.run(["book", "--member", "m0001", "--class", "yoga", "--date", "2026-11-23"] + Self.at)
        #expect(booked.status == 0, "\(booked.stderr)")
        let instance = Self.folded("BEGIN:VEVENT\r\nUID:yoga\r\nDTSTAMP:20261110T090000Z\r\nRECURRENCE-ID;TZID=Europe/Madrid:20261123T183000\r\n"
            + "DTSTART;TZID=Europe/Madrid:20261123T183000\r\nDURATION:PT1H\r\nSUMMARY:Yoga\r\n"
            + "ATTENDEE;CN=Member 1;PARTSTAT=ACCEPTED;X-HORARI-MEMBER=m0001:urn:x-horari:member:m0001\r\nEND:VEVENT\r\n")
        // After the class's last instance, before the members' journals.
        let lastInstance = try #require(text.range(of: "END:VEVENT\r\nBEGIN:VJOURNAL", options: [])).lowerBound
        var expected = text
        expected.insert(contentsOf: instance, at: text.index(lastInstance, offsetBy: "END:VEVENT\r\n".count))
        #expect(String(decoding: runner.calendarBytes, as: UTF8.self) == expected)
        // A date in the middle of the history: its instance gains the member in place.
        let middle = try runner.run(["book", "--member", "m0002", "--class", "yoga", "--date", "2024-03-04", "--now", "2024-03-01 10:00", "--calendar", "$WORK/gym.ics"])
        #expect(middle.status == 0, "\(middle.stderr)")
        let after = String(decoding: runner.calendarBytes, as: UTF8.self)
        let m0002 = Self.folded("ATTENDEE;CN=Member 2;PARTSTAT=ACCEPTED;X-HORARI-MEMBER=m0002:urn:x-horari:member:m0002") + "\r\n"
        let changed = try #require(after.range(of: m0002))
        // The instance is written afresh, with the change's DTSTAMP (RFC 5545 §3.8.7.2): that and the line are all that changed.
        #expect(after.components(separatedBy: "DTSTAMP:20240301T090000Z").count == 2)
        #expect(after.replacingCharacters(in: changed, with: "").replacingOccurrences(of: "DTSTAMP:20240301T090000Z", with: "DTSTAMP:20261101T080000Z") == expected)
        let before = after[..<changed.lowerBound]
        #expect(before.replacingOccurrences(of: "\r\n ", with: "").hasSuffix("X-HORARI-MEMBER=m0041:urn:x-horari:member:m0041\r\n"))
        let lastID = try #require(before.range(of: "RECURRENCE-ID", options: .backwards))
        #expect(before[lastID.lowerBound...].hasPrefix("RECURRENCE-ID;TZID=Europe/Madrid:20240304T183000"))
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
        #expect(after.replacingOccurrences(of: "\r\n ", with: "").contains("X-HORARI-MEMBER=nuria:urn:x-horari:member:nuria\r\nATTENDEE;CN=Quim Puig;PARTSTAT=ACCEPTED;X-HORARI-MEMBER=quim:"))
        // Written whole, in the exporter's form: every line ended by CRLF.
        let bytes = Array(runner.calendarBytes)
        #expect(bytes.filter { $0 == 0x0A }.count == zip(bytes, bytes.dropFirst()).filter { $0 == (0x0D, 0x0A) }.count)
    }

    /// A gym with `years` of weekly Monday yoga, each past date's instance
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
        lines += ["BEGIN:VEVENT", "UID:yoga", "DTSTAMP:20261101T080000Z", "DTSTART;TZID=Europe/Madrid:\(format.string(from: day))T183000", "DURATION:PT1H",
                  "RRULE:FREQ=WEEKLY;BYDAY=MO", "SUMMARY:Yoga", "X-HORARI-CAPACITY:12", "END:VEVENT"]
        var n = 0
        while day.timeIntervalSince1970 < 1_795_392_000 {
            let date = format.string(from: day), m = String(format: "m%04d", 3 + n % 40)
            lines += ["BEGIN:VEVENT", "UID:yoga", "DTSTAMP:20261101T080000Z", "RECURRENCE-ID;TZID=Europe/Madrid:\(date)T183000", "DTSTART;TZID=Europe/Madrid:\(date)T183000",
                      "DURATION:PT1H", "SUMMARY:Yoga"]
            lines += folded("ATTENDEE;CN=Member \(3 + n % 40);PARTSTAT=ACCEPTED;X-HORARI-MEMBER=\(m):urn:x-horari:member:\(m)").components(separatedBy: "\r\n")
            lines.append("END:VEVENT")
            day += 7 * 86_400
            n += 1
        }
        for m in 0..<50 {
            let id = String(format: "m%04d", m)
            lines += ["BEGIN:VJOURNAL", "DTSTAMP:20261101T080000Z", "UID:member:\(id)", "SUMMARY:Member \(m)", "CATEGORIES:horari-member", "CLASS:PRIVATE",
                      "ATTENDEE;CN=Member \(m):urn:x-horari:member:\(id)", "END:VJOURNAL"]
        }
        return (lines + ["END:VCALENDAR"]).map { $0 + "\r\n" }.joined()
    }
}
