import CalendarCore
import CalendarScheduling
import Foundation
import ICalendarKit
import SchedulingICalendar
import Testing
import _SchedulingTestSupport

/// Issue 31, 3: the gym's closures and opening hours kept in its calendar
/// (every desk honouring them, on a file, a folder and Radicale, is
/// `SchedulingStoreTests.closureAcrossDesks`).
@Suite("Closures and opening hours in a calendar")
struct ClosureFileTests {
    let booked = Date(timeIntervalSince1970: 1_795_165_200)  // 2026-11-20 10:00 in Madrid

    @Test("a closure is an X-HORARI-CLOSURE property and EXDATEs on the closed dates; read back the same book; opened, the classes are back; every calendar hides the closed dates")
    func roundTrip() throws {
        var book = try Gym.book()
        try book.book(member: "marta", classID: "spin", on: try Gym.day("2026-12-25"), now: booked)
        try book.close(try GymClosure(first: Gym.day("2026-12-24"), last: Gym.day("2026-12-26"), reason: "Christmas; Sant Esteve"))
        var hours = WorkingHours()
        try hours.set([TimeRange(parsing: "07:00-22:00")], on: [.monday, .tuesday, .wednesday, .thursday, .friday])
        try hours.set([], onDate: try Gym.day("2027-01-06"))
        book.openingHours = hours
        var calendar = ICalendar()
        calendar.setScheduling(book)
        let text = ICalendarExporter().export(calendar)
        let unfolded = text.replacingOccurrences(of: "\r\n ", with: "")
        #expect(unfolded.contains("X-HORARI-CLOSURE;X-HORARI-FROM=20261224;X-HORARI-THROUGH=20261226:Christmas\\; Sant Esteve\r\n"))
        #expect(text.contains("X-HORARI-OPENING-HOURS;X-HORARI-DAY=MO:07:00-22:00\r\n") && text.contains("X-HORARI-OPENING-DATE-HOURS:20270106\r\n"))
        #expect(text.contains("EXDATE;TZID=Europe/Madrid:20261225T070000\r\n"))

        let read = try ICalendarImporter().importCalendar(from: text).calendar
        var again = try read.schedulingBook()
        #expect(again == book)
        #expect(try again.classSeries("spin").changes.isEmpty)  // the EXDATE is the closure's, not the occurrence's
        #expect(try again.occurrence(classID: "spin", on: try Gym.day("2026-12-25")).closure?.reason == "Christmas; Sant Esteve")
        #expect(try read.schedulingCheck().problems.isEmpty)

        // The public timetable hides the closed dates in any calendar: our expansion, as every reader's, skips an EXDATE.
        let public_ = try ICalendar(book, for: .publicTimetable)
        let schedule = public_.schedule()
        let window = try DateInterval(start: Gym.now("2026-12-21 00:00"), end: Gym.now("2026-12-28 00:00"))
        let days = schedule.occurrences(in: window).map { $0.start.localDate.description }
        #expect(days == ["2026-12-21", "2026-12-23"])

        try again.open(from: try Gym.day("2026-12-24"), through: try Gym.day("2026-12-26"))
        var reopened = read
        reopened.setScheduling(again)
        let back = try ICalendarImporter().importCalendar(from: ICalendarExporter().export(reopened)).calendar
        #expect(try back.gymClosures().isEmpty)
        let spin = try back.schedulingBook().occurrence(classID: "spin", on: try Gym.day("2026-12-25"))
        #expect(!spin.isCancelled && spin.booked == 0)
    }

    @Test("a closure a person mistyped is named on reading, with how to mend it; two overlapping are refused")
    func mistyped() throws {
        var calendar = ICalendar()
        calendar.setScheduling(try Gym.book())
        var bad = calendar
        bad.properties.append(ContentLine(name: "X-HORARI-CLOSURE", parameters: [.init(name: "X-HORARI-FROM", values: ["20261224"])], value: "Christmas"))
        #expect(throws: SchedulingError.invalid(field: .property("X-HORARI-CLOSURE"), reason: "‘Christmas’ has no X-HORARI-THROUGH=YYYYMMDD; close the dates again with `horari classes close`")) {
            try bad.schedulingBook()
        }
        var backwards = calendar
        backwards.properties.append(ContentLine(name: "X-HORARI-CLOSURE", parameters: [.init(name: "X-HORARI-FROM", values: ["20261226"]), .init(name: "X-HORARI-THROUGH", values: ["20261224"])], value: "X"))
        #expect(throws: SchedulingError.invalid(field: .property("X-HORARI-CLOSURE"), reason: "‘X’: 2026-12-26..2026-12-24 ends before it starts; write the earlier date first")) {
            try backwards.gymClosures()
        }
        // The line a person is sent to: the closure's own.
        let text = ICalendarExporter().export(backwards)
        let line = text.components(separatedBy: "\r\n").firstIndex { $0.hasPrefix("X-HORARI-CLOSURE") }.map { $0 + 1 }
        let sourceLines = try ICalendarImporter().importCalendar(from: text).sourceLines
        #expect(line != nil && sourceLines.line(ofCalendarProperty: "X-HORARI-CLOSURE", holding: "X") == line)
        // As the book's error names it: the property and the value it quotes.
        #expect(refusal { _ = try backwards.gymClosures() }.flatMap { sourceLines.line(of: $0) } == line)
        var twice = calendar
        for (from, through) in [("20261224", "20261226"), ("20261226", "20261231")] {
            twice.properties.append(ContentLine(name: "X-HORARI-CLOSURE", parameters: [.init(name: "X-HORARI-FROM", values: [from]), .init(name: "X-HORARI-THROUGH", values: [through])], value: "Holidays"))
        }
        #expect(throws: SchedulingError.self) { try twice.schedulingCheck() }
    }
}
