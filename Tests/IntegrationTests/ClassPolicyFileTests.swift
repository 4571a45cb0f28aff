import CalendarCore
import CalendarScheduling
import Foundation
import ICalendarKit
import SchedulingICalendar
import Testing

/// Issue 31, 4: the gym's class booking policy kept in its calendar.
@Suite("Class booking policy in a calendar")
struct ClassPolicyFileTests {
    @Test("written as X-HORARI-* calendar properties, read back the same, removed with nil; a value a person mistyped is named")
    func roundTrip() throws {
        var calendar = ICalendar()
        let policy = ClassBookingPolicy(bookingWindowDays: 14, cancellationCutoff: .seconds(90 * 60), weeklyLimit: 3)
        try calendar.setClassBookingPolicy(policy)
        let text = ICalendarExporter().export(calendar)
        #expect(text.contains("X-HORARI-BOOKING-WINDOW:14\r\n") && text.contains("X-HORARI-CANCELLATION-CUTOFF:PT1H30M\r\n") && text.contains("X-HORARI-WEEKLY-LIMIT:3\r\n"))
        var again = try ICalendarImporter().importCalendar(from: text).calendar
        #expect(try again.classBookingPolicy() == policy)
        let outline = try #require(ICalendarOutline(bytes: Array(text.utf8)))
        #expect(try ICalendar.classBookingPolicy(in: outline.calendarValues) == policy)
        try again.setClassBookingPolicy(nil)
        #expect(try again.classBookingPolicy() == nil)
        #expect(!ICalendarExporter().export(again).contains("X-HORARI-WEEKLY"))

        let typo = text.replacingOccurrences(of: "X-HORARI-WEEKLY-LIMIT:3", with: "X-HORARI-WEEKLY-LIMIT:three")
        let bad = try ICalendarImporter().importCalendar(from: typo).calendar
        #expect(throws: SchedulingError.invalid(field: .property("X-HORARI-WEEKLY-LIMIT"), reason: "‘three’ is not a whole number; set it again with `horari classes policy`")) {
            try bad.classBookingPolicy()
        }
        #expect(throws: SchedulingError.self) { try calendar.setClassBookingPolicy(ClassBookingPolicy(weeklyLimit: 0)) }
    }

    @Test("the book read from a calendar carries its policy, a change of the book writes it back, a backup keeps it, a mistyped rule is named on reading")
    func travelsWithTheBook() throws {
        var calendar = ICalendar()
        calendar.setScheduling(SchedulingBook(timeZone: .utc))
        #expect(try calendar.schedulingBook().classPolicy == nil)
        let policy = ClassBookingPolicy(bookingWindowDays: 7, weeklyLimit: 2)
        try calendar.setClassBookingPolicy(policy)
        var book = try calendar.schedulingBook()
        #expect(book.classPolicy == policy)
        #expect(try calendar.schedulingCheck().book.classPolicy == policy)
        book.classPolicy?.weeklyLimit = nil
        calendar.setScheduling(book)
        let read = try ICalendarImporter().importCalendar(from: ICalendarExporter().export(calendar)).calendar
        #expect(try read.schedulingBook().classPolicy == ClassBookingPolicy(bookingWindowDays: 7))
        let backup = try ICalendar(book, for: .everything)
        #expect(try backup.schedulingBook().classPolicy == ClassBookingPolicy(bookingWindowDays: 7))
        #expect(try ICalendar(book, for: .publicTimetable).classBookingPolicy() == nil)

        var typo = calendar
        typo.properties.removeAll { $0.name == "X-HORARI-BOOKING-WINDOW" }
        typo.properties.append(ContentLine(name: "X-HORARI-BOOKING-WINDOW", value: "a week"))
        #expect(throws: SchedulingError.invalid(field: .property("X-HORARI-BOOKING-WINDOW"), reason: "‘a week’ is not a whole number; set it again with `horari classes policy`")) {
            try typo.schedulingBook()
        }
        #expect(throws: SchedulingError.self) { try typo.schedulingCheck() }
    }
}
