import CalendarCore
import CalendarScheduling
import Foundation
import ICalendarKit
import SchedulingICalendar
import Testing
import _SchedulingTestSupport

/// Issue 31, 5: a coach's view of a client — when they last trained, and
/// when each session was marked completed, kept through the calendar file
/// and the book's JSON.
@Suite("A coach's view of a client")
struct CoachViewTests {
    func book() throws -> SchedulingBook {
        var book = try Gym.book()
        let booked = try Gym.now("2026-11-01 10:00")
        for (id, day) in [("s1", "2026-11-10"), ("s2", "2026-11-17"), ("s3", "2026-11-24")] {
            try book.addSession(id: id, coach: "marc", client: "anna", start: try Gym.at("\(day) 10:00"), duration: .minutes(60), now: booked)
        }
        _ = try book.setStatus(.completed, ofSession: "s1", coach: "marc", now: try Gym.now("2026-11-10 11:05"))
        _ = try book.setStatus(.noShow, ofSession: "s2", coach: "marc", now: try Gym.now("2026-11-17 11:00"))
        return book
    }

    @Test("the last completed session is when the client last trained; a no-show or a scheduled one is not")
    func lastTrained() throws {
        var book = try book()
        let last = try #require(try book.lastTrained(client: "anna", coach: "marc"))
        #expect(last.id == "s1")
        #expect(last.completedAt == (try Gym.now("2026-11-10 11:05")))
        #expect(try book.lastTrained(client: "pau", coach: "marc") == nil)
        // Another coach never sees Anna.
        #expect(throws: SchedulingError.self) { try book.lastTrained(client: "anna", coach: "laia") }
        _ = try book.setStatus(.completed, ofSession: "s3", coach: "marc", now: try Gym.now("2026-11-24 11:10"))
        #expect(try book.lastTrained(client: "anna")?.id == "s3")
        // Reopened, the completion time goes with the status.
        _ = try book.setStatus(.scheduled, ofSession: "s2", coach: "marc", now: try Gym.now("2026-11-24 12:00"))
        #expect(try book.history(client: "anna").first { $0.id == "s2" }?.completedAt == nil)
    }

    @Test("the completion time survives the calendar file and the book's JSON")
    func kept() throws {
        let book = try book()
        var calendar = ICalendar()
        calendar.setScheduling(book)
        let text = ICalendarExporter().export(calendar)
        #expect(text.contains("X-HORARI-COMPLETED:20261110T100500Z\r\n"))
        let reread = try ICalendarImporter().importCalendar(from: text).calendar.schedulingBook()
        #expect(try reread.lastTrained(client: "anna")?.completedAt == (try Gym.now("2026-11-10 11:05")))
        let json = try JSONEncoder().encode(book)
        #expect(String(decoding: json, as: UTF8.self).contains("\"completedAt\":\"2026-11-10T10:05:00Z\""))
        #expect(try JSONDecoder().decode(SchedulingBook.self, from: json) == book)
        // A completion time on a session that is not completed is refused, with the property named.
        let forged = text.replacingOccurrences(of: "X-HORARI-SESSION-STATUS:completed", with: "X-HORARI-SESSION-STATUS:scheduled")
        #expect(throws: SchedulingError.self) { try ICalendarImporter().importCalendar(from: forged).calendar.schedulingBook() }
    }
}
