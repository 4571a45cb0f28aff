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
        #expect(o.maxDiagnosticsPerKind == 100)
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
        let to = Date(timeIntervalSince1970: try start.instant(floatingZone: .utc).timeIntervalSince1970 + 12 * 86_400)
        let error = #expect(throws: RecurrenceError.self) { try set.instances(to: to) }
        #expect(error?.code == .tooManyInstances)
        #expect(error?.message.contains("RecurrenceSet.maxInstances") == true)
        // 11 days: 950,400, within.
        let within = Date(timeIntervalSince1970: to.timeIntervalSince1970 - 86_400)
        #expect(try set.instances(to: within).count == 950_400)
        #expect(try set.instances(to: to, limit: 5).count == 5)
    }

    /// Issue 28, item 13: a file of 100,000 unclosed components gave 100,000
    /// diagnostics (400,000 lines on the CLI's standard error).
    @Test("diagnostics per kind: past the default, one summary says how many more and where; the totals stay true")
    func diagnosticsPerKind() throws {
        // 1,000 unclosed events (an error each) and 150 lines without a colon
        // (another kind), interleaved for the first 150 events.
        var body = ""
        for n in 0..<1_000 {
            body += "BEGIN:VEVENT\r\nUID:open-\(n)\r\nDTSTAMP:20260101T000000Z\r\nDTSTART:20260101T090000Z\r\n" + (n < 150 ? "NO COLON\r\n" : "")
        }
        let result = try ICalendarImporter(options: ImportOptions(checksWithLibICal: false)).importCalendar(from: Self.calendar(body))
        #expect(result.calendar.items.count == 1_000)
        let unbalanced = result.diagnostics.filter { $0.code == .unbalanced }
        let malformed = result.diagnostics.filter { $0.code == .malformedLine }
        #expect(unbalanced.count == 101)
        #expect(malformed.count == 101)
        #expect(result.diagnostics.count == 202)
        #expect(unbalanced.prefix(100).allSatisfy { $0.count == 1 })
        let summary = try #require(unbalanced.last)
        #expect(summary.count == 900)
        #expect(summary.severity == .error)
        // Event 100 (the 101st) begins on line 4 + 100 × 5 (four lines and a line without a colon each).
        #expect(summary.line == 504)
        #expect(summary.message.hasPrefix("and 900 more like it (unbalanced), on lines 504 to "), "\(summary.message)")
        #expect(summary.message.contains("only the first 100 problems of a kind are listed; the first left out: BEGIN:VEVENT is never closed"))
        #expect(malformed.last?.count == 50)
        #expect(malformed.last?.message.hasPrefix("and 50 more like it (malformedLine)") == true)
        // In line order, each summary where the first it stands for was.
        #expect(result.diagnostics.map(\.line) == result.diagnostics.map(\.line).sorted())
        #expect(result.problemCount == 1_150)
        #expect(result.problemCount(.error) == 1_150)
        #expect(result.damage.reduce(0) { $0 + $1.count } == 1_150)
        // Strict mode counts them all too.
        do {
            _ = try ICalendarImporter(options: ImportOptions(strict: true, checksWithLibICal: false)).importCalendar(from: Self.calendar(body))
            Issue.record("strict mode imported a damaged file")
        } catch {
            #expect(error.message == "the calendar has 1150 problems (strict mode)")
            #expect(error.diagnostics.count == 202)
        }
        // A bound given is honoured; every diagnostic, with a bound past them all.
        let few = try ICalendarImporter(options: ImportOptions(checksWithLibICal: false, maxDiagnosticsPerKind: 2)).importCalendar(from: Self.calendar(body))
        #expect(few.diagnostics.map(\.line) == [4, 8, 9, 13, 14, 18])
        #expect(few.diagnostics.map(\.count) == [1, 1, 1, 1, 998, 148])
        #expect(few.problemCount == 1_150)
        let all = try ICalendarImporter(options: ImportOptions(checksWithLibICal: false, maxDiagnosticsPerKind: .max)).importCalendar(from: Self.calendar(body))
        #expect(all.diagnostics.count == 1_150)
        #expect(all.diagnostics.allSatisfy { $0.count == 1 })
    }
}
