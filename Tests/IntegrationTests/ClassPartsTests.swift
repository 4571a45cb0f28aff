import CalendarCore
import CalendarScheduling
import Foundation
import ICalendarKit
import SchedulingICalendar
import Testing
import _SchedulingTestSupport

/// Issue 21, costs that follow the change: a class written in yearly parts
/// (for a folder or a CalDAV collection) is the same book and the same
/// occurrences as the class written whole, and a booking this year changes
/// only the class's own event.
@Suite("A class's series in yearly parts")
struct ClassPartsTests {
    /// The gym with two classes that began before 2026: Pilates on Thursdays
    /// since 2024 (a moved, a cancelled and booked occurrences in each year),
    /// and Swimming on Saturdays from March 2024 to June 2025.
    func gymWithHistory() throws -> SchedulingBook {
        var book = try Gym.book()
        try book.addClass(ClassSeries(
            id: "pilates", title: "Pilates", weekdays: [.thursday], time: TimeOfDay(hour: 19), duration: .minutes(50), capacity: 4,
            firstDate: try Gym.day("2024-01-04")))
        try book.addClass(ClassSeries(
            id: "swim", title: "Swimming", weekdays: [.saturday], time: TimeOfDay(hour: 10), duration: .minutes(60), capacity: 6,
            firstDate: try Gym.day("2024-03-02"), lastDate: try Gym.day("2025-06-28")))
        func booking(_ member: String, _ classID: String, _ date: String) throws {
            try book.book(member: member, classID: classID, on: Gym.day(date), now: Gym.now("\(date) 06:00"))
        }
        try booking("marta", "pilates", "2024-01-04")
        try booking("oriol", "pilates", "2024-12-26")
        try booking("oriol", "pilates", "2025-05-08")
        try booking("nuria", "pilates", "2026-11-26")
        try booking("marta", "pilates", "2026-11-26")
        try booking("marta", "swim", "2025-06-21")
        try book.moveOccurrence(classID: "pilates", on: Gym.day("2024-02-01"), to: Gym.at("2024-02-01 20:00"))
        try book.cancelOccurrence(classID: "pilates", on: Gym.day("2025-12-25"))
        try book.cancelOccurrence(classID: "swim", on: Gym.day("2024-08-17"))
        return book
    }

    func calendar(_ book: SchedulingBook, splitBefore year: Int?) -> ICalendar {
        var calendar = ICalendar()
        if let year { calendar.setScheduling(book, splittingClassesBefore: year) } else { calendar.setScheduling(book) }
        return calendar
    }

    func occurrences(_ calendar: ICalendar) throws -> [String] {
        let from = try CalendarTime(icalValue: "20240101T000000Z").instant(floatingZone: .utc)
        let to = try CalendarTime(icalValue: "20270101T000000Z").instant(floatingZone: .utc)
        return calendar.schedule().occurrences(from: from, to: to)
            .map { "\($0.start.icalValue) \($0.item.title) \($0.item.properties.filter { $0.name == "ATTENDEE" }.count)" }.sorted()
    }

    @Test("each class that met before the year is its own event from January and one event per earlier year")
    func parts() throws {
        let split = calendar(try gymWithHistory(), splitBefore: 2026)
        let classes = split.items.filter { $0.properties.contains { $0.name == "X-HORARI-CAPACITY" } }
        #expect(classes.map(\.uid).sorted() == ["pilates", "pilates@2024", "pilates@2025", "spin", "swim", "swim@2024", "yoga"])
        let pilates = try #require(classes.first { $0.uid == "pilates" })
        #expect(pilates.start.icalValue == "20260101T190000")
        #expect(pilates.overrides.map(\.recurrenceID.icalValue) == ["20261126T190000"])
        let y2024 = try #require(classes.first { $0.uid == "pilates@2024" })
        #expect(y2024.start.icalValue == "20240104T190000")
        #expect(y2024.recurrenceRules.first?.until?.icalValue == "20241231T180000Z")
        #expect(y2024.overrides.map(\.recurrenceID.icalValue) == ["20240104T190000", "20240201T190000", "20241226T190000"])
        #expect(y2024.properties.first { $0.name == "X-HORARI-CLASS-PART" }?.value == "pilates")
        #expect(try #require(classes.first { $0.uid == "pilates@2025" }).exceptionDates.map(\.icalValue) == ["20251225T190000"])
        // A class that ended before the year: its own event is its last year.
        #expect(try #require(classes.first { $0.uid == "swim" }).start.icalValue == "20250104T100000")
        #expect(try #require(classes.first { $0.uid == "swim@2024" }).exceptionDates.map(\.icalValue) == ["20240817T100000"])
    }

