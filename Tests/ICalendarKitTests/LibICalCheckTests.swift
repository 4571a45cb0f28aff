#if LibICal
import CalendarCore
import Foundation
import Testing
import _CalendarTestFixtures
@testable import ICalendarKit

/// `ImportOptions.checksWithLibICal`: libical's reading adds findings, and
/// nothing else; without it the calendar is the same.
@Suite("libical's check on import, on and off")
struct LibICalCheckTests {
    static let badGeo = """
        BEGIN:VCALENDAR\r
        VERSION:2.0\r
        PRODID:-//Test//EN\r
        BEGIN:VEVENT\r
        UID:geo-1\r
        DTSTAMP:20260101T000000Z\r
        DTSTART:20260302T100000Z\r
        SUMMARY: Talk\r
        GEO:abc\r
        END:VEVENT\r
        END:VCALENDAR\r

        """

    @Test("On by default: libical's finding is a warning on its line")
    func onByDefault() throws {
        #expect(ImportOptions().checksWithLibICal)
        let result = try ICalendarImporter().importCalendar(from: Self.badGeo)
        #expect(result.diagnostics.count == 1)
        let d = try #require(result.diagnostics.first)
        #expect(d.code == .libicalError)
        #expect(d.severity == .warning)
        #expect(d.line == 9)
        #expect(d.message.contains("GEO"))
        // The value is ours, not libical's (which would trim the space) and the line is kept.
        #expect(result.calendar.items.first?.title == " Talk")
        #expect(result.calendar.items.first?.properties.map(\.text) == ["GEO:abc"])
    }

    @Test("Off: no libical finding, the same calendar")
    func off() throws {
        let on = try ICalendarImporter().importCalendar(from: Self.badGeo)
        let off = try ICalendarImporter(options: ImportOptions(checksWithLibICal: false)).importCalendar(from: Self.badGeo)
        #expect(off.diagnostics.isEmpty)
        #expect(off.calendar == on.calendar)
        #expect(ICalendarExporter().export(off.calendar) == ICalendarExporter().export(on.calendar))
    }

    @Test("Every fixture calendar and every fuzzing find reads the same with and without libical, but for libical's findings")
    func fixtures() throws {
        let ics = try Fixture.url("ics")
        let fuzz = try Fixture.url("fuzz/import")
        let files = try FileManager.default.contentsOfDirectory(atPath: ics.path).filter { $0.hasSuffix(".ics") }.map { ics.appendingPathComponent($0) }
            + FileManager.default.contentsOfDirectory(atPath: fuzz.path).map { fuzz.appendingPathComponent($0) }
        #expect(files.count >= 20)
        var findings = 0
        for url in files.sorted(by: { $0.path < $1.path }) {
            let name = url.lastPathComponent
            let on: ImportResult
            do { on = try ICalendarImporter().importCalendar(contentsOf: url) } catch { continue }  // the files that are not calendars
            let off = try ICalendarImporter(options: ImportOptions(checksWithLibICal: false)).importCalendar(contentsOf: url)
            #expect(off.calendar == on.calendar, "\(name)")
            #expect(off.diagnostics == on.diagnostics.filter { $0.code != .libicalError }, "\(name)")
            findings += on.diagnostics.count - off.diagnostics.count
        }
        // bad.ics and its kin give libical something to say.
        #expect(findings > 0)
    }

    @Test("Strict mode fails on libical's finding only when libical runs")
    func strict() throws {
        #expect(throws: ICalendarError.self) { try ICalendarImporter(options: ImportOptions(strict: true)).importCalendar(from: Self.badGeo) }
        let off = try ICalendarImporter(options: ImportOptions(strict: true, checksWithLibICal: false)).importCalendar(from: Self.badGeo)
        #expect(off.calendar.items.count == 1)
    }

    /// As Google Calendar writes an event with no place or notes (the lines
    /// as in its exports, `icalendar`'s alarm_google_future.ics among them).
    static let google = """
        BEGIN:VCALENDAR\r
        PRODID:-//Google Inc//Google Calendar 70.9054//EN\r
        VERSION:2.0\r
        BEGIN:VEVENT\r
        DTSTART:20260302T100000Z\r
        DTEND:20260302T110000Z\r
        DTSTAMP:20260101T000000Z\r
        UID:g-1@google.com\r
        CLASS:\r
        CREATED:20260101T000000Z\r
        DESCRIPTION:\r
        LAST-MODIFIED:20260101T000000Z\r
        LOCATION:\r
        SEQUENCE:0\r
        STATUS:CONFIRMED\r
        SUMMARY:Call\r
        TRANSP:OPAQUE\r
        END:VEVENT\r
        END:VCALENDAR\r

        """

    @Test("Google's empty LOCATION and DESCRIPTION are valid TEXT, kept without a word; its empty CLASS is said once and left out, so our export is clean")
    func googleEmptyValues() throws {
        let result = try ICalendarImporter().importCalendar(from: Self.google)
        #expect(result.diagnostics.map(\.line) == [9], "\(result.diagnostics)")
        #expect(result.diagnostics.first?.message.hasPrefix("CLASS has no value") == true)
        #expect(!result.diagnostics.contains { $0.message.contains("libical") || $0.message.contains("Removing") })
        let exported = ICalendarExporter().export(result.calendar)
        #expect(exported.contains("\r\nLOCATION:\r\n") && exported.contains("\r\nDESCRIPTION:\r\n") && !exported.contains("CLASS"))
        let again = try ICalendarImporter(options: ImportOptions(strict: true)).importCalendar(from: exported)
        #expect(again.diagnostics.isEmpty)
    }

    @Test("libical's reports in our words, never its own text", arguments: [
        ("No value for RRULE property. Removing entire property:", "RRULE", "RRULE has no value (RFC 5545 gives it one); it was kept as written"),
        ("No value for LOCATION property. Removing entire property:", "LOCATION", nil),
        ("Invalid VALUE type for property RDATE: VALUE=TIME", "RDATE", "RDATE;VALUE=TIME: RFC 5545 does not allow that value type for RDATE; it was kept as written"),
        ("Can't parse as DATE-TIME value in DTSTART property. Removing entire property: INVALID-DATE", "DTSTART",
         "DTSTART ‘INVALID-DATE’ is not a valid DATE-TIME value; it was kept as written"),
        ("Something new in libical 4", "GEO", "libical could not read GEO; it was kept as written"),
    ] as [(String, String, String?)])
    func translated(_ message: String, _ property: String, _ expected: String?) {
        #expect(LibICalMessage.translated(message, property: property) == expected)
    }
}
#endif
