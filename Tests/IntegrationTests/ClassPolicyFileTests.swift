import CalendarCore
import CalendarScheduling
import Foundation
import ICalendarKit
import SchedulingICalendar
import Testing
import _SchedulingTestSupport

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

    /// Issue 43, 1: the session policy is the book's, kept in every store,
    /// not a setting each program forces on its calls.
    @Test("the session policy: a new book's default, kept in the calendar (NONE for none), in JSON (null for none), and a form that records none reads back as the default")
    func sessionPolicyTravelsWithTheBook() throws {
        let zone = try ZoneRules.named("Europe/Madrid")
        #expect(SchedulingBook(timeZone: zone).policy == SchedulingPolicy())
        let now = Date(timeIntervalSince1970: 1_795_000_000)  // 2026-11-18
        var book = try Gym.book()
        book.policy = SchedulingPolicy()
        #expect(throws: SchedulingError.refusedByPolicy(.inThePast(start: "2026-11-17T10:00"))) {
            try book.addSession(coach: "marc", client: "anna", start: "2026-11-17T10:00", duration: .seconds(3600), now: now)
        }

        func backAndForth(_ policy: SchedulingPolicy?) throws -> (text: String, book: SchedulingBook, json: SchedulingBook) {
            var b = book
            b.policy = policy
            var calendar = ICalendar()
            calendar.setScheduling(b)
            let text = ICalendarExporter().export(calendar)
            let read = try ICalendarImporter().importCalendar(from: text).calendar.schedulingBook()
            let json = try JSONDecoder().decode(SchedulingBook.self, from: JSONEncoder().encode(b))
            return (text.replacingOccurrences(of: "\r\n ", with: ""), read, json)  // unfolded
        }
        let notice = SchedulingPolicy(withinWorkingHours: false, minimumNotice: .seconds(2 * 3600))
        let two = try backAndForth(notice)
        #expect(two.text.contains("X-HORARI-SESSION-POLICY;X-HORARI-NOTICE=PT2H:NOT-IN-PAST\\,REFUSE-SKIPPED-TIMES\r\n"))
        #expect(two.book.policy == notice && two.json.policy == notice)
        let none = try backAndForth(nil)
        #expect(none.text.contains("X-HORARI-SESSION-POLICY:NONE\r\n"))
        #expect(none.book.policy == nil && none.json.policy == nil)
        let standard = try backAndForth(SchedulingPolicy())
        #expect(standard.text.contains("X-HORARI-SESSION-POLICY:WITHIN-HOURS\\,NOT-IN-PAST\\,REFUSE-SKIPPED-TIMES\r\n"))

        // A calendar or a JSON form that records no policy (as 0.5.0 wrote them) reads back with the default.
        let unrecorded = none.text.replacingOccurrences(of: "X-HORARI-SESSION-POLICY:NONE\r\n", with: "")
        #expect(try ICalendarImporter().importCalendar(from: unrecorded).calendar.schedulingBook().policy == SchedulingPolicy())
        var object = try #require(try JSONSerialization.jsonObject(with: JSONEncoder().encode(Gym.book())) as? [String: Any])
        #expect(object["policy"] is NSNull)
        object["policy"] = nil
        #expect(try JSONDecoder().decode(SchedulingBook.self, from: JSONSerialization.data(withJSONObject: object)).policy == SchedulingPolicy())
        // A plain calendar with the default is not marked as a book.
        var plain = ICalendar()
        plain.setScheduling(SchedulingBook(timeZone: zone))
        #expect(!ICalendarExporter().export(plain).contains("X-HORARI-SESSION-POLICY"))

        let typo = standard.text.replacingOccurrences(of: "NOT-IN-PAST\\,", with: "NOT-IN-THE-PAST\\,")
        #expect(throws: SchedulingError.invalid(field: .property("X-HORARI-SESSION-POLICY"),
                                                reason: "‘NOT-IN-THE-PAST’ is not a rule (WITHIN-HOURS, NOT-IN-PAST, REFUSE-SKIPPED-TIMES, or NONE); mend the line, or remove it for the default rules (a new book's)")) {
            try ICalendarImporter().importCalendar(from: typo).calendar.schedulingBook()
        }
        // Bare commas, as Horari wrote them before escaping them (Radicale keeps a value only to its first), read the same.
        let bare = standard.text.replacingOccurrences(of: "WITHIN-HOURS\\,NOT-IN-PAST\\,", with: "WITHIN-HOURS,NOT-IN-PAST,")
        #expect(bare != standard.text)
        #expect(try ICalendarImporter().importCalendar(from: bare).calendar.schedulingBook().policy == SchedulingPolicy())
        // A notice of a thousand years is refused, in a calendar and in JSON, not added to now.
        let huge = two.text.replacingOccurrences(of: "X-HORARI-NOTICE=PT2H", with: "X-HORARI-NOTICE=PT9000000H")
        #expect(throws: SchedulingError.self) { try ICalendarImporter().importCalendar(from: huge).calendar.schedulingBook() }
        var hugeJSON = try #require(try JSONSerialization.jsonObject(with: JSONEncoder().encode(book)) as? [String: Any])
        hugeJSON["policy"] = ["withinWorkingHours": true, "notInPast": true, "minimumNotice": "PT9000000H", "refuseSkippedTimes": true]
        #expect(throws: DecodingError.self) { try JSONDecoder().decode(SchedulingBook.self, from: JSONSerialization.data(withJSONObject: hugeJSON)) }
        // Every rule off is an empty value, and reads back so.
        let off = try backAndForth(SchedulingPolicy(withinWorkingHours: false, notInPast: false, refuseSkippedTimes: false))
        #expect(off.text.contains("X-HORARI-SESSION-POLICY:\r\n") && off.book.policy == SchedulingPolicy(withinWorkingHours: false, notInPast: false, refuseSkippedTimes: false))
    }
}
