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
}
