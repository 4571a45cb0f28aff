import CalendarCore
import Foundation
import ICalendarKit
import Testing

/// Issue 43, 1: "this and following" splits a series in the library, with
/// the UID convention the CLI held (Google's `UID_R<wall time>`).
@Suite("Splitting a series in a calendar")
struct SeriesSplitTests {
    static let text = """
        BEGIN:VCALENDAR\r
        VERSION:2.0\r
        PRODID:-//Test//EN\r
        BEGIN:VEVENT\r
        UID:standup\r
        DTSTAMP:20261101T000000Z\r
        DTSTART;TZID=Europe/Madrid:20261130T090000\r
        DURATION:PT15M\r
        RRULE:FREQ=WEEKLY;COUNT=6\r
        SUMMARY:Stand-up\r
        END:VEVENT\r
        END:VCALENDAR\r

        """

    @Test("the new series is UID_R and the occurrence's wall time, -2 when that is taken; COUNT is shared; a split at the first leaves no head")
    func split() throws {
        let madrid = try ZoneRules.named("Europe/Madrid")
        var calendar = try ICalendarImporter().importCalendar(from: Self.text).calendar
        let third = CalendarTime.zoned(try LocalDateTime(year: 2026, month: 12, day: 14, hour: 9), "Europe/Madrid")
        let (head, tail) = try calendar.splitSeries(uid: "standup", at: third, floatingZone: madrid)
        #expect(tail.uid == "standup_R20261214T090000")
        #expect(head != nil && tail.recurrenceRules.first?.count == 4)
        try calendar.add(tail)
        #expect(try calendar.splitSeries(uid: "standup", at: third, floatingZone: madrid).tail.uid == "standup_R20261214T090000-2")
        let first = CalendarTime.zoned(try LocalDateTime(year: 2026, month: 11, day: 30, hour: 9), "Europe/Madrid")
        #expect(try calendar.splitSeries(uid: "standup", at: first, floatingZone: madrid).head == nil)
        #expect(throws: CalendarItemError.self) { try calendar.splitSeries(uid: "nope", at: first, floatingZone: madrid) }
    }
}
