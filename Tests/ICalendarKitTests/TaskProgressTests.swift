import CalendarCore
import Foundation
import ICalendarKit
import Testing
import _CalendarTestFixtures

/// A task's `COMPLETED` and `PERCENT-COMPLETE` (RFC 5545 §3.8.2.1, §3.8.1.8)
/// are typed fields of the item, read and written by ICalendarKit: CalendarCore
/// spells neither (issue 43, 2; Docs/Modules.md).
@Suite("A task's progress as typed fields")
struct TaskProgressTests {
    @Test("Thunderbird's done tasks: COMPLETED and PERCENT-COMPLETE are fields, not kept lines, and are written back once")
    func thunderbird() throws {
        let read = try ICalendarImporter().importCalendar(from: Fixture.data("ics/tasks.ics"))
        #expect(read.diagnostics.isEmpty, "\(read.diagnostics)")
        let essay = try #require(read.calendar.items.first { $0.uid == "history-essay@thunderbird" })
        #expect(essay.completed == .utc(try LocalDateTime(year: 2026, month: 11, day: 21, hour: 9, minute: 30)))
        #expect(essay.percentComplete == 100)
        #expect(essay.isDone)
        #expect(!essay.properties.contains { $0.name == "COMPLETED" || $0.name == "PERCENT-COMPLETE" })
        // The weekly task's done instance, a changed instance of its own.
        let weekly = try #require(read.calendar.items.first { $0.uid == "9b1f03c8-weekly@thunderbird" })
        #expect(weekly.overrides.map(\.item.percentComplete) == [100])

        let text = String(decoding: ICalendarExporter().exportData(read.calendar), as: UTF8.self)
        #expect(text.components(separatedBy: "\r\nCOMPLETED:20261121T093000Z\r\n").count == 2)
        #expect(text.components(separatedBy: "\r\nPERCENT-COMPLETE:100\r\n").count == 3)
        let again = try ICalendarImporter().importCalendar(from: Data(text.utf8))
        #expect(again.calendar.items.map(\.completed) == read.calendar.items.map(\.completed))
        #expect(again.calendar.items.map(\.percentComplete) == read.calendar.items.map(\.percentComplete))
    }

    @Test("marking done and reopening set and clear the fields; the export says what they say")
    func markAndReopen() throws {
        let due = try LocalDate(year: 2026, month: 12, day: 1)
        var essay = CalendarItem(uid: "essay", kind: .task, title: "Essay", start: .date(due))
        try essay.markDone(at: Date(timeIntervalSince1970: 1_795_000_000.7))
        #expect(essay.completed == .utc(LocalDateTime(localSeconds: 1_795_000_000)))
        #expect(essay.percentComplete == 100)
        let done = String(decoding: ICalendarExporter().exportData(ICalendar(items: [essay])), as: UTF8.self)
        #expect(done.contains("\r\nSTATUS:COMPLETED\r\n") && done.contains("\r\nCOMPLETED:20261118T110640Z\r\n") && done.contains("\r\nPERCENT-COMPLETE:100\r\n"))
        try essay.reopen()
        #expect(essay.completed == nil && essay.percentComplete == nil)
        let open = String(decoding: ICalendarExporter().exportData(ICalendar(items: [essay])), as: UTF8.self)
        #expect(!open.contains("COMPLETED:") && !open.contains("PERCENT-COMPLETE"))
    }

