import CalendarCore
import Foundation
import ICalendarKit
import Testing

/// What the library writes it reads back without a diagnostic.
@Suite("What the exporter writes reads back cleanly")
struct ExportReadsBackTests {
    /// Issue 21 (found by the collection store's tests): a control character
    /// in a title or a UID was written as it was, so the library's own next
    /// reading removed it, called the file damaged and refused every change.
    @Test("a control character in a text is left out on export, so what the library writes reads back cleanly")
    func controlCharactersNotWritten() throws {
        let start = CalendarTime.utc(try LocalDateTime(year: 2026, month: 11, day: 23, hour: 10))
        let item = CalendarItem(uid: "nul\u{0}byte", title: "bell\u{7}title\u{7F}", start: start, notes: "line one\nline\ttwo\u{1B}[31m")
        var calendar = ICalendar()
        calendar.items = [item]
        let text = ICalendarExporter().export(calendar)
        #expect(!text.utf8.contains { ($0 < 0x20 && $0 != 0x09 && $0 != 0x0D && $0 != 0x0A) || $0 == 0x7F })
        let back = try ICalendarImporter().importCalendar(from: text)
        #expect(back.diagnostics.isEmpty, "\(back.diagnostics)")
        #expect(back.calendar.items.map(\.uid) == ["nulbyte"])
        #expect(back.calendar.items.first?.title == "belltitle")
        #expect(back.calendar.items.first?.notes == "line one\nline\ttwo[31m")
    }
}
