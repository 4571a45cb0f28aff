import CalendarCore
import Foundation
import ICalendarKit
import Testing

/// Each documented input limit (`ImportOptions`, `RecurrenceSet.maxInstances`)
/// reached, and the documented answer to it: a typed error or a diagnostic
/// with its line, naming the limit, and nothing else lost.
@Suite("Input limits")
struct ICalendarLimitTests {
    static let header = "BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:x\r\n"

    static func event(_ n: Int, extra: String = "") -> String {
        "BEGIN:VEVENT\r\nUID:e\(n)\r\nDTSTAMP:20260101T000000Z\r\nDTSTART:20260101T090000Z\r\n\(extra)END:VEVENT\r\n"
    }

    static func calendar(_ body: String) -> String { header + body + "END:VCALENDAR\r\n" }

    @Test("the defaults are the documented ones")
    func defaults() {
        let o = ImportOptions()
        #expect(o.maxFileBytes == 2 << 30)
        #expect(o.maxComponents == 1_000_000)
        #expect(o.maxPropertiesPerComponent == 10_000)
        #expect(o.maxLineBytes == 1 << 20)
        #expect(o.maxComponentBytes == 16 << 20)
        #expect(RecurrenceSet.maxInstances == 1_000_000)
    }

    @Test("file size: a larger input or file fails with tooLarge and names the limit")
    func fileSize() throws {
        let text = Self.calendar(Self.event(1))
        let options = ImportOptions(maxFileBytes: text.utf8.count - 1)
        let error = #expect(throws: ICalendarError.self) { try ICalendarImporter(options: options).importCalendar(from: text) }
        #expect(error?.code == .tooLarge)
        #expect(error?.message.contains("ImportOptions.maxFileBytes") == true)
        // Read from a file, in blocks: the same answer.
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("horari-limit-\(UUID().uuidString).ics")
        try Data(text.utf8).write(to: url)
        defer { try? FileManager.default.removeItem(at: url) }
        let fromFile = #expect(throws: ICalendarError.self) { try ICalendarImporter(options: options).importCalendar(contentsOf: url) }
        #expect(fromFile?.code == .tooLarge)
        // At the limit exactly, it imports.
        let exact = try ICalendarImporter(options: ImportOptions(maxFileBytes: text.utf8.count)).importCalendar(from: text)
        #expect(exact.calendar.items.count == 1)
    }

    @Test("components: one more than the limit fails with tooLarge on that component's line")
    func components() throws {
        let limit = 100
        let atLimit = Self.calendar((1...limit).map { Self.event($0) }.joined())
        #expect(try ICalendarImporter(options: ImportOptions(maxComponents: limit)).importCalendar(from: atLimit).calendar.items.count == limit)
        let over = Self.calendar((1...limit + 1).map { Self.event($0) }.joined())
        let error = #expect(throws: ICalendarError.self) { try ICalendarImporter(options: ImportOptions(maxComponents: limit)).importCalendar(from: over) }
        #expect(error?.code == .tooLarge)
        // 3 header lines, 5 lines per event: the 101st BEGIN:VEVENT is on line 504.
        #expect(error?.message.hasPrefix("line \(3 + 5 * limit + 1): ") == true)
        #expect(error?.message.contains("ImportOptions.maxComponents") == true)
    }

    @Test("properties per component: the default reached; that component is reported, the others import")
    func propertiesPerComponent() throws {
        let limit = ImportOptions().maxPropertiesPerComponent
        // BEGIN, UID, DTSTAMP and DTSTART are 4 lines before the END: the extra lines take it one past the limit.
        let extra = (0..<(limit - 3)).map { "X-N:\($0)\r\n" }.joined()
        let text = Self.calendar(Self.event(1) + Self.event(2, extra: extra) + Self.event(3))
        let result = try ICalendarImporter().importCalendar(from: text)
        #expect(result.calendar.items.map(\.uid) == ["e1", "e3"])
        let d = try #require(result.diagnostics.first { $0.code == .tooManyProperties })
        #expect(d.line == 9)
        #expect(d.severity == .error)
        #expect(d.message.contains("ImportOptions.maxPropertiesPerComponent"))
        // One line fewer is within the limit.
        let within = Self.calendar(Self.event(2, extra: String(extra.dropFirst("X-N:0\r\n".count))))
        #expect(try ICalendarImporter().importCalendar(from: within).calendar.items.count == 1)
    }

    @Test("line length: the default reached; that property is reported and left out, the item imports")
    func lineLength() throws {
        let limit = ImportOptions().maxLineBytes
        let long = "DESCRIPTION:" + String(repeating: "a", count: limit)
        let text = Self.calendar(Self.event(1, extra: long + "\r\nSUMMARY:kept\r\n"))
        let result = try ICalendarImporter().importCalendar(from: text)
        let d = try #require(result.diagnostics.first { $0.code == .lineTooLong })
        #expect(d.line == 8)
        #expect(d.message.contains("ImportOptions.maxLineBytes"))
        #expect(result.calendar.items.first?.title == "kept")
        #expect(result.calendar.items.first?.notes == nil)
    }

    @Test("occurrences per expansion: past the default without a limit, tooManyInstances; a limit given is honoured")
    func occurrences() throws {
        let start = CalendarTime.utc(try LocalDateTime(year: 2026, month: 1, day: 1))
        let set = RecurrenceSet(start: start, rules: [try RecurrenceRule(parsing: "FREQ=SECONDLY")])
        // 12 days of seconds: 1,036,800 instances.
        let to = Date(timeIntervalSince1970: try start.instant(floatingIn: .utc).timeIntervalSince1970 + 12 * 86_400)
        let error = #expect(throws: RecurrenceError.self) { try set.instances(to: to) }
        #expect(error?.code == .tooManyInstances)
        #expect(error?.message.contains("RecurrenceSet.maxInstances") == true)
        // 11 days: 950,400, within.
        let within = Date(timeIntervalSince1970: to.timeIntervalSince1970 - 86_400)
        #expect(try set.instances(to: within).count == 950_400)
        #expect(try set.instances(to: to, limit: 5).count == 5)
    }
}
