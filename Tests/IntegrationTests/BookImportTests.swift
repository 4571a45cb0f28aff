import CalendarCore
import CalendarScheduling
import Foundation
import ICalendarKit
import SchedulingICalendar
import Testing

/// The import policy of a calendar that keeps a book is the library's
/// (issue 43, 1): an app that imports into the sample gym gets what
/// `horari import` promises — rules kept, the book's records left as the
/// book has them, a message about the book refused with nothing changed.
@Suite("An import into a calendar that keeps a book")
struct BookImportTests {
    static let sample = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Examples/Samples/gym.ics")

    func gym() throws -> ICalendar { try ICalendarImporter().importCalendar(contentsOf: Self.sample).calendar }

    func file(_ body: String, method: String? = nil) throws -> ICalendar {
        let text = "BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:-//Test//EN\r\n" + (method.map { "METHOD:\($0)\r\n" } ?? "")
            + body.replacingOccurrences(of: "\n", with: "\r\n") + "END:VCALENDAR\r\n"
        return try ICalendarImporter().importCalendar(from: text).calendar
    }

    func text(_ calendar: ICalendar) -> String { ICalendarExporter().export(calendar) }

    static let dentist = """
        BEGIN:VEVENT
        UID:dentist@example.com
        DTSTAMP:20261120T090000Z
        DTSTART:20261127T090000Z
        DURATION:PT30M
        SUMMARY:Dentist
        END:VEVENT

        """
    static let drill = """
        BEGIN:VEVENT
        UID:drill@example.com
        DTSTAMP:20261120T090000Z
        DTSTART:20261127T100000Z
        DURATION:PT30M
        SUMMARY:Fire drill
        COLOR:crimson
        END:VEVENT

        """

    @Test("an item that breaks the calendar's rules is refused and listed; the rest is imported; taking rule breakers takes both")
    func rules() throws {
        var calendar = try gym()
        let done = try calendar.importKeepingBook(try file(Self.dentist + Self.drill))
        #expect(done.merge.added == ["dentist@example.com"])
        #expect(done.refused.map(\.uid) == ["drill@example.com"] && done.rulesName == "default")
        #expect(done.refused.first?.breaks.map(\.code) == [.reservedColor])
        #expect(calendar.items.contains { $0.uid == "dentist@example.com" } && !calendar.items.contains { $0.uid == "drill@example.com" })

        var forced = try gym()
        let taken = try forced.importKeepingBook(try file(Self.dentist + Self.drill), takingRuleBreakers: true)
        #expect(Set(taken.merge.added) == ["dentist@example.com", "drill@example.com"] && taken.refused.isEmpty)
    }

    @Test("a newer version of one of the book's classes is left as the book has it")
    func recordsKept() throws {
        var calendar = try gym()
        let before = try calendar.schedulingBook()
        let done = try calendar.importKeepingBook(try file("""
            BEGIN:VEVENT
            UID:yoga
            DTSTAMP:20261125T090000Z
            SEQUENCE:9
            DTSTART;TZID=Europe/Madrid:20260907T183000
            DURATION:PT1H
            RRULE:FREQ=WEEKLY;BYDAY=MO,WE
            SUMMARY:Yoga (taken over)
            END:VEVENT

            """))
        #expect(done.recordsLeft.map(\.uid) == ["yoga"])
        #expect(done.merge.updated.isEmpty)
        #expect(try calendar.schedulingBook() == before)
    }

    @Test("a METHOD:REQUEST about one of the book's classes is refused whole, naming it, and nothing changes", arguments: ["yoga@gym.example", "yoga"])
    func messageAboutTheBook(uid: String) throws {
        var calendar = try gym()
        let before = text(calendar)
        #expect(throws: BookImportError.messageAboutTheBook(record: "yoga", isClass: true, method: "REQUEST", instances: 1)) {
            try calendar.importKeepingBook(try file(Self.dentist + """
                BEGIN:VEVENT
                UID:\(uid)
                DTSTAMP:20261120T090000Z
                RECURRENCE-ID;TZID=Europe/Madrid:20261123T183000
                DTSTART;TZID=Europe/Madrid:20261123T183000
                DURATION:PT1H
                SUMMARY:Yoga
                ATTENDEE;PARTSTAT=NEEDS-ACTION:mailto:marta@example.com
                END:VEVENT

                """, method: "REQUEST"))
        }
        #expect(text(calendar) == before)
    }

    @Test("rules no one knows are refused before anything changes")
    func unknownRules() throws {
        var calendar = try gym()
        calendar.rulesName = "klingon"
        let before = text(calendar)
        #expect(throws: BookImportError.unknownRules("klingon")) { try calendar.importKeepingBook(try file(Self.dentist)) }
        #expect(text(calendar) == before)
        #expect(BookImportError.unknownRules("klingon").description.contains("use default or task-planner"))
    }
}