    @Test("read back, the parts are the book written whole, and the calendar shows the same occurrences")
    func sameBook() throws {
        let book = try gymWithHistory()
        let whole = calendar(book, splitBefore: nil), split = calendar(book, splitBefore: 2026)
        let read = try split.schedulingBook(defaultTimeZone: Gym.zone)
        #expect(calendar(read, splitBefore: nil).items == whole.items)
        #expect(try occurrences(split) == occurrences(whole))
        #expect(try occurrences(whole).count > 150)
        // Through iCalendar text and back, as a server keeps it.
        let text = ICalendarExporter().export(split)
        let imported = try ICalendarImporter().importCalendar(from: text)
        #expect(imported.diagnostics.isEmpty, "\(imported.diagnostics)")
        #expect(calendar(try imported.calendar.schedulingBook(defaultTimeZone: Gym.zone), splitBefore: nil).items == whole.items)
    }

    @Test("a booking this year changes the class's own event and no part")
    func bookingTouchesOnePart() throws {
        var book = try gymWithHistory()
        let before = calendar(book, splitBefore: 2026)
        try book.book(member: "oriol", classID: "pilates", on: Gym.day("2026-12-03"), now: Gym.now("2026-11-23 12:00"))
        let after = calendar(book, splitBefore: 2026)
        let changed = Set(before.items.map(\.uid)).union(after.items.map(\.uid)).filter { uid in
            before.items.first { $0.uid == uid } != after.items.first { $0.uid == uid }
        }
        #expect(changed == ["pilates"])
    }

    @Test("a part another client moved to 20:00 is read by its dates alone, with a warning naming it: the class still meets at 19:00 from its first date")
    func partChangedElsewhere() throws {
        let book = try gymWithHistory()
        let whole = calendar(book, splitBefore: nil)
        var split = calendar(book, splitBefore: 2026)
        let i = try #require(split.items.firstIndex { $0.uid == "pilates@2024" })
        split.items[i].start = split.items[i].start.withWallTime(try LocalDateTime(year: 2024, month: 1, day: 4, hour: 20))
        let (read, problems) = try split.schedulingCheck(defaultTimeZone: Gym.zone)
        #expect(problems.map(\.severity) == [.warning])
        #expect(problems.first?.record == .item(uid: "pilates@2024"))
        #expect(problems.first?.message.contains("pilates@2024, the 2024 part of class ‘pilates’, starts at 20:00 Europe/Madrid, unlike the class") == true, "\(problems)")
        #expect(calendar(read, splitBefore: nil).items == whole.items)
        // Unchanged parts say nothing.
        #expect(try calendar(book, splitBefore: 2026).schedulingCheck(defaultTimeZone: Gym.zone).problems.isEmpty)
    }

    @Test("a class whose part would take a UID another item holds is written whole, and nothing is lost")
    func partNameTaken() throws {
        let book = try gymWithHistory()
        var mine = ICalendar()
        mine.items = [CalendarItem(uid: "pilates@2025", title: "Someone's own event", start: .date(try LocalDate(year: 2025, month: 3, day: 1)))]
        mine.setScheduling(book, splittingClassesBefore: 2026)
        let uids = mine.items.map(\.uid)
        #expect(uids.filter { $0 == "pilates@2025" }.count == 1)
        #expect(!uids.contains("pilates@2024") && uids.contains("swim@2024"))
        #expect(mine.items.first { $0.uid == "pilates@2025" }?.title == "Someone's own event")
        #expect(calendar(try mine.schedulingBook(defaultTimeZone: Gym.zone), splitBefore: nil).items == calendar(book, splitBefore: nil).items)
    }
}