    @Test("a PERCENT-COMPLETE that is not 0 to 100 is kept as written and said; an app's is refused by validate")
    func outOfRange() throws {
        let file = "BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:x\r\nBEGIN:VTODO\r\nUID:t\r\nDTSTAMP:20260101T000000Z\r\nSUMMARY:Half\r\nPERCENT-COMPLETE:150\r\nEND:VTODO\r\nEND:VCALENDAR\r\n"
        let read = try ICalendarImporter().importCalendar(from: Data(file.utf8))
        let said = try #require(read.diagnostics.first)
        #expect(said.line == 8 && said.message.contains("PERCENT-COMPLETE ‘150’"))
        let task = try #require(read.calendar.items.first)
        #expect(task.percentComplete == nil)
        #expect(String(decoding: ICalendarExporter().exportData(read.calendar), as: UTF8.self).contains("\r\nPERCENT-COMPLETE:150\r\n"))

        var mine = CalendarItem(uid: "m", kind: .task, title: "Mine", start: .date(try LocalDate(year: 2026, month: 12, day: 1)))
        mine.percentComplete = 150
        #expect(throws: CalendarItemError.self) { try mine.validate() }
        do { try mine.validate() } catch {
            #expect(error.code == .invalidProgress && error.field == .percentComplete)
        }
        mine.percentComplete = 40
        try mine.validate()
    }

    @Test("progress a file wrote that cannot be read is written back until the task is marked done or reopened, which write it afresh, once")
    func unreadableProgressReplaced() throws {
        let file = "BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:x\r\nBEGIN:VTODO\r\nUID:t\r\nDTSTAMP:20260101T000000Z\r\nSUMMARY:Half\r\nDUE:20261201T120000Z\r\n"
            + "COMPLETED:yesterday\r\nPERCENT-COMPLETE:150\r\nEND:VTODO\r\nEND:VCALENDAR\r\n"
        var calendar = try ICalendarImporter().importCalendar(from: Data(file.utf8)).calendar
        let kept = ICalendarExporter().export(calendar)
        #expect(kept.contains("\r\nCOMPLETED:yesterday\r\n") && kept.contains("\r\nPERCENT-COMPLETE:150\r\n"))
        try calendar.items[0].markDone(at: Date(timeIntervalSince1970: 1_795_000_000), floatingZone: .utc)
        let done = ICalendarExporter().export(calendar)
        #expect(done.components(separatedBy: "\r\nCOMPLETED:").count == 2 && done.contains("\r\nCOMPLETED:20261118T110640Z\r\n"))
        #expect(done.components(separatedBy: "\r\nPERCENT-COMPLETE:").count == 2 && done.contains("\r\nPERCENT-COMPLETE:100\r\n"))
        try calendar.items[0].reopen(floatingZone: .utc)
        let open = ICalendarExporter().export(calendar)
        #expect(!open.contains("COMPLETED:") && !open.contains("PERCENT-COMPLETE"))
    }

    @Test("setting the progress replaces what the file wrote that could not be read: one line each, read back the same")
    func setReplacesUnreadable() throws {
        let file = "BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:x\r\nBEGIN:VTODO\r\nUID:t\r\nDTSTAMP:20260101T000000Z\r\nSUMMARY:Half\r\n"
            + "COMPLETED:yesterday\r\nPERCENT-COMPLETE:150\r\nEND:VTODO\r\nEND:VCALENDAR\r\n"
        var calendar = try ICalendarImporter().importCalendar(from: Data(file.utf8)).calendar
        calendar.items[0].percentComplete = 50
        let text = ICalendarExporter().export(calendar)
        #expect(text.components(separatedBy: "PERCENT-COMPLETE").count == 2 && text.contains("\r\nPERCENT-COMPLETE:50\r\n"))
        #expect(text.contains("\r\nCOMPLETED:yesterday\r\n"))
        let back = try ICalendarImporter().importCalendar(from: Data(text.utf8)).calendar
        #expect(back.items[0].percentComplete == 50)
    }

    @Test("the item's JSON carries the fields, and reads back")
    func json() throws {
        var task = CalendarItem(uid: "j", kind: .task, title: "J", start: .date(try LocalDate(year: 2026, month: 12, day: 1)))
        task.percentComplete = 40
        task.completed = .utc(LocalDateTime(localSeconds: 1_795_000_000))
        let back = try JSONDecoder().decode(CalendarItem.self, from: JSONEncoder().encode(task))
        #expect(back == task)
    }
}
