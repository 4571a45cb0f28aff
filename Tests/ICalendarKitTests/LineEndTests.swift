import CalendarCore
import Foundation
@testable import ICalendarKit
import Testing
import _CalendarTestFixtures

/// What ends a line (RFC 5545 §3.1 says CRLF; files from Unix use LF, files
/// from classic Mac OS a bare CR), and that the importer and the outline agree.
@Suite("Line ends")
struct LineEndTests {
    static let crlf = "BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:x\r\nBEGIN:VEVENT\r\nUID:mac\r\nDTSTAMP:20260101T000000Z\r\n"
        + "DTSTART:20260101T090000Z\r\nSUMMARY:Old\r\n  Mac\r\nNOT A LINE\r\nDESCRIPTION:one\\, two\r\nEND:VEVENT\r\nEND:VCALENDAR\r\n"

    /// The same text with other line ends.
    static func ending(_ end: String) -> String { crlf.replacingOccurrences(of: "\r\n", with: end) }

    /// Issue 28, item 14: every CR was removed as a control character, so the
    /// whole file was one line (`BEGIN:VCALENDARVERSION:2.0PRODID:…`), kept
    /// as written as an unknown component, and written into the calendar it
    /// was imported into.
    @Test("a file whose lines end in a bare CR reads as the same file with CRLF: the same items, the same diagnostics on the same lines")
    func crOnly() throws {
        let reference = try ICalendarImporter().importCalendar(from: Self.crlf)
        #expect(reference.calendar.items.map(\.title) == ["Old Mac"])
        #expect(reference.diagnostics.map(\.line) == [10])
        for end in ["\r", "\n"] {
            let result = try ICalendarImporter().importCalendar(from: Self.ending(end))
            #expect(result.calendar == reference.calendar, "\(end.debugDescription)")
            #expect(result.diagnostics == reference.diagnostics, "\(end.debugDescription): \(result.diagnostics)")
            #expect(result.calendar.components.isEmpty)
        }
    }

    @Test("the CR-only fixture, read from its file: one event, its folded description whole, no diagnostic")
    func crOnlyFile() throws {
        let url = try Fixture.url("ics/cr_only_line_ends.ics")
        #expect(try Data(contentsOf: url).contains(0x0A) == false)
        let result = try ICalendarImporter().importCalendar(contentsOf: url)
        #expect(result.diagnostics.isEmpty, "\(result.diagnostics)")
        #expect(result.calendar.components.isEmpty)
        let item = try #require(result.calendar.items.first)
        #expect(result.calendar.items.count == 1)
        #expect(item.uid == "old-mac@hostile.example")
        #expect(item.title == "Saved on a Mac in 1999")
        #expect(item.notes == "Every line of this file ends in a bare CR, as classic Mac OS wrote them; this one is folded.")
        // The outline reads CRLF alone: no outline, so a change rewrites the file whole, from the importer's lines.
        #expect(ICalendarOutline(bytes: Array(try Data(contentsOf: url))) == nil)
    }

    @Test("the reader, fed one byte at a time, finds the same lines and numbers in CR, CRLF and LF text, with blank lines and a CR-LF pair")
    func readerBlocks() throws {
        func lines(_ text: String, block: Int?) throws -> [String] {
            let bytes = Array(text.utf8)
            var reader: ContentLineReader
            if let block {
                var at = 0
                reader = ContentLineReader(maxLineBytes: 1 << 20) {
                    guard at < bytes.count else { return nil }
                    defer { at += block }
                    return Array(bytes[at..<min(at + block, bytes.count)])
                }
            } else {
                reader = ContentLineReader(bytes: bytes, maxLineBytes: 1 << 20)
            }
            var out: [String] = []
            while let line = try reader.next() { out.append("\(line.number) \(String(decoding: line.bytes, as: UTF8.self))") }
            return out
        }
        let expected = ["1 BEGIN:VCALENDAR", "2 A:1", "4 B:23", "7 C:4", "8 END:VCALENDAR"]
        for text in ["BEGIN:VCALENDAR\rA:1\r\rB:2\r 3\r\r\nC:4\rEND:VCALENDAR\r",
                     "BEGIN:VCALENDAR\r\nA:1\r\n\r\nB:2\r\n 3\r\n\r\nC:4\r\nEND:VCALENDAR\r\n",
                     "BEGIN:VCALENDAR\nA:1\n\nB:2\n 3\n\nC:4\nEND:VCALENDAR\n"] {
            for block in [nil, 1, 2, 3] as [Int?] {
                #expect(try lines(text, block: block) == expected, "\(text.debugDescription) in blocks of \(block.map(String.init) ?? "all")")
            }
        }
        // In a CRLF file a bare CR is a control character inside a line, as ever.
        #expect(try lines("BEGIN:VCALENDAR\r\nA:x\ry\r\nEND:VCALENDAR\r\n", block: 1) == ["1 BEGIN:VCALENDAR", "2 A:xy", "3 END:VCALENDAR"])
    }
}
