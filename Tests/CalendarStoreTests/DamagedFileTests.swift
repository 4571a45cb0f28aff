import CalendarCore
import CalendarStore
import Foundation
import ICalendarKit
import Testing

/// Issue 20: a change to a calendar file that did not import cleanly is
/// refused, and the file left byte for byte; asked to go on, the file as it
/// was is kept beside it.
@Suite("Damaged calendar files are not saved over")
struct DamagedFileTests {
    private let whole = """
        BEGIN:VCALENDAR\r
        VERSION:2.0\r
        PRODID:-//test//EN\r
        BEGIN:VEVENT\r
        UID:a\r
        DTSTAMP:20260101T000000Z\r
        DTSTART:20260302T100000Z\r
        SUMMARY:First\r
        END:VEVENT\r
        BEGIN:VEVENT\r
        UID:b\r
        DTSTAMP:20260101T000000Z\r
        DTSTART:20260303T100000Z\r
        SUMMARY:Second\r
        END:VEVENT\r
        END:VCALENDAR\r

        """

    private func folder() throws -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("horari-damaged-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }

    @Test("what counts as damage: text a save would lose or a structure it would hide; what is kept as written does not", arguments: [
        // A file cut short in the second event.
        ("cut", 150, true),
        // An unclosed component.
        ("unclosed", 0, true),
        // A line that is not iCalendar.
        ("garbage", 0, true),
        // A duplicate UID: kept as written, not lost.
        ("duplicate", 0, false),
        // An end before the start, an unreadable CREATED: errors about text kept as written,
        // which every load would say again; they never block a save.
        ("end-before-start", 0, false),
        ("created", 0, false),
    ])
    func damage(kind: String, cut: Int, damaged: Bool) throws {
        var text = whole
        switch kind {
        case "cut": text = String(whole.prefix(whole.count - cut))
        case "unclosed": text = whole.replacingOccurrences(of: "SUMMARY:First\r\nEND:VEVENT\r\n", with: "SUMMARY:First\r\n")
        case "garbage": text = whole.replacingOccurrences(of: "SUMMARY:First", with: "SUMMARY:First\r\nthis is not a content line")
        case "end-before-start": text = whole.replacingOccurrences(of: "SUMMARY:First", with: "SUMMARY:First\r\nDTEND:20260302T090000Z")
        case "created": text = whole.replacingOccurrences(of: "SUMMARY:First", with: "SUMMARY:First\r\nCREATED:yesterday")
        default: text = whole.replacingOccurrences(of: "UID:b", with: "UID:a")
        }
        let result = try ICalendarImporter().importCalendar(from: text)
        #expect(!result.damage.isEmpty == damaged, "\(result.diagnostics)")
        let dir = try folder()
        defer { try? FileManager.default.removeItem(at: dir) }
        let url = dir.appendingPathComponent("cal.ics")
        try Data(text.utf8).write(to: url)
        let change: (inout ICalendar) throws -> Void = { calendar in
            try calendar.add(CalendarItem(uid: "c", title: "Third", start: .utc(try LocalDateTime(year: 2026, month: 3, day: 4, hour: 10))))
        }
        if damaged {
            do {
                try CalendarFile.update(url, exporterFor: { _ in ICalendarExporter() }, change)
                Issue.record("saved over a damaged file")
            } catch let error as ICalendarError {
                #expect(error.code == .damaged)
                #expect(error.diagnostics == result.damage)
                #expect(error.message.contains("nothing was changed"))
            }
            #expect(try Data(contentsOf: url) == Data(text.utf8), "the file is byte for byte as it was")
            // Asked to go on: the change is made, and the file as it was is kept beside it.
            let kept = Locked<URL?>(nil)
            try CalendarFile.update(url, exporterFor: { _ in ICalendarExporter() }, ifDamaged: .keepCopy { copy in kept.withLock { $0 = copy } }, change)
            let copy = try #require(kept.withLock { $0 })
            #expect(copy.lastPathComponent == "cal.ics.damaged")
            #expect(try Data(contentsOf: copy) == Data(text.utf8))
            #expect(try CalendarFile.load(url).calendar.items.contains { $0.uid == "c" })
            // A second forced change keeps a second copy; the first is not overwritten.
            try Data(text.utf8).write(to: url)
            try CalendarFile.update(url, exporterFor: { _ in ICalendarExporter() }, ifDamaged: .keepCopy { copy in kept.withLock { $0 = copy } }, { _ in })
            #expect(kept.withLock { $0 }?.lastPathComponent == "cal.ics.damaged-2")
        } else {
            try CalendarFile.update(url, exporterFor: { _ in ICalendarExporter(options: .init(includeRejected: true)) }, change)
            let saved = try String(contentsOf: url, encoding: .utf8)
            #expect(saved.contains("SUMMARY:Second"), "the duplicate is kept as written")
            #expect(!(kind == "created") || saved.contains("CREATED:yesterday"))
            #expect(!(kind == "end-before-start") || saved.contains("DTEND:20260302T090000Z"))
            // And the next change is not refused either.
            try CalendarFile.update(url, exporterFor: { _ in ICalendarExporter(options: .init(includeRejected: true)) }, { _ in })
        }
    }
}

/// A value behind a lock, for a `@Sendable` closure to set.
private final class Locked<Value>: @unchecked Sendable {
    private var value: Value
    private let lock = NSLock()
    init(_ value: Value) { self.value = value }
    func withLock<T>(_ body: (inout Value) -> T) -> T {
        lock.lock()
        defer { lock.unlock() }
        return body(&value)
    }
}
