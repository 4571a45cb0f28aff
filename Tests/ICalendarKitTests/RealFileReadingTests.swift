import CalendarCore
import Foundation
import ICalendarKit
import Testing

/// What real producers write, read as its author meant (issue 20): each case
/// is the shape of a file in the peers' corpora (named beside it), and each
/// expectation is what recurring-ical-events, the reference expander, gives
/// for that file — `make conformance` compares the whole files.
@Suite("Real files read as their authors meant")
struct RealFileReadingTests {
    private func calendar(_ body: String...) -> String {
        "BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:-//test//EN\r\n" + body.joined(separator: "\r\n") + "\r\nEND:VCALENDAR\r\n"
    }

    private func starts(_ calendar: ICalendar, from: String = "2000-01-01T00:00:00Z", to: String = "2030-01-01T00:00:00Z") throws -> [String] {
        let f = ISO8601DateFormatter()
        let (a, b) = (try #require(f.date(from: from)), try #require(f.date(from: to)))
        return calendar.schedule().occurrences(from: a, to: b).map { $0.start.icalValue }
    }

    /// recurring-ical-events' issue_201_test_matrix.ics ends every VTODO with
    /// `END:VTOOD`. Before, the first VTODO stayed open to the end of the file
    /// and swallowed the 28 items after it (2 occurrences against the peer's 30).
    @Test("a component that cannot hold what begins next is closed there; every later item is kept")
    func misspeltEndKeepsLaterItems() throws {
        let text = calendar(
            "BEGIN:VEVENT", "DTSTART;VALUE=DATE:20000101", "DTEND;VALUE=DATE:20000102", "UID:VEVENT-DATE-DATE", "END:VEVENT",
            "BEGIN:VTODO", "DTSTART;VALUE=DATE:20000101", "DUE;VALUE=DATE:20000102", "UID:VTODO-DATE-DATE", "END:VTOOD",
            "BEGIN:VEVENT", "DTSTART:20000101T000000", "DURATION:PT10H", "UID:VEVENT-DATETIME-HOURS", "END:VEVENT",
            "BEGIN:VTODO", "DTSTART:20000101T000000", "DURATION:PT10H", "UID:VTODO-DATETIME-HOURS", "END:VTOOD",
            "BEGIN:VEVENT", "DTSTART:20000101T000000Z", "DURATION:P3D", "UID:VEVENT-UTC-DAYS", "END:VEVENT")
        let result = try ICalendarImporter().importCalendar(from: text)
        #expect(result.calendar.items.map(\.uid) == ["VEVENT-DATE-DATE", "VTODO-DATE-DATE", "VEVENT-DATETIME-HOURS", "VTODO-DATETIME-HOURS", "VEVENT-UTC-DAYS"])
        // Each lost END is said where its component began and where it was closed; the stray END:VTOOD on its line.
        let unbalanced = result.diagnostics.filter { $0.code == .unbalanced }
        #expect(unbalanced.contains { $0.line == 9 && $0.severity == .error && $0.message.contains("BEGIN:VEVENT on line 14 cannot be inside a VTODO") })
        #expect(unbalanced.contains { $0.line == 13 && $0.message.contains("END:VTOOD has no matching BEGIN") })
        #expect(unbalanced.contains { $0.line == 19 && $0.message.contains("BEGIN:VEVENT on line 24") })
        #expect(unbalanced.filter { $0.severity == .error }.count == 4)
        // A VEVENT inside an X- component is that component's business (RFC 5545 §3.6), as before.
        let nested = try ICalendarImporter().importCalendar(from: calendar(
            "BEGIN:X-WRAPPER", "BEGIN:VEVENT", "UID:inner", "DTSTART:20260101T100000Z", "END:VEVENT", "END:X-WRAPPER"))
        #expect(nested.calendar.items.isEmpty)
        #expect(nested.calendar.components.map(\.name) == ["X-WRAPPER"])
        #expect(!nested.diagnostics.contains { $0.code == .unbalanced })
    }

    /// The outline (the fast path of a booking) must read nesting as the
    /// importer does, so it refuses a file the importer repairs.
    @Test("the outline gives no outline for a file whose nesting the importer repairs")
    func outlineRefusesRepairedNesting() {
        let text = calendar("BEGIN:VTODO", "UID:a", "BEGIN:VEVENT", "UID:b", "END:VEVENT", "END:VTODO")
        #expect(ICalendarOutline(bytes: Array(text.utf8)) == nil)
        let fine = calendar("BEGIN:VTODO", "UID:a", "BEGIN:VALARM", "ACTION:DISPLAY", "TRIGGER:-PT5M", "END:VALARM", "END:VTODO")
        #expect(ICalendarOutline(bytes: Array(fine.utf8))?.components.map(\.name) == ["VTODO"])
    }

    /// recurring-ical-events' issue_128_only_first_event.ics: 7 Mondays, as the peer lists.
    @Test("COUNT=-1 beside UNTIL: the invalid COUNT is ignored and UNTIL ends the rule")
    func invalidCountBesideUntil() throws {
        let result = try ICalendarImporter().importCalendar(from: calendar(
            "BEGIN:VEVENT", "DTSTAMP:20231102T221721Z", "UID:test123", "DTSTART;VALUE=DATE:20231002", "DTEND;VALUE=DATE:20231009",
            "SUMMARY:test123", "RRULE:FREQ=WEEKLY;UNTIL=20240331;COUNT=-1;INTERVAL=4;BYDAY=MO", "END:VEVENT"))
        #expect(try starts(result.calendar) == ["20231002", "20231030", "20231127", "20231225", "20240122", "20240219", "20240318"])
        #expect(result.diagnostics.contains { $0.line == 10 && $0.message.contains("UNTIL ends the rule") })
        #expect(ICalendarExporter().export(result.calendar).contains("RRULE:FREQ=WEEKLY;UNTIL=20240331;INTERVAL=4;BYDAY=MO\r\n"))
    }

    /// The issue's own example, and Google's `UNTIL` with no `Z` under a TZID
    /// (recurring-ical-events' issue_27_t1.ics): every peer reads a date UNTIL
    /// as the start of that day, and a wall-clock one on the series' clock.
    @Test("a date UNTIL on a timed series ends at the start of that day; the export writes the RFC's form")
    func untilOnTimedSeries() throws {
        let floating = try ICalendarImporter().importCalendar(from: calendar(
            "BEGIN:VEVENT", "UID:f", "DTSTAMP:20260101T000000Z", "DTSTART:20260302T090000", "RRULE:FREQ=DAILY;UNTIL=20260305", "END:VEVENT"))
        #expect(try starts(floating.calendar) == ["20260302T090000", "20260303T090000", "20260304T090000"])
        #expect(floating.diagnostics.contains { $0.severity == .warning && $0.line == 8 && $0.message.contains("read as the start of 2026-03-05") })
        let exported = ICalendarExporter().export(floating.calendar)
        #expect(exported.contains("RRULE:FREQ=DAILY;UNTIL=20260305T000000\r\n"))

        let zoned = try ICalendarImporter().importCalendar(from: calendar(
            "BEGIN:VEVENT", "UID:z", "DTSTAMP:20260101T000000Z", "DTSTART;TZID=Europe/Berlin:20200426T140000",
            "DTEND;TZID=Europe/Berlin:20200426T143000", "RRULE:FREQ=DAILY;UNTIL=20200429T000000", "EXDATE:20200427T120000Z", "END:VEVENT"))
        #expect(try starts(zoned.calendar) == ["20200426T140000", "20200428T140000"])
        #expect(zoned.diagnostics.contains { $0.severity == .warning && $0.message.contains("read on Europe/Berlin's clock") })
        // 2020-04-29 00:00 in Berlin (CEST) is 2020-04-28 22:00 UTC.
        let again = ICalendarExporter().export(zoned.calendar)
        #expect(again.contains("RRULE:FREQ=DAILY;UNTIL=20200428T220000Z\r\n"))
        let reread = try ICalendarImporter().importCalendar(from: again)
        #expect(try starts(reread.calendar) == ["20200426T140000", "20200428T140000"])
        #expect(!reread.diagnostics.contains { $0.severity != .note })
        // Held in the RFC's form once the import is done: the item validates,
        // equals its own export read back, and a second import changes nothing.
        let item = try #require(zoned.calendar.items.first)
        #expect(item.recurrenceRules.first?.until == .utc(try LocalDateTime(year: 2020, month: 4, day: 28, hour: 22)))
        try item.recurrenceSet?.validate()
        #expect(reread.calendar.items == zoned.calendar.items)
        var merged = zoned.calendar
        #expect(merged.merge(reread.calendar).unchanged == ["z"])
        try #require(floating.calendar.items.first).recurrenceSet?.validate()
    }

    /// A changed instance older than its series names its instance by wall
    /// time, without a TZID, on a zoned series: still its instance (the
    /// series has it), so it is not superseded.
    @Test("a floating RECURRENCE-ID on a zoned series is its instance, whatever the SEQUENCEs")
    func floatingRecurrenceIDOnZonedSeries() throws {
        let result = try ICalendarImporter().importCalendar(from: calendar(
            "BEGIN:VEVENT", "UID:x", "DTSTAMP:20240101T000000Z", "SEQUENCE:2", "DTSTART;TZID=Europe/Berlin:20240101T100000", "RRULE:FREQ=DAILY;COUNT=5", "END:VEVENT",
            "BEGIN:VEVENT", "UID:x", "DTSTAMP:20240101T000000Z", "SEQUENCE:0", "RECURRENCE-ID:20240102T100000", "DTSTART;TZID=Europe/Berlin:20240102T120000", "END:VEVENT"))
        #expect(result.calendar.items.first?.overrides.count == 1)
        #expect(result.calendar.rejected.isEmpty)
        #expect(try starts(result.calendar).contains("20240102T120000"))
    }

    /// RFC 5545 §3.8.5.2's own example, on an event of an hour: each period
    /// gives its instance its own end (before, every instance took the hour).
    @Test("RDATE;VALUE=PERIOD: each instance ends where its period does, and the export writes the periods back")
    func rdatePeriods() throws {
        let text = calendar(
            "BEGIN:VEVENT", "UID:p", "DTSTAMP:19960401T000000Z", "DTSTART:19960402T010000Z", "DTEND:19960402T020000Z",
            "RDATE;VALUE=PERIOD:19960403T020000Z/19960403T040000Z,19960404T010000Z/PT3H", "SUMMARY:Periods", "END:VEVENT")
        let result = try ICalendarImporter().importCalendar(from: text)
        #expect(result.diagnostics.isEmpty)
        let item = try #require(result.calendar.items.first)
        #expect(item.recurrenceDates.count == 2)
        #expect(item.recurrenceDateEnds.count == 2)
        let f = ISO8601DateFormatter()
        let occurrences = result.calendar.schedule().occurrences(from: try #require(f.date(from: "1996-04-01T00:00:00Z")), to: try #require(f.date(from: "1996-04-10T00:00:00Z")))
        #expect(occurrences.map { "\($0.start.icalValue)/\($0.end.icalValue)" } == [
            "19960402T010000Z/19960402T020000Z", "19960403T020000Z/19960403T040000Z", "19960404T010000Z/19960404T040000Z",
        ])
        // A window that starts inside the long last period still finds it.
        let late = result.calendar.schedule().occurrences(from: try #require(f.date(from: "1996-04-04T03:30:00Z")), to: try #require(f.date(from: "1996-04-05T00:00:00Z")))
        #expect(late.map(\.start.icalValue) == ["19960404T010000Z"])
        let exported = ICalendarExporter().export(result.calendar)
        #expect(exported.contains("RDATE;VALUE=PERIOD:19960403T020000Z/19960403T040000Z\r\n"))
        #expect(exported.contains("RDATE;VALUE=PERIOD:19960404T010000Z/PT3H\r\n"))
        let reread = try ICalendarImporter().importCalendar(from: exported)
        #expect(reread.calendar.items == result.calendar.items)
        #expect(ICalendarExporter().export(reread.calendar) == exported)
        // In a zone, the TZID applies to both ends (icalendar's period_with_timezone.ics).
        let zoned = try ICalendarImporter().importCalendar(from: calendar(
            "BEGIN:VEVENT", "UID:v", "DTSTAMP:20230901T000000Z", "DTSTART;TZID=America/Vancouver:20230920T120000",
            "DTEND;TZID=America/Vancouver:20230920T140000", "RDATE;VALUE=PERIOD;TZID=America/Vancouver:20231213T120000/20231213T150000", "END:VEVENT"))
        let december = zoned.calendar.schedule().occurrences(from: try #require(f.date(from: "2023-12-01T00:00:00Z")), to: try #require(f.date(from: "2024-01-01T00:00:00Z")))
        #expect(december.map { $0.endSeconds - $0.startSeconds } == [3 * 3600])
        // A UTC series with a zoned period: the period still finds its instance.
        let utc = try ICalendarImporter().importCalendar(from: calendar(
            "BEGIN:VEVENT", "UID:u", "DTSTAMP:20230901T000000Z", "DTSTART:20231101T110000Z", "DURATION:PT1H",
            "RDATE;VALUE=PERIOD;TZID=Europe/Madrid:20231108T120000/PT3H", "END:VEVENT"))
        let november = utc.calendar.schedule().occurrences(from: try #require(f.date(from: "2023-11-01T00:00:00Z")), to: try #require(f.date(from: "2023-12-01T00:00:00Z")))
        #expect(november.map { $0.endSeconds - $0.startSeconds } == [3600, 3 * 3600])
        // A period that ends before it starts is said, and the instance takes the item's length.
        let inverted = try ICalendarImporter().importCalendar(from: calendar(
            "BEGIN:VEVENT", "UID:i", "DTSTAMP:20230901T000000Z", "DTSTART:20231101T110000Z", "DURATION:PT1H",
            "RDATE;VALUE=PERIOD:20231108T120000Z/20231108T110000Z", "END:VEVENT"))
        #expect(inverted.diagnostics.contains { $0.message.contains("ends before it starts") })
        #expect(inverted.calendar.items.first?.recurrenceDateEnds.isEmpty == true)
        // A THISANDFUTURE change that only retitles keeps the later period's own end.
        let future = try ICalendarImporter().importCalendar(from: calendar(
            "BEGIN:VEVENT", "UID:t", "DTSTAMP:20230901T000000Z", "DTSTART:20231101T110000Z", "DURATION:PT1H", "RRULE:FREQ=WEEKLY;COUNT=3",
            "RDATE;VALUE=PERIOD:20231103T120000Z/PT3H", "END:VEVENT",
            "BEGIN:VEVENT", "UID:t", "DTSTAMP:20230901T000000Z", "RECURRENCE-ID;RANGE=THISANDFUTURE:20231101T110000Z", "DTSTART:20231101T110000Z",
            "DURATION:PT1H", "SUMMARY:Renamed", "END:VEVENT"))
        let retitled = future.calendar.schedule().occurrences(from: try #require(f.date(from: "2023-11-01T00:00:00Z")), to: try #require(f.date(from: "2023-12-01T00:00:00Z")))
        #expect(retitled.map { $0.endSeconds - $0.startSeconds } == [3600, 3 * 3600, 3600, 3600])
        // An EXDATE may not hold a period: its start is excluded, with a warning.
        let bad = try ICalendarImporter().importCalendar(from: calendar(
            "BEGIN:VEVENT", "UID:x", "DTSTAMP:20230901T000000Z", "DTSTART:20260101T100000Z", "RRULE:FREQ=DAILY;COUNT=3",
            "EXDATE;VALUE=PERIOD:20260102T100000Z/PT1H", "END:VEVENT"))
        #expect(try starts(bad.calendar) == ["20260101T100000Z", "20260103T100000Z"])
        #expect(bad.diagnostics.contains { $0.message.contains("EXDATE cannot hold a period") })
    }

    @Test("an RDATE period is validated: two date-times of one kind, the end after the start")
    func periodValidation() throws {
        let start = CalendarTime.utc(try LocalDateTime(year: 2026, month: 1, day: 1, hour: 10))
        var item = CalendarItem(uid: "p", title: "Periods", start: start, end: .duration(.init(seconds: 3600)))
        let extra = CalendarTime.utc(try LocalDateTime(year: 2026, month: 1, day: 5, hour: 10))
        item.recurrenceDates = [extra]
        item.recurrenceDateEnds = [.init(start: extra, end: .at(.utc(try LocalDateTime(year: 2026, month: 1, day: 5, hour: 12))))]
        try item.validate()
        item.recurrenceDateEnds = [.init(start: extra, end: .at(.utc(try LocalDateTime(year: 2026, month: 1, day: 5, hour: 9))))]
        #expect(throws: CalendarItemError.self) { try item.validate() }
        item.recurrenceDateEnds = [.init(start: extra, end: .at(.zoned(try LocalDateTime(year: 2026, month: 1, day: 5, hour: 12), "Europe/Madrid")))]
        #expect(throws: CalendarItemError.self) { try item.validate() }
    }

    /// recurring-ical-events' issue_28 (Exchange 2010): `TZID:GMT Standard Time`
    /// with Exchange's rule from 1601. The export names Europe/London.
    @Test("a Windows-named VTIMEZONE that is its IANA zone where it is used is read and exported as that zone")
    func windowsZoneNamedByIANA() throws {
        let exchange = [
            "BEGIN:VTIMEZONE", "TZID:GMT Standard Time",
            "BEGIN:STANDARD", "DTSTART:16010101T020000", "TZOFFSETFROM:+0100", "TZOFFSETTO:+0000", "RRULE:FREQ=YEARLY;INTERVAL=1;BYDAY=-1SU;BYMONTH=10", "END:STANDARD",
            "BEGIN:DAYLIGHT", "DTSTART:16010101T010000", "TZOFFSETFROM:+0000", "TZOFFSETTO:+0100", "RRULE:FREQ=YEARLY;INTERVAL=1;BYDAY=-1SU;BYMONTH=3", "END:DAYLIGHT",
            "END:VTIMEZONE",
        ]
        let event = ["BEGIN:VEVENT", "UID:e", "DTSTAMP:20200525T073743Z", "DTSTART;TZID=GMT Standard Time:20200416T093000",
                     "DTEND;TZID=GMT Standard Time:20200416T103000", "SUMMARY:Bins", "END:VEVENT"]
        let result = try ICalendarImporter().importCalendar(from: calendar((exchange + event).joined(separator: "\r\n")))
        #expect(result.calendar.items.first?.start == .zoned(try LocalDateTime(year: 2020, month: 4, day: 16, hour: 9, minute: 30), "Europe/London"))
        let exported = ICalendarExporter().export(result.calendar)
        #expect(exported.contains("TZID:Europe/London\r\n"))
        #expect(!exported.contains("GMT Standard Time"))
        #expect(exported.contains("TZNAME:BST\r\n"))
        // A definition that is not the IANA zone where it is used is the file's own (RFC 5545 §3.2.19).
        let custom = exchange.map { $0 == "TZOFFSETTO:+0100" ? "TZOFFSETTO:+0200" : $0 == "TZOFFSETFROM:+0100" ? "TZOFFSETFROM:+0200" : $0 }
        let own = try ICalendarImporter().importCalendar(from: calendar((custom + event).joined(separator: "\r\n")))
        #expect(own.calendar.items.first?.start.zoneIdentifier == "GMT Standard Time")
        #expect(ICalendarExporter().export(own.calendar).contains("TZID:GMT Standard Time\r\n"))
    }

    @Test("a Windows-named zone that text kept as written names keeps its definition")
    func windowsZoneNamedByKeptText() throws {
        let exchange = [
            "BEGIN:VTIMEZONE", "TZID:GMT Standard Time",
            "BEGIN:STANDARD", "DTSTART:16010101T020000", "TZOFFSETFROM:+0100", "TZOFFSETTO:+0000", "RRULE:FREQ=YEARLY;BYDAY=-1SU;BYMONTH=10", "END:STANDARD",
            "BEGIN:DAYLIGHT", "DTSTART:16010101T010000", "TZOFFSETFROM:+0000", "TZOFFSETTO:+0100", "RRULE:FREQ=YEARLY;BYDAY=-1SU;BYMONTH=3", "END:DAYLIGHT",
            "END:VTIMEZONE",
            "BEGIN:VEVENT", "UID:e", "DTSTAMP:20200525T073743Z", "DTSTART;TZID=GMT Standard Time:20200416T093000", "END:VEVENT",
            "BEGIN:VJOURNAL", "UID:j", "DTSTAMP:20200525T073743Z", "DTSTART;TZID=GMT Standard Time:20200416T093000", "SUMMARY:Notes", "END:VJOURNAL",
        ]
        let result = try ICalendarImporter().importCalendar(from: calendar(exchange.joined(separator: "\r\n")))
        let exported = ICalendarExporter().export(result.calendar)
        #expect(exported.contains("TZID:GMT Standard Time\r\n"), "the journal still names it, so its definition stays")
    }

    /// recurring-ical-events' issue_27_t1.ics holds `X-LIC-ERROR` lines an
    /// earlier libical wrote; they were reported as problems of this file.
    @Test("a file's own X-LIC-ERROR lines are kept, not reported as libical's findings")
    func savedLibICalReports() throws {
        let result = try ICalendarImporter().importCalendar(from: calendar(
            "BEGIN:VEVENT", "UID:e", "DTSTAMP:20200423T174240Z", "DTSTART:20200426T140000Z", "SUMMARY:Reoccur",
            "X-LIC-ERROR;X-LIC-ERRORTYPE=VALUE-PARSE-ERROR:No value for DESCRIPTION ", " property. Removing entire property:", "END:VEVENT"))
        #expect(result.diagnostics.isEmpty)
        #expect(result.calendar.items.first?.properties.contains { $0.name == "X-LIC-ERROR" } == true)
    }

    /// Google writes `CREATED:00001231T000000Z` (recurring-ical-events'
    /// benchmark/issue42.ics); instances without their series are what an
    /// invitation to one instance holds (RFC 6638). Both valid: notes.
    @Test("valid input worth knowing about is a note, which strict mode lets pass")
    func notes() throws {
        let text = calendar(
            "BEGIN:VEVENT", "UID:g", "DTSTAMP:20200815T192255Z", "DTSTART:20110907T170000Z", "CREATED:00001231T000000Z", "END:VEVENT",
            "BEGIN:VEVENT", "UID:i", "DTSTAMP:20200815T192255Z", "RECURRENCE-ID:20240108T140000Z", "DTSTART:20240108T150000Z", "END:VEVENT")
        let result = try ICalendarImporter(options: ImportOptions(strict: true)).importCalendar(from: text)
        #expect(result.diagnostics.map(\.severity) == [.note, .note])
        #expect(result.diagnostics.map(\.code) == [.invalidValue, .orphanOverride])
        #expect(ICalendarExporter().export(result.calendar).contains("CREATED:00001231T000000Z\r\n"))
        #expect(ICalendarDiagnostic.Severity.note < .warning && ICalendarDiagnostic.Severity.warning < .error)
        // In an iTIP message one instance alone is the usual form (RFC 5546 §3.2): no note.
        let itip = try ICalendarImporter().importCalendar(from: text.replacingOccurrences(of: "PRODID:-//test//EN", with: "PRODID:-//test//EN\r\nMETHOD:REPLY"))
        #expect(itip.diagnostics.map(\.code) == [.invalidValue] && itip.calendar.items.count == 2)
    }
}
