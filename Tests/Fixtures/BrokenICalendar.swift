import Foundation
import _CalendarTestSupport

/// A corpus of broken iCalendar inputs, made in code: every one must give
/// diagnostics or a typed error, never a crash or a hang
/// (ICalendarKitTests), and must pass the importer's fuzz checks
/// (IntegrationTests).
///
/// Not API.
public enum BrokenICalendar {
    /// `body` inside a `VCALENDAR` with its `VERSION` and `PRODID`.
    ///
    /// - Parameter body: the components, with their CRLF line ends.
    public static func wrap(_ body: String) -> String {
        "BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:x\r\n" + body + "END:VCALENDAR\r\n"
    }

    /// A `VEVENT` of the lines given.
    ///
    /// - Parameter lines: the content lines, without line ends.
    public static func event(_ lines: String...) -> String {
        "BEGIN:VEVENT\r\n" + lines.map { $0 + "\r\n" }.joined() + "END:VEVENT\r\n"
    }

    /// The broken inputs, by name: the sample gym calendar cut short at 20
    /// points, random bytes, and inputs that each break one rule.
    public static func corpus() throws -> [(String, [UInt8])] {
        var cases: [(String, [UInt8])] = []
        func add(_ name: String, _ text: String) { cases.append((name, Array(text.utf8))) }
        let sample = try Fixture.text("ics/gym.ics")
        let bytes = Array(sample.utf8)
        // Truncated at 20 points.
        for k in 1...20 { cases.append(("truncated-\(k)", Array(bytes.prefix(bytes.count * k / 21)))) }
        // Binary garbage, and garbage after a valid start.
        var rng = SplitMix64(seed: 7)
        for k in 0..<5 { cases.append(("garbage-\(k)", (0..<4096).map { _ in UInt8.random(in: 0...255, using: &rng) })) }
        for k in 0..<3 { cases.append(("garbage-inside-\(k)", Array(wrap("").utf8.prefix(40)) + (0..<2048).map { _ in UInt8.random(in: 0...255, using: &rng) })) }
        add("empty", "")
        add("not-ical", "Hello, this is an e-mail, not a calendar.\n")
        add("json", "{\"BEGIN\": \"VCALENDAR\"}")
        cases.append(("invalid-utf8", Array(wrap(event("UID:u", "DTSTAMP:20260101T000000Z", "DTSTART:20260101T090000Z")).utf8).map { $0 } + [0xFF, 0xFE]))
        cases.append(("invalid-utf8-summary", Array(wrap("").utf8.prefix(40)) + Array("BEGIN:VEVENT\r\nUID:u\r\nDTSTART:20260101T090000Z\r\nSUMMARY:".utf8) + [0xC3, 0x28, 0xA0, 0xA1] + Array("\r\nEND:VEVENT\r\nEND:VCALENDAR\r\n".utf8)))
        add("unbalanced-end", wrap(event("UID:u", "DTSTART:20260101T090000Z") + "END:VTODO\r\nEND:VEVENT\r\n"))
        add("unbalanced-begin", wrap("BEGIN:VEVENT\r\nUID:u\r\nDTSTART:20260101T090000Z\r\nBEGIN:VALARM\r\nTRIGGER:-PT5M\r\nEND:VEVENT\r\n"))
        add("end-without-begin", "END:VEVENT\r\n" + wrap(""))
        add("no-end-vcalendar", "BEGIN:VCALENDAR\r\nVERSION:2.0\r\n" + event("UID:u", "DTSTART:20260101T090000Z"))
        add("mismatched-names", wrap("BEGIN:VEVENT\r\nUID:u\r\nDTSTART:20260101T090000Z\r\nEND:VTODO\r\n"))
        add("ten-megabyte-line", wrap(event("UID:u", "DTSTART:20260101T090000Z", "DESCRIPTION:" + String(repeating: "x", count: 10 << 20))))
        add("deep-nesting", wrap(String(repeating: "BEGIN:X-A\r\n", count: 5000) + String(repeating: "END:X-A\r\n", count: 5000)))
        add("deep-nesting-unclosed", wrap(String(repeating: "BEGIN:VEVENT\r\n", count: 20_000)))
        add("dtend-before-dtstart", wrap(event("UID:u", "DTSTAMP:20260101T000000Z", "DTSTART:20260301T100000Z", "DTEND:20260301T090000Z")))
        add("never-ending-rule", wrap(event("UID:u", "DTSTART:20260101T000000Z", "RRULE:FREQ=SECONDLY")))
        add("rule-with-no-instance", wrap(event("UID:u", "DTSTART:20260101T000000", "RRULE:FREQ=YEARLY;BYMONTH=2;BYMONTHDAY=30")))
        add("huge-count", wrap(event("UID:u", "DTSTART:20260101T000000Z", "RRULE:FREQ=MINUTELY;COUNT=2000000000")))
        add("huge-interval", wrap(event("UID:u", "DTSTART:20260101T000000Z", "RRULE:FREQ=DAILY;INTERVAL=999999999")))
        add("negative-byweekno", wrap(event("UID:u", "DTSTART:20260101", "RRULE:FREQ=YEARLY;BYWEEKNO=-1")))
        add("empty-rrule", wrap(event("UID:u", "DTSTART:20260101T000000Z", "RRULE:")))
        add("bad-freq", wrap(event("UID:u", "DTSTART:20260101T000000Z", "RRULE:FREQ=FORTNIGHTLY")))
        add("impossible-date", wrap(event("UID:u", "DTSTART:20260230T100000Z")))
        add("year-zero", wrap(event("UID:u", "DTSTART:00000101T000000Z")))
        add("huge-duration", wrap(event("UID:u", "DTSTART:20260101T000000Z", "DURATION:P99999999W")))
        add("negative-duration", wrap(event("UID:u", "DTSTART:20260101T000000Z", "DURATION:-PT1H")))
        add("garbled-duration", wrap(event("UID:u", "DTSTART:20260101T000000Z", "DURATION:PXYZ")))
        add("unknown-tzid", wrap(event("UID:u", "DTSTART;TZID=Mars/Olympus_Mons:20260101T100000")))
        add("tzid-on-utc", wrap(event("UID:u", "DTSTART;TZID=Europe/Madrid:20260101T100000Z")))
        add("vtimezone-garbage", wrap("BEGIN:VTIMEZONE\r\nTZID:Bad\r\nBEGIN:STANDARD\r\nTZOFFSETFROM:+99\r\nEND:STANDARD\r\nEND:VTIMEZONE\r\n" + event("UID:u", "DTSTART;TZID=Bad:20260101T100000")))
        add("vtimezone-weekly-observance", wrap("BEGIN:VTIMEZONE\r\nTZID:Spin\r\nBEGIN:STANDARD\r\nDTSTART:19000101T000000\r\nRRULE:FREQ=SECONDLY\r\nTZOFFSETFROM:+0100\r\nTZOFFSETTO:+0200\r\nEND:STANDARD\r\nEND:VTIMEZONE\r\n" + event("UID:u", "DTSTART;TZID=Spin:20260101T100000")))
        add("no-colon", wrap(event("UID:u", "DTSTART:20260101T000000Z", "SUMMARY missing colon")))
        add("bad-parameter", wrap(event("UID:u", "DTSTART;TZID:20260101T000000Z")))
        add("unterminated-quote", wrap(event("UID:u", "DTSTART:20260101T000000Z", "ATTENDEE;CN=\"Anna:mailto:a@b")))
        add("bad-property-name", wrap(event("UID:u", "DTSTART:20260101T000000Z", "MY PROP:1")))
        add("duplicate-uid", wrap(event("UID:same", "DTSTART:20260101T000000Z") + event("UID:same", "DTSTART:20260102T000000Z")))
        add("duplicate-override", wrap(event("UID:s", "DTSTART:20260101T000000Z", "RRULE:FREQ=DAILY;COUNT=3") + event("UID:s", "RECURRENCE-ID:20260102T000000Z", "DTSTART:20260102T050000Z") + event("UID:s", "RECURRENCE-ID:20260102T000000Z", "DTSTART:20260102T060000Z", "SEQUENCE:2")))
        add("no-dtstart", wrap(event("UID:u", "SUMMARY:When?")))
        add("both-dtend-and-duration", wrap(event("UID:u", "DTSTART:20260101T000000Z", "DTEND:20260101T010000Z", "DURATION:PT2H")))
        add("mixed-date-kinds", wrap(event("UID:u", "DTSTART;VALUE=DATE:20260101", "DTEND:20260102T100000Z")))
        // Bare-CR line ends are read as lines (issue 28: classic Mac OS files);
        // what is broken here is an event with no UID and no END, found on its lines.
        add("lone-cr-lines", "BEGIN:VCALENDAR\rVERSION:2.0\rBEGIN:VEVENT\rDTSTART:20260101T000000Z\rEND:VCALENDAR\r")
        add("nul-bytes", wrap(event("UID:u\u{0}x", "DTSTART:20260101T000000Z")))
        add("only-begin", "BEGIN:VCALENDAR")
        add("bare-vevent", event("UID:u", "DTSTART:20260101T000000Z"))
        add("rscale", wrap(event("UID:u", "DTSTART;VALUE=DATE:20260101", "RRULE:RSCALE=HEBREW;FREQ=YEARLY")))
        add("exdate-garbage", wrap(event("UID:u", "DTSTART:20260101T000000Z", "RRULE:FREQ=DAILY;COUNT=3", "EXDATE:yesterday,20260102T000000Z")))
        add("folded-into-nothing", wrap(" continuation with no line\r\n" + event("UID:u", "DTSTART:20260101T000000Z")))
        add("many-components", wrap(String(repeating: event("UID:dup", "DTSTART:20260101T000000Z"), count: 2000)))
        return cases
    }
}
