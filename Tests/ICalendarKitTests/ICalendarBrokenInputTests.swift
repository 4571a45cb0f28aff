import CalendarCore
import Foundation
import ICalendarKit
import Testing
import _CalendarTestFixtures

/// A corpus of broken inputs (`BrokenICalendar`): each must give diagnostics
/// or a typed error, never a crash or a hang, and memory must stay bounded by
/// the limits.
@Suite("Broken iCalendar input")
struct ICalendarBrokenInputTests {
    @Test("At least 50 broken inputs give diagnostics or a typed error, never a crash or a hang")
    func brokenCorpus() throws {
        let cases = try BrokenICalendar.corpus()
        #expect(cases.count >= 50)
        let importer = ICalendarImporter()
        // One day: a SECONDLY rule has 86,400 real occurrences in it. (A year
        // would be 31.5 million, all materialised: `Schedule.occurrences` has no
        // limit yet — noted as open work.)
        let window = (Date(timeIntervalSince1970: 1_767_225_600), Date(timeIntervalSince1970: 1_767_312_000))  // 2026-01-01
        for (name, bytes) in cases {
            do {
                let result = try importer.importCalendar(from: Data(bytes))
                #expect(!result.diagnostics.isEmpty, "\(name): a broken input imported without a word")
                for d in result.diagnostics { #expect(d.line >= 1 && !d.message.isEmpty, "\(name)") }
                // Expanding what was imported must end: the window bounds every series.
                let occurrences = result.calendar.schedule().occurrences(from: window.0, to: window.1)
                #expect(occurrences.count <= 86_400 * 2_000, "\(name)")
                // What was imported can be exported.
                _ = ICalendarExporter().export(result.calendar)
            } catch {
                #expect(!error.message.isEmpty, "\(name)")
            }
        }
    }

    @Test("A 10 MB line is cut at the configured limit and reported with its line number")
    func longLine() throws {
        let text = BrokenICalendar.wrap(BrokenICalendar.event("UID:u", "DTSTART:20260101T000000Z", "DESCRIPTION:" + String(repeating: "x", count: 10 << 20)))
        let result = try ICalendarImporter(options: ImportOptions(maxLineBytes: 64 << 10)).importCalendar(from: text)
        #expect(result.diagnostics.contains { $0.code == .lineTooLong && $0.line == 7 })
        #expect(result.calendar.items.first?.notes == nil)
    }

    @Test("Empty, binary and non-iCalendar input is a typed error")
    func notICalendar() {
        for input in ["", "hello", "\u{0}\u{1}\u{2}"] {
            #expect(throws: ICalendarError.self) { try ICalendarImporter().importCalendar(from: input) }
        }
    }
}
