import CalendarCore
import Foundation
import ICalendarKit
import Testing

/// Issue 30, 2: asked for, libical's checks run, or (the `LibICal` trait
/// off, as an iOS app builds Horari) a warning says they did not: never
/// skipped in silence. Runs in both builds (`make test`, `make test-pure`),
/// each asserting its own side.
@Suite("libical's checks asked for, with and without libical")
struct LibICalAvailabilityTests {
    static let badGeo = "BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:-//Test//EN\r\nBEGIN:VEVENT\r\nUID:geo-1\r\nDTSTAMP:20260101T000000Z\r\n"
        + "DTSTART:20260302T100000Z\r\nSUMMARY:Talk\r\nGEO:abc\r\nEND:VEVENT\r\nEND:VCALENDAR\r\n"

    @Test("asked for: libical's finding on its line where libical is built in, else one warning on line 1 that its checks did not run; the calendar read the same")
    func askedFor() throws {
        let asked = try ICalendarImporter(options: ImportOptions(checksWithLibICal: true)).importCalendar(from: Self.badGeo)
        let plain = try ICalendarImporter(options: ImportOptions(checksWithLibICal: false)).importCalendar(from: Self.badGeo)
        #expect(asked.calendar == plain.calendar)
        #expect(plain.diagnostics.isEmpty)
        #if LibICal
        #expect(ImportOptions.libicalIsAvailable && ImportOptions().checksWithLibICal)
        #expect(asked.diagnostics.map(\.code) == [.libicalError] && asked.diagnostics.first?.line == 9)
        #else
        #expect(!ImportOptions.libicalIsAvailable && !ImportOptions().checksWithLibICal)
        let said = try #require(asked.diagnostics.first)
        #expect(asked.diagnostics.count == 1 && said.code == .libicalUnavailable && said.severity == .warning && said.line == 1)
        #expect(said.message.localizedCaseInsensitiveContains("libical"))
        #endif
    }
}
