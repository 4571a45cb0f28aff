import CalendarCore
import Foundation
import ICalendarKit
import Testing
import _CalendarTestFixtures
import _HorariFuzzing

/// Every input a fuzzer ever broke (Tests/Fixtures/fuzz/TARGET/, one file each,
/// named for what it broke) and the broken-file corpus, through the same
/// checks the fuzzers run (`Fuzz/Targets/FuzzTarget.swift`): no crash, and
/// every property holds — for the importer, export → import → export is
/// byte-identical.
@Suite("Fuzz findings stay fixed")
struct FuzzRegressionTests {
    static func inputs(_ target: FuzzTarget) -> [(String, [UInt8])] {
        guard let folder = try? Fixture.url("fuzz/\(target.rawValue)"),
              let names = try? FileManager.default.contentsOfDirectory(atPath: folder.path) else { return [] }
        return names.sorted().compactMap { name in
            FileManager.default.contents(atPath: folder.appendingPathComponent(name).path).map { (name, [UInt8]($0)) }
        }
    }

    @Test("each input a fuzzer broke now passes every check", arguments: FuzzTarget.allCases)
    func findings(_ target: FuzzTarget) {
        let inputs = Self.inputs(target)
        #expect(!inputs.isEmpty, "Tests/Fixtures/fuzz/\(target.rawValue) holds the target's findings and seeds")
        for (name, bytes) in inputs {
            let broken = target.check(bytes)
            #expect(broken.isEmpty, "\(name): \(broken.joined(separator: "\n"))")
        }
    }

    @Test("the broken-file corpus passes the importer's fuzz checks")
    func brokenCorpus() throws {
        for (name, bytes) in try BrokenICalendar.corpus() {
            let broken = FuzzTarget.icalendarImport.check(bytes)
            #expect(broken.isEmpty, "\(name): \(broken.joined(separator: "\n"))")
        }
    }

    @Test("control characters are removed from a line and reported with its number; the tab stays")
    func controlCharacters() throws {
        let text = "BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:x\r\nBEGIN:VEVENT\r\nUID:c\r\nDTSTAMP:20260101T000000Z\r\n"
            + "DTSTART:20260101T090000Z\r\nSUMMARY:Yo\u{01}ga \r\n c\rlass\u{7F}\tB\r\nEND:VEVENT\r\nEND:VCALENDAR\r\n"
        let result = try ICalendarImporter().importCalendar(from: text)
        #expect(result.calendar.items.first?.title == "Yoga class\tB")
        let d = try #require(result.diagnostics.first)
        #expect(result.diagnostics.count == 1)
        #expect(d.line == 8)
        #expect(d.message.hasPrefix("3 control characters were removed"))
    }

    @Test("a BEGIN or END that names no component, or has parameters, is reported and never written back")
    func malformedBoundaries() throws {
        let text = "BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:x\r\nBEGIN:VEVENT\r\nUID:b\r\nDTSTAMP:20260101T000000Z\r\n"
            + "DTSTART:20260101T090000Z\r\nEND:\r\nBEGIN;X-A=1:VALARM\r\nSUMMARY:kept\r\nEND:VEVENT\r\nEND:VCALENDAR\r\n"
        let result = try ICalendarImporter().importCalendar(from: text)
        #expect(result.diagnostics.map(\.line) == [8, 9])
        #expect(result.diagnostics.allSatisfy { $0.code == .malformedLine && $0.severity == .error })
        #expect(result.calendar.items.map(\.title) == ["kept"])
        let exported = ICalendarExporter().export(result.calendar)
        #expect(!exported.contains("END:\r\n") && !exported.contains("BEGIN;"))
    }

    @Test("a STATUS holding an escaped line break is written back escaped, and reads back the same")
    func escapedStatus() throws {
        let text = "BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:x\r\nBEGIN:VEVENT\r\nUID:s\r\nDTSTAMP:20260101T000000Z\r\n"
            + "DTSTART:20260101T090000Z\r\nSTATUS:CONFIRMED\\n\\nhttps://example.org\\, really\r\nEND:VEVENT\r\nEND:VCALENDAR\r\n"
        #expect(FuzzTarget.icalendarImport.check(Array(text.utf8)).isEmpty)
        let result = try ICalendarImporter().importCalendar(from: text)
        #expect(result.calendar.items.first?.status == .other("CONFIRMED\n\nhttps://example.org, really"))
        #expect(ICalendarExporter().export(result.calendar).contains("STATUS:CONFIRMED\\n\\nhttps://example.org\\, really\r\n"))
    }

    @Test("a calendar scale other than GREGORIAN is reported, kept once and written back once")
    func calendarScale() throws {
        let text = "BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:x\r\nCALSCALE:HEBREW\r\nEND:VCALENDAR\r\n"
        let result = try ICalendarImporter().importCalendar(from: text)
        #expect(result.diagnostics.map(\.line) == [4])
        let exported = ICalendarExporter().export(result.calendar)
        #expect(exported.components(separatedBy: "CALSCALE").count == 2)
        #expect(exported.contains("CALSCALE:HEBREW\r\n"))
    }
}
